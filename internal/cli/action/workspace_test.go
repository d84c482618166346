package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestReportsNameFilesFromTheWorkspace: a corpus named by its absolute
// path in the container is reported by its path in the repository (the
// workspace) in every file, annotation and summary, never by the
// container's mount point.
func TestReportsNameFilesFromTheWorkspace(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 1)
	abs := filepath.Join(w.Dir, "corpus")
	w.Env["INPUT_CORPUS"] = abs
	r := w.Run(t, inProcess)
	if r.Code != 1 {
		t.Fatalf("exit %d\n%s", r.Code, r.Log)
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || len(runs[0].Annotations) != 1 || !strings.HasPrefix(runs[0].Annotations[0].Path, "corpus/") {
		t.Fatalf("check runs %+v", runs)
	}
	for _, f := range []string{"drp2-fixtures-junit.xml", "drp2-fixtures.json"} {
		data, err := os.ReadFile(filepath.Join(w.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "corpus/") || strings.Contains(string(data), abs) {
			t.Errorf("%s names the corpus by its absolute path, or not at all:\n%s", f, data)
		}
	}
	if strings.Contains(runs[0].Summary+runs[0].Text, abs) {
		t.Errorf("the check run names the corpus by its absolute path:\n%s", runs[0].Summary)
	}
}
