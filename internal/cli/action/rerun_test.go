package action_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rerunWorkspace is a push's workspace with a corpus of 2 failing and 8
// passing fixtures, run through the project's adapter; the first attempt
// has run, and its JSON report is kept where the workflow downloads the
// previous attempt's artifact (prev/drp2-fixtures.json).
func rerunWorkspace(t *testing.T) *sandbox {
	t.Helper()
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 8)
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "corpus"
	w.Env["INPUT_IMPLEMENTATION"] = selfAdapter(t)
	w.Env["INPUT_RERUN-FROM"] = "prev/drp2-fixtures.json"
	w.Env["GITHUB_RUN_ATTEMPT"] = "1"
	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || strings.Contains(r.Log, "Re-run") {
		t.Fatalf("attempt 1: exit %d\n%s", r.Code, r.Log)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	putFile(t, filepath.Join(w.Dir, "prev", "drp2-fixtures.json"), string(data))
	w.Env["GITHUB_RUN_ATTEMPT"] = "2"
	return w
}

// On a re-run attempt, the action carries over the previous attempt's
// passes and runs the 2 failures again, and says so in the log and the
// job summary; the report is whole.
func TestActionRerunCarriesOverThePreviousAttempt(t *testing.T) {
	w := rerunWorkspace(t)
	r := w.Run(t, inProcess)
	want := "Re-run attempt 2: 2 fixtures run, 8 carried over from attempt 1 (prev/drp2-fixtures.json)"
	if r.Code != ExitMismatch || !strings.Contains(r.Log, "::notice title=drp2-fixtures::"+want) {
		t.Fatalf("exit %d, want %d and %q in the log\n%s", r.Code, ExitMismatch, want, r.Log)
	}
	if !strings.Contains(r.Summary, "*Re-run attempt 2: 2 fixtures run, 8 carried over from attempt 1 (`prev/drp2-fixtures.json`).*") {
		t.Fatalf("the job summary does not say what was carried over:\n%s", r.Summary)
	}
	var doc struct {
		Summary struct {
			Rerun struct{ Ran, Carried int } `json:"rerun"`
		} `json:"summary"`
		Implementations []struct {
			Results []struct{ Carried bool } `json:"results"`
		} `json:"implementations"`
	}
	data, _ := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	carried := 0
	for _, res := range doc.Implementations[0].Results {
		if res.Carried {
			carried++
		}
	}
	if doc.Summary.Rerun.Ran != 2 || doc.Summary.Rerun.Carried != 8 || len(doc.Implementations[0].Results) != 10 || carried != 8 {
		t.Fatalf("report: rerun %+v, %d results, %d carried", doc.Summary.Rerun, len(doc.Implementations[0].Results), carried)
	}
}

// Without the previous attempt's report (the workflow kept none), every
// fixture runs, and the log says why.
func TestActionRerunWithoutAReportRunsEverything(t *testing.T) {
	w := rerunWorkspace(t)
	w.Env["INPUT_RERUN-FROM"] = "prev/missing.json"
	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || !strings.Contains(r.Log, "re-run attempt 2: no report of the previous attempt at prev/missing.json (rerun-from): every fixture runs") ||
		strings.Contains(r.Log, "carried over") {
		t.Fatalf("exit %d\n%s", r.Code, r.Log)
	}
}

// A report of another commit, or one git tracks (a pull request's own,
// planted to carry passes over), is refused with exit 2.
func TestActionRerunRefusesAnotherCommitAndATrackedReport(t *testing.T) {
	w := rerunWorkspace(t)
	w.Env["GITHUB_SHA"] = strings.Repeat("e", 40)
	r := w.Run(t, inProcess)
	if r.Code != ExitUsage || !strings.Contains(r.Log, "input rerun-from prev/drp2-fixtures.json: it was made on commit ") ||
		!strings.Contains(r.Log, ", this run on "+strings.Repeat("e", 40)) {
		t.Fatalf("another commit: exit %d\n%s", r.Code, r.Log)
	}

	w = rerunWorkspace(t)
	commitWorkspace(t, w.Dir, "a report that says the failures passed")
	r = w.Run(t, inProcess)
	if r.Code != ExitUsage || !strings.Contains(r.Log, "input rerun-from prev/drp2-fixtures.json: git tracks this file") {
		t.Fatalf("a tracked report: exit %d\n%s", r.Code, r.Log)
	}
}
