package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// With baseline auto, the base commit's fixtures go through the
// implementations too (those whose bytes changed; the others take the
// head's results): the Python example regressed on x.json and fails the
// new y.json, which fails the step under fail-on regressions.
func TestActionImplementationRegressionsAgainstTheBaseCommit(t *testing.T) {
	py := testkit.PythonExample(t)
	w := newWorkspace(t, "http://127.0.0.1:1", 7, "")
	dup := `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`
	duplicateID := `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_DUPLICATE_ID", "command_index": 3}`
	testkit.WriteFiles(t, w.Dir, map[string]string{
		"corpus/positive/ok.json": testkit.Fixture("ok", testkit.Success, testkit.Hello, testkit.Reply),
		"corpus/negative/x.json":  testkit.Fixture("x", testkit.Success, testkit.Hello, testkit.Reply, dup),
	})
	base := commitWorkspace(t, w.Dir, "base")
	testkit.WriteFiles(t, w.Dir, map[string]string{
		"corpus/negative/x.json": testkit.Fixture("x", duplicateID, testkit.Hello, testkit.Reply, dup, dup),
		"corpus/negative/y.json": testkit.Fixture("y", duplicateID, testkit.Hello, testkit.Reply, dup, dup),
	})
	commitWorkspace(t, w.Dir, "head")
	withBase(t, w, base.String())
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "corpus"
	w.Env["INPUT_IMPLEMENTATION"] = py
	w.Env["INPUT_FAIL-ON"] = "regressions"
	r := w.Run(t, inProcess)
	short := base.String()[:7]
	want := "implementation python-example 0.1 fails 1 fixture it passed on base " + short + ", and 1 fixture it has no base result for"
	if r.Code != ExitMismatch || !strings.Contains(r.Log, want) {
		t.Fatalf("exit %d, want %q\n%s", r.Code, want, r.Log)
	}
	if out := r.Outputs["implementations"]; !strings.Contains(out, `"regressed":1,"fixed":0,"added":1`) {
		t.Errorf("the implementations output: %s", out)
	}
	if !strings.Contains(r.Summary, "| python\\-example 0\\.1 | python\\-example 0\\.1 | 1 | 0 | 1 | `corpus/negative/x.json`<br>`corpus/negative/y.json` |") {
		t.Errorf("the job summary:\n%s", r.Summary)
	}
	// The same results merged into a step that runs no implementation
	// (the report job of a matrix): the implementation ran on another
	// machine and its base results cannot be made here, so the base's
	// lists (none: it listed no failure) say what it failed there. The
	// verdict is the one the base's results gave: x.json regressed, y.json
	// added failing; a passing fixture is never read as new.
	data, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "other-job.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env["INPUT_IMPLEMENTATION"] = ""
	w.Env["INPUT_RESULTS"] = "other-job.json"
	r = w.Run(t, inProcess)
	if r.Code != ExitMismatch || !strings.Contains(r.Log, want) ||
		!strings.Contains(r.Summary, "| python\\-example 0\\.1 | — | 1 | 0 | 1 | `corpus/negative/x.json`<br>`corpus/negative/y.json` |") {
		t.Errorf("merged results: exit %d\n%s\n%s", r.Code, r.Summary, r.Log)
	}
}
