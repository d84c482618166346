package baseline

import (
	"os"
	"path/filepath"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A file is tracked when the HEAD commit or the index holds it, or a link
// or a submodule on its way; a file a job wrote beside them is not, nor
// is any file outside a repository.
func TestTracked(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string][]byte{"r.json": []byte("{}")})
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := NewTracker().Tracked(filepath.Join(dir, "none-yet.json")); got || err != nil {
		t.Errorf("a repository with no commit: %v, %v", got, err)
	}
	writeTree(t, dir, map[string][]byte{"artifacts/x/committed.json": []byte("{}"), "elsewhere/y.json": []byte("{}")})
	if err := os.Symlink("../elsewhere", filepath.Join(dir, "artifacts", "link")); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "head")
	for name, data := range map[string]string{"artifacts/x/made.json": "{}", "artifacts/y/staged.json": "{}", "elsewhere/made.json": "{}"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wt, _ := repo.Worktree()
	if _, err := wt.Add("artifacts/y/staged.json"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{filepath.Join(outside, "r.json"), false},
		{filepath.Join(dir, "artifacts/x/committed.json"), true},
		{filepath.Join(dir, "artifacts/x/made.json"), false},
		{filepath.Join(dir, "artifacts/y/staged.json"), true},
		// Through a link the commit holds, to a file it does not.
		{filepath.Join(dir, "artifacts/link/made.json"), true},
		{filepath.Join(dir, "elsewhere/made.json"), false},
	} {
		if got, err := NewTracker().Tracked(c.path); got != c.want || err != nil {
			t.Errorf("%s: %v, %v; want %v", c.path, got, err, c.want)
		}
	}
}

// A submodule the HEAD commit names is tracked at every path below it,
// as the checkout fills it from the submodule's own commit.
func TestTrackedBelowASubmodule(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	sub := plumbing.NewHash("1111111111111111111111111111111111111111")
	inner := storeObject(t, repo, &object.Tree{Entries: []object.TreeEntry{{Name: "x", Mode: filemode.Submodule, Hash: sub}}})
	tree := storeObject(t, repo, &object.Tree{Entries: []object.TreeEntry{{Name: "artifacts", Mode: filemode.Dir, Hash: inner}}})
	sig := object.Signature{Name: "test", Email: "test@example.com", When: when}
	commit := storeObject(t, repo, &object.Commit{Author: sig, Committer: sig, Message: "gitlink", TreeHash: tree})
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/master", commit)); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string][]byte{"artifacts/x/y.json": []byte("{}"), "artifacts/z/y.json": []byte("{}")})
	if got, err := NewTracker().Tracked(filepath.Join(dir, "artifacts/x/y.json")); !got || err != nil {
		t.Errorf("below a gitlink: %v, %v", got, err)
	}
	if got, err := NewTracker().Tracked(filepath.Join(dir, "artifacts/z/y.json")); got || err != nil {
		t.Errorf("beside a gitlink: %v, %v", got, err)
	}
}
