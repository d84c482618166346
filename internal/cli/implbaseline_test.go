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
	newBuffer   = `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`
	duplicateID = `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_DUPLICATE_ID", "command_index": 3}`
)

// implementationBase is the harness corpus and negative/x.json, a stream
// the Python example judges right; in implementationHead, x.json is a
// duplicate id, which the example blames on the wrong command, and
// negative/y.json, new, is another.
func implementationBase() map[string]string {
	return testkit.Merge(testkit.HarnessCorpus, map[string]string{
		"fixtures/negative/x.json": testkit.Fixture("x", testkit.Success, testkit.Hello, testkit.Reply, newBuffer),
	})
}

func implementationHead() map[string]string {
	return testkit.Merge(testkit.HarnessCorpus, map[string]string{
		"fixtures/negative/x.json": testkit.Fixture("x", duplicateID, testkit.Hello, testkit.Reply, newBuffer, newBuffer),
		"fixtures/negative/y.json": testkit.Fixture("y", duplicateID, testkit.Hello, testkit.Reply, newBuffer, newBuffer),
	})
}

type implDeltaDoc struct {
	Comparison struct {
		Implementations []struct {
			Implementation    string   `json:"implementation"`
			Base              *string  `json:"base_implementation"`
			Regressed         int      `json:"regressed"`
			Fixed             int      `json:"fixed"`
			AddedFailing      int      `json:"added_failing"`
			AddedPassing      int      `json:"added_passing"`
			RegressedPaths    []string `json:"regressed_paths"`
			AddedFailingPaths []string `json:"added_failing_paths"`
		} `json:"implementations"`
	} `json:"comparison"`
	Verdict struct {
		Reasons []string `json:"reasons"`
	} `json:"verdict"`
}

// TestImplementationRegressions: against a base folder (run by the
// validator; the implementations are run on the base's changed fixtures
// only) and against the JSON report of the base, each implementation is
// compared with itself: the Python example regressed on x.json and fails
// the new y.json, the project's adapter did neither; fail-on regressions
// fails the run for the example alone, and every report says so.
func TestImplementationRegressions(t *testing.T) {
	py := testkit.PythonExample(t)
	self := selfAdapter(t)
	base := testkit.Corpus(t, implementationBase())
	head := testkit.Corpus(t, implementationHead())
	if code, out, errs := run(t, base, "run", "--implementation", py, "--implementation", self, "--fail-on", "never", "--json-out", "base.json"); code != ExitOK {
		t.Fatalf("base: %d\n%s%s", code, out, errs)
	}
	report := filepath.Join(base, "base.json")
	for _, against := range []string{base, report} {
		code, out, errs := run(t, head, "run", "--implementation", py, "--implementation", self, "--baseline", against,
			"--fail-on", "regressions", "--json-out", "head.json", "--summary", "summary.md")
		want := "implementation python-example 0.1 fails 1 fixture it passed on base " + against + ", and 1 fixture it has no base result for"
		if code != ExitMismatch || !strings.Contains(errs, want) {
			t.Errorf("against %s: exit %d, want %q\n%s\n%s", against, code, want, out, errs)
			continue
		}
		if !strings.Contains(out, "Implementation python-example 0.1 against python-example 0.1 on the base: 1 regressed, 0 fixed, 1 added (1 failing)") ||
			!strings.Contains(out, "Implementation drp2-fixtures") {
			t.Errorf("against %s: the text report:\n%s", against, out)
		}
		summary, _ := os.ReadFile(filepath.Join(head, "summary.md"))
		if !strings.Contains(string(summary), "| python\\-example 0\\.1 | python\\-example 0\\.1 | 1 | 0 | 1 | `fixtures/negative/x.json`<br>`fixtures/negative/y.json` |") {
			t.Errorf("against %s: the summary:\n%s", against, summary)
		}
		data, _ := os.ReadFile(filepath.Join(head, "head.json"))
		var doc implDeltaDoc
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		ims := doc.Comparison.Implementations
		if len(ims) != 2 || ims[0].Regressed != 1 || ims[0].AddedFailing != 1 || ims[0].RegressedPaths[0] != "fixtures/negative/x.json" ||
			ims[1].Regressed != 0 || ims[1].AddedFailing != 0 || ims[1].AddedPassing != 1 || ims[1].Base == nil {
			t.Errorf("against %s: %+v", against, ims)
		}
	}
	// diff compares the two reports' implementations the same way.
	code, out, _ := run(t, head, "diff", report, filepath.Join(head, "head.json"))
	if code != ExitMismatch || !strings.Contains(out, "Implementation python-example 0.1 against python-example 0.1 on the base: 1 regressed, 0 fixed, 1 added (1 failing)") {
		t.Errorf("diff: exit %d\n%s", code, out)
	}
	// Against itself, nothing is new for either implementation.
	if code, _, errs := run(t, head, "run", "--implementation", py, "--baseline", head, "--fail-on", "regressions"); code != ExitOK {
		t.Errorf("against itself: exit %d\n%s", code, errs)
	}
}

// An implementation's new failure is excused by an expectations entry only
// when the base had the entry (a base folder holding the file): one the
// change alone writes counts, and a finding says why.
func TestImplementationRegressionsHeldToTheBaseList(t *testing.T) {
	py := testkit.PythonExample(t)
	base := testkit.Corpus(t, implementationBase())
	head := testkit.Corpus(t, implementationHead())
	list := "python-example negative/x.json fail # blames the wrong command\npython-example negative/y.json fail # the same\n"
	os.WriteFile(filepath.Join(head, "expect.txt"), []byte(list), 0o644)
	args := []string{"run", "--implementation", py, "--baseline", base, "--fail-on", "regressions", "--expectations", "expect.txt"}
	code, out, errs := run(t, head, args...)
	if code != ExitMismatch || !strings.Contains(errs, "implementation python-example 0.1 fails 1 fixture it passed on base") ||
		!strings.Contains(out, "listed as a known failure for python-example (expect.txt:1), but it fails and passed on the base") {
		t.Errorf("entries the change alone wrote: exit %d\n%s\n%s", code, out, errs)
	}
	os.WriteFile(filepath.Join(base, "expect.txt"), []byte(list), 0o644)
	if code, out, errs := run(t, head, args...); code != ExitOK {
		t.Errorf("entries the base had: exit %d\n%s\n%s", code, out, errs)
	}
}
