package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestActionImplementation: the action's implementation input runs the
// Python example, its results input merges a report of another job, and
// the comment, the check run and the annotations show the implementations.
func TestActionImplementation(t *testing.T) {
	py := testkit.PythonExample(t)
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	for rel, body := range testkit.HarnessCorpus {
		p := filepath.Join(w.Dir, "corpus", strings.TrimPrefix(rel, "fixtures/"))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Another job ran the project's own adapter and uploaded its report.
	if code, o, e := run(t, w.Dir, "run", "--corpus", "corpus", "--implementation", selfAdapter(t), "--json-out", "artifacts/own/drp2-fixtures.json"); code != ExitOK {
		t.Fatalf("the other job: %d\n%s%s", code, o, e)
	}
	w.Env["INPUT_IMPLEMENTATION"] = py + "\n"
	w.Env["INPUT_RESULTS"] = "artifacts/*/drp2-fixtures.json"
	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" {
		t.Fatalf("exit %d, conclusion %q\n%s", r.Code, r.Outputs["conclusion"], r.Log)
	}
	comments := gh.Comments(7)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	body := comments[0].Body
	for _, want := range []string{"<!-- drp2-fixtures:comment:corpus -->", "## DRP2 implementations", "**python\\-example 0\\.1**", "**drp2\\-fixtures", "corpus/negative/duplicate.json"} {
		if !strings.Contains(body, want) && !strings.Contains(body, strings.ReplaceAll(want, "/", "\\/")) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || runs[0].Title != "DRP2 conformance: all 3 fixtures passed; implementation python-example 0.1 failed 1 of 3 fixtures" || !strings.Contains(runs[0].Summary, "## DRP2 implementations") {
		t.Fatalf("check runs: %+v", runs)
	}
	found := false
	for _, a := range runs[0].Annotations {
		found = found || strings.HasPrefix(a.Title, "DRP2 python-example 0.1: fixture mismatch (negative): duplicate")
	}
	if !found {
		t.Errorf("no annotation for the implementation under test: %+v", runs[0].Annotations)
	}
	if !strings.Contains(r.Summary, "## DRP2 implementations") {
		t.Errorf("job summary:\n%s", r.Summary)
	}
}
