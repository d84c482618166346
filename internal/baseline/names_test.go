package baseline

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// storeObject encodes o into repo's objects.
func storeObject(t *testing.T, repo *git.Repository, o interface {
	Encode(plumbing.EncodedObject) error
}) plumbing.Hash {
	t.Helper()
	obj := repo.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// rawCommit writes files straight into repo's objects as one commit, names
// a worktree would refuse (new lines) included, and returns the commit.
// raw names folders by the hash of their tree object, which need not exist.
func rawCommit(t *testing.T, repo *git.Repository, files map[string][]byte, raw map[string]plumbing.Hash) plumbing.Hash {
	t.Helper()
	var build func(dir string) plumbing.Hash
	build = func(dir string) plumbing.Hash {
		entries := map[string]object.TreeEntry{}
		add := func(p string, leaf func(name string) object.TreeEntry) {
			rest, ok := strings.CutPrefix(p, dir)
			if !ok {
				return
			}
			name, _, deeper := strings.Cut(rest, "/")
			if _, seen := entries[name]; seen {
				return
			}
			if deeper {
				entries[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: build(dir + name + "/")}
				return
			}
			entries[name] = leaf(name)
		}
		for p, data := range files {
			add(p, func(name string) object.TreeEntry {
				blob := repo.Storer.NewEncodedObject()
				blob.SetType(plumbing.BlobObject)
				w, _ := blob.Writer()
				w.Write(data)
				w.Close()
				h, err := repo.Storer.SetEncodedObject(blob)
				if err != nil {
					t.Fatal(err)
				}
				return object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
			})
		}
		for p, h := range raw {
			add(p, func(name string) object.TreeEntry { return object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h} })
		}
		var tree object.Tree
		for _, e := range entries {
			tree.Entries = append(tree.Entries, e)
		}
		sort.Slice(tree.Entries, func(i, j int) bool { return treeKey(tree.Entries[i]) < treeKey(tree.Entries[j]) })
		return storeObject(t, repo, &tree)
	}
	sig := object.Signature{Name: "test", Email: "test@example.com", When: when}
	return storeObject(t, repo, &object.Commit{Author: sig, Committer: sig, Message: "raw", TreeHash: build("")})
}

// treeKey is git's order of tree entries: folders sort as if named "name/".
func treeKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// A base file whose name holds a new line costs that file at most, not
// the whole comparison.
func TestNewlineNameInTheBase(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	good := projectFixture(t, "positive/compute_empty_pass_finish.json")
	h := rawCommit(t, repo, map[string][]byte{"fixtures/positive/a.json": good, "fixtures/positive/odd\nname.json": good}, nil)
	cfg := headConfig(dir)
	writeTree(t, dir, map[string][]byte{"fixtures/positive/a.json": good})
	commitAll(t, repo, "head")
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg, Getenv: pushEvent(t, h)}, runHead(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	if c.Unavailable != "" {
		t.Fatalf("unavailable: %s", c.Unavailable)
	}
	if d := c.Delta(); d.Removed != 1 || len(c.Changes) != 1 || c.Changes[0].RelPath != "positive/odd\nname.json" {
		t.Errorf("delta %+v, changes %+v", d, c.Changes)
	}
}

// A corrupt tree object in the base is reported as what it is, and the
// rest of the base is still compared.
func TestCorruptTreeInTheBase(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	good := projectFixture(t, "positive/compute_empty_pass_finish.json")
	// A loose object whose zlib stream is garbage, named as the tree of
	// negative/.
	bad := plumbing.NewHash(strings.Repeat("cd", 20))
	loose := filepath.Join(dir, ".git", "objects", bad.String()[:2], bad.String()[2:])
	os.MkdirAll(filepath.Dir(loose), 0o755)
	if err := os.WriteFile(loose, []byte("not a zlib stream"), 0o444); err != nil {
		t.Fatal(err)
	}
	h := rawCommit(t, repo, map[string][]byte{"fixtures/positive/a.json": good}, map[string]plumbing.Hash{"fixtures/negative": bad})
	cfg := headConfig(dir)
	writeTree(t, dir, map[string][]byte{"fixtures/positive/a.json": good, "fixtures/positive/b.json": good})
	commitAll(t, repo, "head")
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg, Getenv: pushEvent(t, h)}, runHead(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	if c.Unavailable != "" || strings.Contains(strings.Join(c.Notes, " "), "shallow") {
		t.Fatalf("unavailable %q, notes %q", c.Unavailable, c.Notes)
	}
	if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "negative") || !strings.Contains(c.Notes[0], "corrupt") {
		t.Errorf("notes %q, want one naming the corrupt folder", c.Notes)
	}
	if d := c.Delta(); d.AddedPassing != 1 || len(c.Changes) != 1 || c.Changes[0].RelPath != "positive/b.json" {
		t.Errorf("delta %+v, changes %+v: the rest of the base is not compared", d, c.Changes)
	}
}

// pushEvent is the environment of a push whose previous commit is h.
func pushEvent(t *testing.T, h plumbing.Hash) func(string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(`{"before":"`+h.String()+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": p}
	return func(k string) string { return env[k] }
}
