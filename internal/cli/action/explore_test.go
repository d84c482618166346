package action_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// The action's explore input adds the disagreements to the job summary
// and writes the candidates only where explore-out says.
func TestActionExploreInput(t *testing.T) {
	py := testkit.PythonExample(t)
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_IMPLEMENTATION"] = py
	w.Env["INPUT_CORPUS"] = "embedded" // asked for by name: an empty corpus input searches the workspace
	w.Env["INPUT_FAIL-ON"] = "never"
	w.Env["INPUT_EXPLORE"] = "24"
	w.Env["INPUT_EXPLORE-OUT"] = "explored"
	r := w.Run(t, inProcess)
	if r.Code != ExitOK || !strings.Contains(r.Summary, "### DRP2 explore") || !strings.Contains(r.Summary, "disagreement signatures") {
		t.Fatalf("action explore: exit %d\n%s\n%s", r.Code, r.Summary, r.Log)
	}
	if files, _ := filepath.Glob(filepath.Join(w.Dir, "explored", "*", "explore_*.json")); len(files) == 0 {
		t.Fatal("no candidate written to explore-out")
	}
	// Candidates that cannot be written (outside the workspace) fail the
	// step by the verdict, with
	// the exploration's report still in the summary.
	w.Env["INPUT_EXPLORE-OUT"] = "../outside-the-workspace"
	r = w.Run(t, inProcess)
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Summary, "### DRP2 explore") ||
		!strings.Contains(r.Log, "explore:") || !strings.Contains(r.Summary, "not every check could be made") {
		t.Errorf("explore-out outside the workspace: exit %d, outputs %v\n%s\n%s", r.Code, r.Outputs, r.Summary, r.Log)
	}
	w.Env["INPUT_EXPLORE-OUT"] = "explored"
	w.Env["INPUT_EXPLORE"] = "many"
	if r := w.Run(t, inProcess); r.Code != ExitUsage {
		t.Errorf("explore: many: exit %d", r.Code)
	}
}
