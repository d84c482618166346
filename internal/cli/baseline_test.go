package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// regressing is the passing corpus with its positive fixture broken.
func regressing() map[string]string {
	m := map[string]string{}
	for k, v := range passing {
		m[k] = v
	}
	m["fixtures/positive/ok.json"] = testkit.Fixture("ok", `{"outcome": "success"}`, testkit.Hello, testkit.Reply, `{"cmd": "NoSuchCommand", "id": 1}`)
	return m
}

// TestRunBaselineFolder: run --baseline with a folder holding the base
// checkout, --known-failures, and fail-on regressions.
func TestRunBaselineFolder(t *testing.T) {
	base := testkit.Corpus(t, passing)
	head := testkit.Corpus(t, regressing())
	code, out, errOut := run(t, head, "run", "--baseline", base)
	if code != ExitMismatch || !strings.Contains(out, "Comparison with the base:\n1 regressed (1 stream changed) against base "+base) {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions")
	if code != ExitMismatch || !strings.Contains(errOut, "1 fixture passed on base "+base+" and fails now") {
		t.Errorf("fail-on regressions: exit %d\n%s", code, errOut)
	}
	// A regression listed only by the change's own known-failures list
	// is not excused: the base folder has no such entry.
	list := filepath.Join(head, "known.txt")
	os.WriteFile(list, []byte("positive/ok.json broken on purpose\n"), 0o644)
	code, out, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions", "--known-failures", list)
	if code != ExitMismatch || !strings.Contains(out, "the known-failures list "+list+" changed against base "+base+" (1 added, 0 removed): 1 failure no entry of the base excuses counts") {
		t.Errorf("a regression listed by the change alone: exit %d\n%s\n%s", code, out, errOut)
	}
	// The base had the entry: the regression is excused.
	os.WriteFile(filepath.Join(base, "known.txt"), []byte("positive/ok.json broken on purpose\n"), 0o644)
	if code, _, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions", "--known-failures", list); code != ExitOK {
		t.Errorf("known regression: exit %d\n%s", code, errOut)
	}
	// The same rule holds for an expectations file: an entry of the
	// change alone does not excuse the regression; the base's does.
	expectations := filepath.Join(head, "expect.txt")
	os.WriteFile(expectations, []byte("drp2-fixtures positive/ok.json fail # broken on purpose\n"), 0o644)
	code, out, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions", "--expectations", expectations)
	if code != ExitMismatch || !strings.Contains(out, "changed against base "+base+" (1 added, 0 removed): 1 failure no entry of the base excuses counts") {
		t.Errorf("a regression expected to fail by the change alone: exit %d\n%s\n%s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(base, "expect.txt"), []byte("drp2-fixtures positive/ok.json fail # broken on purpose\n"), 0o644)
	if code, _, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions", "--expectations", expectations); code != ExitOK {
		t.Errorf("an expected failure the base listed: exit %d\n%s", code, errOut)
	}
	// A report's list is not known: it excuses no regression.
	report := filepath.Join(head, "base.json")
	if code, _, errOut = run(t, base, "run", "--json-out", report); code != ExitOK {
		t.Fatalf("base report: exit %d\n%s", code, errOut)
	}
	code, out, errOut = run(t, head, "run", "--baseline", report, "--fail-on", "regressions", "--known-failures", list)
	if code != ExitMismatch || !strings.Contains(out, "the expectations of base "+report+" are not known: 1 failure no entry of the base excuses counts") {
		t.Errorf("a report baseline: exit %d\n%s\n%s", code, out, errOut)
	}
	// Against itself nothing regressed: the failure is old.
	if code, _, errOut = run(t, head, "run", "--baseline", head, "--fail-on", "regressions"); code != ExitOK {
		t.Errorf("no regression: exit %d\n%s", code, errOut)
	}
	if code, _, errOut = run(t, head, "run", "--fail-on", "regressions"); code != ExitUsage || !strings.Contains(errOut, "needs a baseline") {
		t.Errorf("fail-on regressions without a baseline: exit %d\n%s", code, errOut)
	}
	if code, _, errOut = run(t, head, "run", "--baseline", "no/such/dir"); code != ExitUsage || !strings.Contains(errOut, "no/such/dir") {
		t.Errorf("missing baseline: exit %d\n%s", code, errOut)
	}
}

// TestKnownFailures: a listed failure does not fail the run; a listed
// fixture that passes is a finding, which fails under fail-on findings.
func TestKnownFailures(t *testing.T) {
	dir := testkit.Corpus(t, regressing())
	code, out, errOut := run(t, dir, "run", "--format", "json")
	if code != ExitMismatch {
		t.Fatalf("without a list: exit %d\n%s", code, errOut)
	}
	var doc struct {
		Summary struct {
			FailingPaths []string `json:"failing_paths"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Summary.FailingPaths) != 1 {
		t.Fatalf("failing paths %v: %v", doc.Summary.FailingPaths, err)
	}
	failing := doc.Summary.FailingPaths[0]
	list := filepath.Join(dir, "known.txt")
	os.WriteFile(list, []byte("# known\n"+failing+"  renderer bug 12\n"), 0o644)
	code, out, errOut = run(t, dir, "run", "--known-failures", "known.txt")
	if code != ExitOK || !strings.Contains(out, "known failure: renderer bug 12") {
		t.Errorf("listed failure: exit %d\n%s\n%s", code, out, errOut)
	}

	os.WriteFile(list, []byte("negative_schema/bad.json fixed long ago\n"+failing+" bug\n"), 0o644)
	// A listed fixture that passes is an unexpected pass, as of any
	// expectations entry: reported, failing under fail-on unexpected-pass.
	code, out, _ = run(t, dir, "run", "--known-failures", "known.txt")
	if code != ExitOK || !strings.Contains(out, "STALE fixtures/negative_schema/bad.json: Unexpected pass: expected to fail (known.txt:1)") {
		t.Errorf("listed pass: exit %d\n%s", code, out)
	}
	code, _, errOut = run(t, dir, "run", "--known-failures", "known.txt", "--fail-on", "mismatch,unexpected-pass")
	if code != ExitMismatch || !strings.Contains(errOut, "the built-in validator passed 1 fixture expected to fail") {
		t.Errorf("listed pass under fail-on unexpected-pass: exit %d\n%s", code, errOut)
	}

	os.WriteFile(list, []byte("fixtures/positive/ok.json\n"), 0o644)
	if code, _, errOut = run(t, dir, "run", "--known-failures", "known.txt"); code != ExitUsage || !strings.Contains(errOut, ":1: fixtures/positive/ok.json has no reason") {
		t.Errorf("entry without a reason: exit %d\n%s", code, errOut)
	}
}

// TestDiff compares two JSON reports.
func TestDiff(t *testing.T) {
	base := testkit.Corpus(t, passing)
	head := testkit.Corpus(t, regressing())
	if code, _, errOut := run(t, base, "run", "--json-out", "r.json"); code != ExitOK {
		t.Fatalf("base run: %d %s", code, errOut)
	}
	if code, _, errOut := run(t, head, "run", "--json-out", "r.json"); code != ExitMismatch {
		t.Fatalf("head run: %d %s", code, errOut)
	}
	b, h := filepath.Join(base, "r.json"), filepath.Join(head, "r.json")
	code, out, errOut := run(t, head, "diff", b, h)
	if code != ExitMismatch || !strings.HasPrefix(out, "Comparison with the base:\n1 regressed") || !strings.Contains(out, "  regressed                 fixtures/positive/ok.json (stream changed)") {
		t.Errorf("diff: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = run(t, head, "diff", "--format", "json", h, b)
	var c struct {
		Counts struct{ Fixed int } `json:"counts"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &c) != nil || c.Counts.Fixed != 1 {
		t.Errorf("diff json: exit %d\n%s", code, out)
	}
	if code, out, _ = run(t, head, "diff", b, h, "--format", "markdown"); code != ExitMismatch || !strings.HasPrefix(out, "### 🔴 1 regressed") {
		t.Errorf("diff markdown: exit %d\n%.300s", code, out)
	}
	// diff judges by the one regression rule of fail-on regressions: a
	// fixture added failing is a new failure too, unless it is a known one.
	files := withFailure()
	delete(files, "fixtures/positive/broken.json") // a corpus error is never excused
	added := testkit.Corpus(t, files)
	os.WriteFile(filepath.Join(added, "known.txt"), []byte("negative/wrong.json renderer bug 12\n"), 0o644)
	run(t, added, "run", "--json-out", "plain.json")
	run(t, added, "run", "--known-failures", "known.txt", "--json-out", "known.json")
	if code, out, _ := run(t, added, "diff", b, filepath.Join(added, "plain.json")); code != ExitMismatch || !strings.Contains(out, "1 added") {
		t.Errorf("diff with fixtures added failing: exit %d, want 1\n%s", code, out)
	}
	if code, out, _ := run(t, added, "diff", b, filepath.Join(added, "known.json")); code != ExitOK {
		t.Errorf("diff with known failures added: exit %d, want 0\n%s", code, out)
	}
	for _, args := range [][]string{{"diff", b}, {"diff", b, filepath.Join(head, "none.json")}, {"diff", "--format", "xml", b, h}} {
		if code, _, errOut := run(t, head, args...); code != ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}
