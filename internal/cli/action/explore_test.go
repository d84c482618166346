package action_test

import (
	"os"
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
	// A folder outside the workspace is refused before anything runs.
	w.Env["INPUT_EXPLORE-OUT"] = "../outside-the-workspace"
	r = w.Run(t, inProcess)
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Log, "explore-out") || strings.Contains(r.Summary, "### DRP2 explore") {
		t.Errorf("explore-out outside the workspace: exit %d, outputs %v\n%s\n%s", r.Code, r.Outputs, r.Summary, r.Log)
	}
	w.Env["INPUT_EXPLORE-OUT"] = "explored"
	for _, bad := range []string{"many", "-1"} {
		w.Env["INPUT_EXPLORE"] = bad
		if r := w.Run(t, inProcess); r.Code != ExitUsage {
			t.Errorf("explore: %s: exit %d", bad, r.Code)
		}
	}
	w.Env["INPUT_EXPLORE"] = "24"
	for _, bad := range []string{"soon", "0s", "-1m"} {
		w.Env["INPUT_EXPLORE-TIME"] = bad
		if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "explore-time") {
			t.Errorf("explore-time: %s: exit %d\n%s", bad, r.Code, r.Log)
		}
	}
}

// The exploration comes after the run's reports: an implementation started
// for it finds the JSON report and the job summary already written (the
// one started for the run cannot), and a failed exploration is a warning
// that leaves the verdict alone.
func TestActionExploresAfterTheReports(t *testing.T) {
	py := testkit.PythonExample(t)
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "embedded"
	w.Env["INPUT_FAIL-ON"] = "never"
	w.Env["INPUT_EXPLORE"] = "8"
	summary := w.Env["GITHUB_STEP_SUMMARY"]
	check := `if [ -f drp2-fixtures.json ] && [ -s ` + testkit.ShellQuote(summary) + ` ]; then echo started >> explored-after-reports; fi; exec ` + py
	w.Env["INPUT_IMPLEMENTATION"] = "sh -c " + testkit.ShellQuote(check)
	r := w.Run(t, inProcess)
	if r.Code != ExitOK || !strings.Contains(r.Summary, "### DRP2 explore") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Summary, r.Log)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, "explored-after-reports")); err != nil {
		t.Errorf("no implementation started for the exploration found the reports written: %v", err)
	}
	// An exploration that cannot start (a corpus of schema negatives has
	// no stream to start from) does not change the verdict: a warning, and
	// the summary says so.
	w.Env["INPUT_IMPLEMENTATION"] = py
	w.Env["INPUT_CORPUS"] = "schema-only"
	testkit.WriteFiles(t, w.Dir, map[string]string{"schema-only/negative_schema/bad.json": `{"name": "bad", "version": {"major": 2, "minor": 0}, "tags": ["t"],
  "commands": [{"cmd": "HelloRenderer"}],
  "expected": {"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 0}}`})
	r = w.Run(t, inProcess)
	if r.Code != ExitOK || r.Outputs["conclusion"] != "success" || !strings.Contains(r.Log, "::warning title=drp2-fixtures::explore:") ||
		!strings.Contains(r.Summary, "Explore did not finish") {
		t.Errorf("an exploration that cannot start: exit %d, outputs %v\n%s\n%s", r.Code, r.Outputs, r.Summary, r.Log)
	}
}
