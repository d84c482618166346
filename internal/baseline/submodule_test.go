package baseline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// superproject makes dir a repository whose one commit holds only a
// gitlink "corpus" to commit sub, and returns that commit.
func superproject(t *testing.T, dir string, sub plumbing.Hash) plumbing.Hash {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	tree := storeObject(t, repo, &object.Tree{Entries: []object.TreeEntry{{Name: "corpus", Mode: filemode.Submodule, Hash: sub}}})
	sig := object.Signature{Name: "test", Email: "test@example.com", When: when}
	commit := storeObject(t, repo, &object.Commit{Author: sig, Committer: sig, Message: "super", TreeHash: tree})
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/master", commit)); err != nil {
		t.Fatal(err)
	}
	return commit
}

// A corpus in a git submodule is compared with the submodule's commit at
// the base, not taken for "no corpus at the base" (every fixture added);
// without the submodule's objects there is no comparison, and it says so.
func TestCorpusInASubmodule(t *testing.T) {
	dir := t.TempDir()
	subDir := filepath.Join(dir, "corpus")
	sub, err := git.PlainInit(subDir, false)
	if err != nil {
		t.Fatal(err)
	}
	base, head := corpusFiles(t)
	writeTree(t, subDir, base)
	baseSub := commitAll(t, sub, "base")
	writeTree(t, subDir, head)
	commitAll(t, sub, "head")
	superBase := superproject(t, dir, baseSub)

	cfg := headConfig(dir)
	cfg.Corpus = "corpus/fixtures"
	headRun := runHead(t, cfg)
	baseRun, _, err := FromCommit(context.Background(), cfg, superBase.String())
	if err != nil {
		t.Fatalf("the submodule's base commit: %v", err)
	}
	checkChanges(t, Compare(baseRun, headRun, superBase.String()[:7]))

	// The gitlink names a commit the submodule does not have.
	dir2 := t.TempDir()
	sub2, err := git.PlainInit(filepath.Join(dir2, "corpus"), false)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, filepath.Join(dir2, "corpus"), head)
	commitAll(t, sub2, "head only")
	superBase2 := superproject(t, dir2, plumbing.NewHash(strings.Repeat("ab", 20)))
	cfg2 := headConfig(dir2)
	cfg2.Corpus = "corpus/fixtures"
	_, _, err = FromCommit(context.Background(), cfg2, superBase2.String())
	if u, ok := err.(*Unavailable); !ok || !strings.Contains(u.Reason, "git submodule corpus") {
		t.Errorf("err = %v, want no comparison, naming the submodule", err)
	}
}

// The base's corpus search enters a submodule at the commit the base
// names, as its checkout is a folder of the working directory; a
// submodule it reaches and cannot read leaves no answer, naming it and
// what to set.
func TestBaseSearchEntersASubmodule(t *testing.T) {
	dir := t.TempDir()
	sub, err := git.PlainInit(filepath.Join(dir, "corpus"), false)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, filepath.Join(dir, "corpus"), map[string][]byte{"drp2/positive/a": nil, "drp2/negative/a": nil, "drp2/negative_schema/a": nil})
	b, err := OpenCommit(dir, superproject(t, dir, commitAll(t, sub, "corpus")).String())
	if err != nil {
		t.Fatal(err)
	}
	if c, err := b.FindCorpus(); err != nil || c.Path != "corpus/drp2" {
		t.Errorf("FindCorpus = %+v, %v; want corpus/drp2", c, err)
	}

	dir2 := t.TempDir()
	if _, err := git.PlainInit(filepath.Join(dir2, "corpus"), false); err != nil {
		t.Fatal(err)
	}
	b, err = OpenCommit(dir2, superproject(t, dir2, plumbing.NewHash(strings.Repeat("ab", 20))).String())
	if err != nil {
		t.Fatal(err)
	}
	want := "the git submodule corpus, whose commit abababa is not in the submodule's objects"
	if _, err := b.FindCorpus(); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "`submodules: true`") {
		t.Errorf("err = %v, want %q and what to set", err, want)
	}
}
