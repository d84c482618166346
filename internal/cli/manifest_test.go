package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

const (
	invalidID = testkit.InvalidID
	writeCmd  = testkit.WriteCmd
)

// manifestCorpus is a passing corpus with a semantic negative.
var manifestCorpus = testkit.ManifestCorpus

func putFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestManifestWriteAndCheck(t *testing.T) {
	dir := testkit.Corpus(t, manifestCorpus())
	code, out, errs := run(t, dir, "manifest", "write")
	if code != ExitOK || !strings.Contains(out, "Wrote fixtures/manifest.json: 3 fixtures, DRP2 2.0, not frozen") {
		t.Fatalf("write: exit %d\n%s%s", code, out, errs)
	}
	first, err := os.ReadFile(filepath.Join(dir, "fixtures", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The same bytes from another working directory and to stdout.
	code, out, _ = run(t, filepath.Join(dir, "fixtures"), "manifest", "write", "--corpus", ".", "-o", "-")
	if code != ExitOK || out != string(first) {
		t.Fatalf("manifest differs when written from the corpus folder (exit %d)", code)
	}
	code, out, errs = run(t, dir, "manifest", "check")
	if code != ExitOK || !strings.Contains(out, "the corpus matches its manifest") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}

	// An unfrozen manifest reports a changed expectation without failing.
	putFile(t, filepath.Join(dir, "fixtures/negative/unknown.json"),
		testkit.Fixture("unknown", strings.Replace(invalidID, `"command_index": 2`, `"command_index": 1`, 1), testkit.Hello, testkit.Reply, writeCmd))
	code, out, _ = run(t, dir, "manifest", "check")
	if code != ExitOK || !strings.Contains(out, `command_index: 2 → 1`) {
		t.Fatalf("unfrozen check: exit %d\n%s", code, out)
	}
}

func TestFrozenManifestCLI(t *testing.T) {
	dir := testkit.Corpus(t, manifestCorpus())
	if code, out, errs := run(t, dir, "manifest", "write", "--frozen"); code != ExitOK {
		t.Fatalf("write: exit %d\n%s%s", code, out, errs)
	}
	// An added fixture keeps the freeze.
	putFile(t, filepath.Join(dir, "fixtures/positive/more.json"), testkit.Fixture("more", `{"outcome": "success"}`, testkit.Hello, testkit.Reply))
	code, out, errs := run(t, dir, "manifest", "check")
	if code != ExitOK || !strings.Contains(out, "1 added") || !strings.Contains(out, "the freeze holds") {
		t.Fatalf("added fixture: exit %d\n%s%s", code, out, errs)
	}
	// A rewrite keeps the manifest frozen without --frozen.
	if code, out, errs := run(t, dir, "manifest", "write"); code != ExitOK || !strings.Contains(out, "frozen") || strings.Contains(out, "not frozen") {
		t.Fatalf("rewrite: exit %d\n%s%s", code, out, errs)
	}

	// A changed expectation breaks it.
	putFile(t, filepath.Join(dir, "fixtures/negative/unknown.json"),
		testkit.Fixture("unknown", strings.Replace(invalidID, "DRP2_ERR_INVALID_ID", "DRP2_ERR_DESTROYED_OBJECT", 1), testkit.Hello, testkit.Reply, writeCmd))
	code, out, errs = run(t, dir, "manifest", "check")
	if code != ExitMismatch || !strings.Contains(out, "negative/unknown.json: expected block") || !strings.Contains(errs, "breaks the freeze") {
		t.Fatalf("changed expectation: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, dir, "manifest", "check", "--format", "json")
	var cmp struct{ Violations int }
	if err := json.Unmarshal([]byte(out), &cmp); code != ExitMismatch || err != nil || cmp.Violations != 1 {
		t.Fatalf("json check: exit %d, %v, %+v", code, err, cmp)
	}
	// The frozen manifest is not overwritten with the violation.
	before, _ := os.ReadFile(filepath.Join(dir, "fixtures", "manifest.json"))
	code, _, errs = run(t, dir, "manifest", "write")
	after, _ := os.ReadFile(filepath.Join(dir, "fixtures", "manifest.json"))
	if code != ExitMismatch || string(before) != string(after) || !strings.Contains(errs, "not overwritten") {
		t.Fatalf("write over a broken freeze: exit %d\n%s", code, errs)
	}
	// run --manifest fails on the violation, after the report.
	code, out, errs = run(t, dir, "run", "--manifest", "fixtures/manifest.json")
	if code != ExitMismatch || !strings.Contains(out, "Summary:") || !strings.Contains(errs, "breaks the freeze of fixtures/manifest.json") {
		t.Fatalf("run --manifest: exit %d\n%s%s", code, out, errs)
	}
}

func TestRunCheckClean(t *testing.T) {
	dir := testkit.Corpus(t, manifestCorpus())
	if code, _, errs := run(t, dir, "manifest", "write"); code != ExitOK {
		t.Fatal(errs)
	}
	code, out, errs := run(t, dir, "run", "--check-clean")
	if code != ExitOK || !strings.Contains(out, "Manifest: the corpus matches its manifest") {
		t.Fatalf("clean: exit %d\n%s%s", code, out, errs)
	}
	// Any difference fails --check-clean, even one a freeze allows.
	putFile(t, filepath.Join(dir, "fixtures/positive/more.json"), testkit.Fixture("more", `{"outcome": "success"}`, testkit.Hello, testkit.Reply))
	code, out, errs = run(t, dir, "run", "--check-clean", "--format", "json")
	if code != ExitMismatch || !strings.Contains(errs, "differs from its manifest") || !strings.Contains(errs, "added    positive/more.json") {
		t.Fatalf("added fixture: exit %d\n%s", code, errs)
	}
	if !json.Valid([]byte(out)) {
		t.Errorf("--format json with --check-clean: standard output is not one JSON document")
	}
	// A filtered run cannot be compared with a whole-corpus manifest.
	if code, _, errs := run(t, dir, "run", "--check-clean", "--name", "ok"); code != ExitUsage || !strings.Contains(errs, "without PATH, --name or --tag") {
		t.Fatalf("filtered: exit %d\n%s", code, errs)
	}
}

func TestManifestUsageErrors(t *testing.T) {
	dir := testkit.Corpus(t, manifestCorpus())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"manifest", "check"}, "manifest.json does not exist: write it with drp2-fixtures manifest write"},
		{[]string{"manifest"}, "Usage:"},
		{[]string{"manifest", "frobnicate"}, `unknown subcommand "frobnicate"`},
		{[]string{"manifest", "check", "extra"}, `unexpected argument "extra"`},
		{[]string{"manifest", "check", "--format", "xml"}, `invalid value "xml" for flag -format: want text, json or markdown`},
		{[]string{"run", "--check-clean", "--manifest", "nope.json"}, "nope.json does not exist"},
	} {
		code, _, errs := run(t, dir, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	putFile(t, filepath.Join(dir, "fixtures", "manifest.json"), `{"format": 9}`)
	if code, _, errs := run(t, dir, "manifest", "check"); code != ExitUsage || !strings.Contains(errs, "fixtures/manifest.json: unreadable manifest: format \"9\"") {
		t.Errorf("future format: exit %d, %s", code, errs)
	}
	// An unusable fixture is never recorded.
	putFile(t, filepath.Join(dir, "fixtures/positive/broken.json"), `{"name": `)
	if code, _, errs := run(t, dir, "manifest", "write"); code != ExitMismatch || !strings.Contains(errs, "positive/broken.json") {
		t.Errorf("unusable corpus: exit %d, %s", code, errs)
	}
}

// TestCoverageCommand counts the real validator's rules over a small
// corpus: the negative fixture's rule, the positive streams' checks.
func TestCoverageCommand(t *testing.T) {
	dir := testkit.Corpus(t, manifestCorpus())
	code, out, errs := run(t, dir, "coverage", "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var rep struct {
		Rules []struct {
			ID               string
			Negative         int
			Positive         int
			NegativeFixtures []string `json:"negative_fixtures"`
			FindingOnly      bool     `json:"finding_only"`
		}
		Uncovered        int
		PositiveFixtures int `json:"positive_fixtures"`
		NegativeFixtures int `json:"negative_fixtures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	findingOnly := 0
	for _, r := range rep.Rules {
		if r.FindingOnly {
			findingOnly++
		}
	}
	if rep.PositiveFixtures != 1 || rep.NegativeFixtures != 1 || rep.Uncovered != len(rep.Rules)-1-findingOnly {
		t.Fatalf("positive %d negative %d uncovered %d of %d (%d findings only)", rep.PositiveFixtures, rep.NegativeFixtures, rep.Uncovered, len(rep.Rules), findingOnly)
	}
	covered := rep.Rules[rep.Uncovered]
	if covered.ID != "ERRORS.md Identity And Type rule 1" || covered.Negative != 1 || covered.NegativeFixtures[0] != "fixtures/negative/unknown.json" {
		t.Errorf("covered rule: %+v", covered)
	}
	sawHandshake := false
	for _, r := range rep.Rules {
		// The one positive fixture is a handshake: it passes through the
		// handshake rule, and through no draw rule.
		if r.ID == "LIFETIMES.md Session State rule 5" {
			sawHandshake = r.Positive == 1
		}
		if strings.HasPrefix(r.ID, "COMMANDS.md Draw") && r.Positive != 0 {
			t.Errorf("%s: a handshake cannot pass through a draw rule (positive %d)", r.ID, r.Positive)
		}
	}
	if !sawHandshake {
		t.Error("the positive handshake is not counted under LIFETIMES.md Session State rule 5")
	}
	code, out, _ = run(t, dir, "coverage", "--format", "markdown")
	if code != ExitOK || !strings.HasPrefix(out, "### Rule coverage") {
		t.Errorf("markdown: exit %d\n%.200s", code, out)
	}

}
