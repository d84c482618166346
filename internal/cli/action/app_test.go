package action_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestActionWithAnAppToken: the action given a GitHub App's installation
// token (actions/create-github-app-token) keeps one comment over reruns,
// by the App's bot, and puts its results on a check run of its own, since
// the job's check run belongs to GitHub Actions' App.
func TestActionWithAnAppToken(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token, App: "drp2-gate"})
	job := gh.JobCheckRun("conformance", headSHA)
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_CHECK-RUN-ID"] = strconv.FormatInt(job, 10)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 1)
	for i := 0; i < 3; i++ {
		r := w.Run(t, inProcess)
		if r.Code != ExitMismatch || r.Outputs["comment-url"] == "" || r.Outputs["check-url"] == "" {
			t.Fatalf("run %d: exit %d, outputs %v\n%s", i, r.Code, r.Outputs, r.Log)
		}
	}
	comments := gh.Comments(7)
	if len(comments) != 1 || comments[0].Login != "drp2-gate[bot]" {
		t.Errorf("comments: %+v", comments)
	}
	runs := gh.CheckRuns()
	if len(runs) != 4 || runs[0].Title != "" || runs[3].Name != "DRP2 fixtures" || runs[3].Conclusion != "failure" {
		t.Errorf("check runs: %+v", runs)
	}
}
