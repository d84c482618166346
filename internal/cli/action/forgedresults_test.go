package action_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A runtime job whose report ran no fixture (a filter, or a runtime that
// stopped at once) and a shard report from which the one failing result
// was dropped ("run 5 of 6") both said nothing failed; a fixture of the
// selection an implementation did not report is not a pass, and the run
// fails naming the implementation and how many it did not report.
func TestActionFailsAnImplementationThatDidNotReportTheSelection(t *testing.T) {
	w, base := resultsWorkspace(t)
	commitWorkspace(t, w.Dir, "head")
	withBase(t, w, base)
	runtimeReport(t, w.Dir, "drp2-artifacts/none/r.json", "--name", "no fixture is named this")
	w.Env["INPUT_RESULTS"] = "drp2-artifacts/*/*.json"
	r := w.Run(t, inProcess)
	want := "did not report 3 of the 3 fixtures of the selection"
	if r.Code != ExitMismatch || !strings.Contains(r.Log, want) || !strings.Contains(r.Log, "implementation drp2-fixtures") {
		t.Fatalf("a report of no fixture: exit %d, want %q\n%s", r.Code, want, r.Log)
	}
}

// The shards of a runtime that fails a fixture, one of them with that
// result dropped from its report.
func TestActionFailsAShardReportMissingItsFailingResult(t *testing.T) {
	py := testkit.PythonExample(t)
	w := newWorkspace(t, "http://127.0.0.1:1", 7, "")
	dup := `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`
	duplicateID := `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_DUPLICATE_ID", "command_index": 3}`
	files := map[string]string{"corpus/negative/x.json": testkit.Fixture("x", duplicateID, testkit.Hello, testkit.Reply, dup, dup)}
	for i := range 5 {
		name := fmt.Sprintf("ok_%d", i)
		files["corpus/positive/"+name+".json"] = testkit.Fixture(name, testkit.Success, testkit.Hello, testkit.Reply)
	}
	testkit.WriteFiles(t, w.Dir, files)
	base := commitWorkspace(t, w.Dir, "base")
	commitWorkspace(t, w.Dir, "head")
	withBase(t, w, base.String())
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "corpus"
	w.Env["INPUT_RESULTS"] = "drp2-artifacts/*/*.json"
	for k := 1; k <= 2; k++ {
		out := fmt.Sprintf("drp2-artifacts/shard-%d/r.json", k)
		if code, o, e := run(t, w.Dir, "run", "--corpus", "corpus", "--shard", fmt.Sprintf("%d/2", k), "--fail-on", "never",
			"--implementation", py, "--json-out", out); code != ExitOK {
			t.Fatalf("shard %d: exit %d\n%s%s", k, code, o, e)
		}
	}
	if r := w.Run(t, inProcess); r.Code != ExitMismatch || !strings.Contains(r.Log, "implementation python-example 0.1 failed 1 of 6 fixtures") {
		t.Fatalf("the shards as they were made: exit %d\n%s", r.Code, r.Log)
	}
	dropped := 0
	for k := 1; k <= 2; k++ {
		dropped += dropResult(t, filepath.Join(w.Dir, fmt.Sprintf("drp2-artifacts/shard-%d/r.json", k)), "negative/x.json")
	}
	if dropped != 1 {
		t.Fatalf("dropped %d results", dropped)
	}
	r := w.Run(t, inProcess)
	want := "implementation python-example 0.1 did not report 1 of the 6 fixtures of the selection"
	if r.Code != ExitMismatch || !strings.Contains(r.Log, want) {
		t.Fatalf("a shard without its failing result: exit %d, want %q\n%s", r.Code, want, r.Log)
	}
}

// dropResult removes every implementation's result for the corpus path
// rel from the JSON report at path, as a forger would, and says how many
// it removed.
func dropResult(t *testing.T, path, rel string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	dropped := 0
	impls, _ := doc["implementations"].([]any)
	for _, im := range impls {
		im := im.(map[string]any)
		var kept []any
		for _, res := range im["results"].([]any) {
			if res.(map[string]any)["corpus_path"] == rel {
				dropped++
				continue
			}
			kept = append(kept, res)
		}
		if kept == nil {
			kept = []any{}
		}
		im["results"] = kept
	}
	if data, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dropped
}

// The workflow names the implementations that must report: one whose job
// uploaded nothing fails the run, by name; one that reported passes.
func TestActionRequiresTheImplementationsTheWorkflowNames(t *testing.T) {
	w, base := resultsWorkspace(t)
	commitWorkspace(t, w.Dir, "head")
	withBase(t, w, base)
	w.Env["INPUT_REQUIRE-IMPLEMENTATIONS"] = "native-runtime"
	r := w.Run(t, inProcess)
	want := "implementation native-runtime has no results"
	if r.Code != ExitMismatch || !strings.Contains(r.Log, want) {
		t.Fatalf("no report: exit %d, want %q\n%s", r.Code, want, r.Log)
	}
	runtimeReport(t, w.Dir, "drp2-artifacts/native/r.json")
	w.Env["INPUT_RESULTS"] = "drp2-artifacts/*/*.json"
	w.Env["INPUT_REQUIRE-IMPLEMENTATIONS"] = "drp2-fixtures"
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Fatalf("the required implementation reported: exit %d\n%s", r.Code, r.Log)
	}
}
