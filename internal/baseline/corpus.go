package baseline

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/drp2/drp2-fixtures/runner"
)

// Base is the base commit of a pull request, read from the workspace's
// git objects: what the repository held before the pull request, which
// the pull request cannot change. The gate takes from it what a pull
// request must not choose: which corpus runs, and which known failures
// may excuse a regression.
type Base struct {
	// Commit is the base commit's full hash.
	Commit string
	tree   *object.Tree
	// prefix is the working directory's path in the repository ("" for
	// its root).
	prefix string
	// root is the working tree's root, where the submodules' checkouts
	// hold their objects.
	root string
	// submodules are the trees, at the commits the base names, of the
	// submodules read so far, by path in the repository.
	submodules map[string]*object.Tree
	// unreadable is the first submodule the search reached and could not
	// read.
	unreadable *submoduleError
}

// PullRequestEvent says whether the workflow runs for a pull request, so
// that the workspace holds the pull request's own files: a pull_request or
// pull_request_target event, a workflow_run (which runs after one, a
// fork's included), or a merge_group (a merge queue entry, which holds
// pull requests' files on its base: what a pull request cannot choose,
// its queue entry cannot either).
func PullRequestEvent(getenv func(string) string) bool {
	switch getenv("GITHUB_EVENT_NAME") {
	case "pull_request", "pull_request_target", "workflow_run", "merge_group":
		return true
	}
	return false
}

// OpenBase opens the base commit baseline auto compares with (AutoRevision),
// for the working directory wd. A base that cannot be had (a shallow
// checkout, no repository) gives *Unavailable.
func OpenBase(getenv func(string) string, wd string) (*Base, error) {
	rev, err := AutoRevision(getenv)
	if err != nil {
		return nil, err
	}
	return openAt(wd, rev)
}

// OpenCommit opens the commit hash of the repository holding wd: the
// base a comparison was made with (Comparison.Commit).
func OpenCommit(wd, hash string) (*Base, error) { return openAt(wd, Revision{Rev: hash}) }

func openAt(wd string, rev Revision) (*Base, error) {
	repo, root, err := openRepository(wd)
	if err != nil {
		return nil, err
	}
	commit, _, err := resolveRevision(repo, rev)
	if err != nil {
		return nil, err
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, missing(commit.Hash.String()[:7], err)
	}
	prefix, ok := inRepo(root, wd)
	if !ok {
		return nil, &Unavailable{Reason: fmt.Sprintf("the working directory %s is outside the git repository %s", wd, root)}
	}
	if prefix == "." {
		prefix = ""
	}
	return &Base{Commit: commit.Hash.String(), tree: tree, prefix: prefix, root: root, submodules: map[string]*object.Tree{}}, nil
}

// Short is the commit's short hash, as messages show it.
func (b *Base) Short() string { return b.Commit[:7] }

// FindCorpus is the corpus search of the working directory as it was at
// the base commit (runner.FindCorpusIn). It follows git submodules into
// the commits the base names for them, as their checkouts are folders of
// the working directory; a submodule the search reaches and cannot read
// may hold the corpus, so the search has no answer then.
func (b *Base) FindCorpus() (runner.CorpusChoice, error) {
	b.unreadable = nil
	c, err := runner.FindCorpusIn(b, runner.CorpusSearchEntries)
	if err == nil && b.unreadable != nil {
		return c, fmt.Errorf("%v, and the corpus may lie in it: %s", b.unreadable, b.unreadable.fix)
	}
	return c, err
}

// Folders lists the folders of the base's tree directly inside rel
// (runner.FolderTree). A submodule is a folder, read at the commit the
// base names for it; a link is never one, as it is not in the working
// directory's search either.
func (b *Base) Folders(rel string, max int) (names []string, read int, full bool, err error) {
	t, err := b.folder(path.Join(b.prefix, path.Clean(rel)))
	if err != nil {
		return nil, 0, false, fmt.Errorf("%s at base %s: %w", rel, b.Short(), err)
	}
	for _, e := range t.Entries {
		if read == max {
			full = true
			break
		}
		read++
		if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	return names, read, full, nil
}

// folder is the tree of the folder at p (a slash path in the repository),
// entering each submodule on the way at the commit its gitlink names.
func (b *Base) folder(p string) (*object.Tree, error) {
	t, at := b.tree, ""
	if p == "." || p == "" {
		return t, nil
	}
	for _, name := range strings.Split(p, "/") {
		e, err := t.FindEntry(name)
		if err != nil {
			return nil, err
		}
		at = path.Join(at, name)
		switch e.Mode {
		case filemode.Dir:
			if t, err = t.Tree(name); err != nil {
				return nil, err
			}
		case filemode.Submodule:
			if t, err = b.submodule(at, e.Hash); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s is not a folder", at)
		}
	}
	return t, nil
}

// submodule is the tree of the submodule at path p at commit, read once.
func (b *Base) submodule(p string, commit plumbing.Hash) (*object.Tree, error) {
	if t, ok := b.submodules[p]; ok {
		return t, nil
	}
	_, t, err := openSubmodule(b.root, p, commit)
	if err != nil {
		if b.unreadable == nil {
			b.unreadable = err
		}
		return nil, err
	}
	b.submodules[p] = t
	return t, nil
}

// ReadFile reads the file at rel (relative to the working directory) as
// the base commit holds it, at most limit bytes; ok is false when the base
// has no such file (or it is not a regular file).
func (b *Base) ReadFile(rel string, limit int64) (data []byte, ok bool, err error) {
	p := path.Join(b.prefix, path.Clean(strings.ReplaceAll(rel, "\\", "/")))
	if strings.HasPrefix(p, "../") || p == ".." {
		return nil, false, nil
	}
	f, err := b.tree.File(p)
	if err != nil || (f.Mode != filemode.Regular && f.Mode != filemode.Executable) {
		return nil, false, nil
	}
	if f.Size > limit {
		return nil, true, fmt.Errorf("%s at base %s: larger than %d bytes", rel, b.Short(), limit)
	}
	text, err := f.Contents()
	if err != nil {
		return nil, true, fmt.Errorf("%s at base %s: %w", rel, b.Short(), err)
	}
	return []byte(text), true, nil
}
