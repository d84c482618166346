package baseline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A Tracker says which files git tracks (Tracked), for the many files of
// one reading (every report a results pattern matches), reading each
// repository's index and HEAD tree once.
type Tracker struct{ repos map[string]*trackedRepo }

// trackedRepo is what a Tracker read of one repository: the paths of its
// index, and its HEAD commit's tree (nil before the first commit).
type trackedRepo struct {
	repo  *git.Repository
	index []string
	head  *object.Tree
}

// NewTracker is a Tracker that has read no repository yet.
func NewTracker() *Tracker { return &Tracker{repos: map[string]*trackedRepo{}} }

// Tracked says whether git tracks the file at path: whether the HEAD
// commit's tree or the index of the repository holding it has the file,
// or a link or submodule on its way. A file git tracks came with the
// checkout, so it is what the commit says, never what a job made: a pull
// request can commit a file at any path a workflow later reads. Its resolved
// path (links resolved) is held to the same rule. A file in no git
// repository is not tracked. A repository that cannot be read is an
// error: the question must not be answered "no" for want of an answer.
// What it reads of a repository is kept for the next file.
func (t *Tracker) Tracked(path string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	tracked, err := t.trackedAt(abs)
	if tracked || err != nil {
		return tracked, err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil || resolved == abs {
		// A file that is gone was never read; the reader says so.
		return false, nil
	}
	return t.trackedAt(resolved)
}

// trackedAt is Tracked for one absolute path, as it is spelled.
func (t *Tracker) trackedAt(abs string) (bool, error) {
	repo, err := git.PlainOpenWithOptions(filepath.Dir(abs), &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("the git repository holding it cannot be read: %w", err)
	}
	wt, err := repo.Worktree()
	if errors.Is(err, git.ErrIsBareRepository) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("the git repository holding it has no working tree: %w", err)
	}
	root := wt.Filesystem.Root()
	rel, ok := inRepo(root, abs)
	if !ok || rel == "." {
		return false, nil
	}
	r := t.repos[root]
	if r == nil {
		if r, err = readTracked(repo); err != nil {
			return false, err
		}
		t.repos[root] = r
	}
	for _, name := range r.index {
		if name == rel || strings.HasPrefix(rel, name+"/") {
			return true, nil
		}
	}
	return r.inHead(rel)
}

// readTracked reads the index and the HEAD tree of repo.
func readTracked(repo *git.Repository) (*trackedRepo, error) {
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("the git index cannot be read: %w", err)
	}
	r := &trackedRepo{repo: repo}
	for _, e := range idx.Entries {
		r.index = append(r.index, e.Name)
	}
	ref, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return r, nil // no commit yet
	}
	if err != nil {
		return nil, fmt.Errorf("the git HEAD cannot be read: %w", err)
	}
	commit, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("the HEAD commit cannot be read: %w", err)
	}
	if r.head, err = commit.Tree(); err != nil {
		return nil, fmt.Errorf("the HEAD commit's tree cannot be read: %w", err)
	}
	return r, nil
}

// inHead says whether the HEAD commit's tree has rel, or a file, link or
// submodule at a folder on its way. A repository with no commit yet has
// none.
func (r *trackedRepo) inHead(rel string) (bool, error) {
	tree := r.head
	if tree == nil {
		return false, nil
	}
	for parts := strings.Split(rel, "/"); ; parts = parts[1:] {
		entry := entryNamed(tree, parts[0])
		switch {
		case entry == nil:
			return false, nil
		case len(parts) == 1 || entry.Mode != filemode.Dir:
			return true, nil
		}
		var err error
		if tree, err = r.repo.TreeObject(entry.Hash); err != nil {
			return false, fmt.Errorf("the HEAD commit's tree cannot be read: %w", err)
		}
	}
}

// entryNamed is the entry of tree named name, or nil. It compares names
// as they are, never refusing one that git would not write.
func entryNamed(tree *object.Tree, name string) *object.TreeEntry {
	for i := range tree.Entries {
		if tree.Entries[i].Name == name {
			return &tree.Entries[i]
		}
	}
	return nil
}
