package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// The implementation input's @FILE list is read like every other input
// file: a pull request that replaces it with a link (to the process's
// environment, say) gets an error, not the link target's lines shown as
// implementations.
func TestImplementationListHeldToTheWorkspace(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	secret := filepath.Join(t.TempDir(), "environ")
	os.WriteFile(secret, []byte("GITHUB_TOKEN-line\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(w.Dir, "impls.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, list := range []string{"@impls.txt", "@" + secret} {
		w.Env["INPUT_IMPLEMENTATION"] = list
		r := w.Run(t, inProcess)
		if r.Code != ExitUsage || strings.Contains(r.Log+r.Summary, "GITHUB_TOKEN-line") {
			t.Errorf("%s: exit %d\n%s%s", list, r.Code, r.Log, r.Summary)
		}
		if !strings.Contains(r.Log, "symbolic link") && !strings.Contains(r.Log, "outside the workspace") {
			t.Errorf("%s: the log does not say why:\n%s", list, r.Log)
		}
		for _, c := range gh.Comments(7) {
			if strings.Contains(c.Body, "GITHUB_TOKEN-line") {
				t.Errorf("%s: the comment shows the link target:\n%s", list, c.Body)
			}
		}
	}
}

// A baseline folder is held to the workspace like every input: not outside
// it, not behind a link (the base run would read another checkout's, or the
// machine's, files into the comparison).
func TestBaselineFolderHeldToTheWorkspace(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	outside := t.TempDir()
	writeCorpus(t, filepath.Join(outside, "corpus"), 0, 1)
	if err := os.Symlink(outside, filepath.Join(w.Dir, "base")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, spec := range []string{"base", outside} {
		w.Env["INPUT_BASELINE"] = spec
		r := w.Run(t, inProcess)
		if r.Code != ExitUsage {
			t.Errorf("baseline %s: exit %d\n%s", spec, r.Code, r.Log)
		}
		if !strings.Contains(r.Log, "symbolic link") && !strings.Contains(r.Log, "outside the workspace") {
			t.Errorf("baseline %s: the log does not say why:\n%s", spec, r.Log)
		}
	}
}
