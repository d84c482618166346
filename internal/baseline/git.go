package baseline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing/fstest"

	"github.com/go-git/go-billy/v5"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// Unavailable is a reason there is no comparison that must not stop the
// run: the base commit is not in a shallow checkout, the workspace is not a
// git repository, a push that opened a branch. The message says what to do.
type Unavailable struct{ Reason string }

func (u *Unavailable) Error() string { return u.Reason }

// Cause is the reason without its lead "no comparison with the base", for
// the other decisions that need the base: what is missing, and what to do.
func (u *Unavailable) Cause() string {
	return strings.TrimPrefix(u.Reason, "no comparison with the base: ")
}

// ShallowHint is what a workflow adds so that the base commit is fetched.
const ShallowHint = "set `fetch-depth: 2` on actions/checkout for pull requests (for pushes and merge queues, a depth that reaches the commit before them, or `fetch-depth: 0`)"

// FromCommit runs cfg's corpus as it was at revision rev of the git
// repository holding cfg.WorkDir, reading the corpus and schema files from
// the repository's objects, never from the working tree and never through
// a git binary (which may refuse a workspace owned by another user). It
// returns the run and the commit's full hash. A commit whose objects are
// missing gives *Unavailable.
func FromCommit(ctx context.Context, cfg runner.Config, rev string) (*model.Run, string, error) {
	run, commit, _, _, _, err := fromRevision(ctx, cfg, Revision{Rev: rev})
	return run, commit, err
}

// fromRevision is FromCommit for any Revision; from says, for people, how
// the commit was chosen when it is not simply named (" (merge base of HEAD
// and origin/main)"), else "".
func fromRevision(ctx context.Context, cfg runner.Config, rev Revision) (run *model.Run, hash, from string, notes []string, corpus fs.FS, err error) {
	repo, root, err := openRepository(cfg.WorkDir)
	if err != nil {
		return nil, "", "", nil, nil, err
	}
	commit, from, err := resolveRevision(repo, rev)
	if err != nil {
		return nil, "", "", nil, nil, err
	}
	short := commit.Hash.String()[:7]
	tree, err := commit.Tree()
	if err != nil {
		return nil, "", "", nil, nil, missing(short, err)
	}
	base, corpusRel, err := baseConfig(cfg, repo, tree, root, short)
	if err != nil {
		return nil, "", "", nil, nil, err
	}
	run, err = runBase(ctx, base, short)
	if err != nil {
		return nil, "", "", nil, nil, err
	}
	// The runner shows an in-memory corpus as "embedded:"; show the base's
	// fixtures at the paths the head's have.
	display := headDisplay(cfg)
	run.CorpusRoot = short + ":" + corpusRel
	for i := range run.Results {
		run.Results[i].Path = display(run.Results[i].RelPath)
	}
	for i := range run.Findings {
		run.Findings[i].Path = display(strings.TrimPrefix(run.Findings[i].Path, runner.Embedded+":"))
	}
	if cc, ok := base.EmbeddedFS.(*commitCorpus); ok {
		notes = cc.notes
	}
	return run, commit.Hash.String(), from, notes, base.EmbeddedFS, nil
}

// openRepository opens the git repository holding wd, with a small object
// cache, and returns it with its working tree's root.
func openRepository(wd string) (*git.Repository, string, error) {
	repo, err := git.PlainOpenWithOptions(wd, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: %s is not in a git repository; check the repository out with actions/checkout, or name a baseline folder or JSON report", wd)}
	}
	if err != nil {
		return nil, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the git repository holding %s cannot be read (%v); name a baseline folder or JSON report instead", wd, err)}
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the git repository has no working tree: %v", err)}
	}
	return smallCache(repo, wt.Filesystem), wt.Filesystem.Root(), nil
}

// baseConfig is cfg made to run the corpus and the schemas as they are in
// tree, the base commit's (short names it), with no path filter; it
// returns the corpus's path in the repository that holds it.
func baseConfig(cfg runner.Config, repo *git.Repository, tree *object.Tree, root, short string) (runner.Config, string, error) {
	wd := cfg.WorkDir
	if cfg.Corpus == "" {
		return cfg, "", &Unavailable{Reason: "no comparison with the base: the corpus is the one built into the tool, which a commit does not change"}
	}
	corpusRel, ok := inRepo(root, workspace.Resolve(wd, cfg.Corpus))
	if !ok {
		return cfg, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the corpus %s is outside the git repository %s", cfg.Corpus, root)}
	}
	repo, tree, root, corpusRel, err := intoSubmodule(repo, tree, root, corpusRel)
	if err != nil {
		return cfg, "", err
	}
	limit := cfg.MaxFileSize
	if limit <= 0 {
		limit = runner.DefaultMaxFileSize
	}
	// The corpus and the schemas share one lock on the object store.
	lock := &sync.Mutex{}
	corpusFS, err := loadCorpus(repo, lock, tree, corpusRel, limit)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return cfg, "", partial(short, err)
		}
		return cfg, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the corpus at base commit %s cannot be read: %v", short, err)}
	}
	schemas := &treeFS{mu: lock, tree: tree}
	command, err := baseSchema(cfg.CommandSchema, wd, root, corpusRel, runner.UpstreamCommandSchema, schemas)
	if err != nil {
		return cfg, "", err
	}
	fixture, err := baseSchema(cfg.FixtureSchema, wd, root, corpusRel, runner.UpstreamFixtureSchema, schemas)
	if err != nil {
		return cfg, "", err
	}
	base := cfg
	base.Corpus, base.EmbeddedFS = "", corpusFS
	base.SchemaFS, base.CommandSchema, base.FixtureSchema = schemas, command, fixture
	base.Paths = nil // the head's filter is applied after, by corpus path
	return base, corpusRel, nil
}

// runBase runs the base corpus. A base that cannot be run (a schema that
// did not compile then) must not cost the head its results: it leaves no
// comparison, as missing objects do; only a cancelled run is an error.
func runBase(ctx context.Context, base runner.Config, short string) (*model.Run, error) {
	run, err := runner.Run(ctx, base)
	switch {
	case err == nil:
		return run, nil
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return nil, partial(short, err)
	case ctx.Err() != nil:
		return nil, err
	default:
		return nil, &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the corpus at base commit %s cannot be run: %v", short, err)}
	}
}

// intoSubmodule follows corpusRel through the base tree. A corpus inside a
// git submodule is, in the superproject's tree, a gitlink (the submodule's
// commit), not a folder: taken for a missing folder, every fixture would be
// "added". The base is then the submodule's commit, read from the
// submodule's own objects (its checkout in the working tree); when they are
// not there, the base cannot be read and there is no comparison. The
// schemas are looked for in the submodule too, as the corpus's repository.
func intoSubmodule(repo *git.Repository, tree *object.Tree, root, corpusRel string) (*git.Repository, *object.Tree, string, string, error) {
	for {
		if corpusRel == "." {
			return repo, tree, root, corpusRel, nil
		}
		parts := strings.Split(corpusRel, "/")
		link := -1
		for i := range parts {
			e, err := tree.FindEntry(strings.Join(parts[:i+1], "/"))
			if err != nil {
				// No such folder at the base (or a file): the caller
				// tells these apart.
				return repo, tree, root, corpusRel, nil
			}
			if e.Mode == filemode.Submodule {
				link = i
				break
			}
		}
		if link < 0 {
			return repo, tree, root, corpusRel, nil
		}
		prefix := strings.Join(parts[:link+1], "/")
		e, _ := tree.FindEntry(prefix)
		sub, t, err := openSubmodule(root, prefix, e.Hash)
		if err != nil {
			return nil, nil, "", "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the corpus lies in %v. To compare with the base, %s", err, err.fix)}
		}
		rest := strings.Join(parts[link+1:], "/")
		if rest == "" {
			rest = "."
		}
		repo, tree, root, corpusRel = sub, t, filepath.Join(root, filepath.FromSlash(prefix)), rest
	}
}

// submoduleError says why the commit a gitlink names cannot be read, and
// what makes it readable.
type submoduleError struct {
	// at is the submodule's path in its superproject.
	at  string
	why string
	fix string
}

func (e *submoduleError) Error() string { return "the git submodule " + e.at + ", " + e.why }

// openSubmodule reads commit, which the superproject checked out at root
// names for its submodule at the slash path at, from the submodule's own
// objects: its checkout in the working tree, as actions/checkout leaves
// it with `submodules: true`. It returns the submodule and the commit's
// tree.
func openSubmodule(root, at string, commit plumbing.Hash) (*git.Repository, *object.Tree, *submoduleError) {
	short := commit.String()[:7]
	sub, err := git.PlainOpenWithOptions(filepath.Join(root, filepath.FromSlash(at)), &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return nil, nil, &submoduleError{at: at, why: fmt.Sprintf("which is not checked out here (%v), so its commit %s cannot be read", err, short),
			fix: "check the submodule out (`submodules: true` on actions/checkout)"}
	}
	wt, err := sub.Worktree()
	if err != nil {
		return nil, nil, &submoduleError{at: at, why: fmt.Sprintf("which has no working tree (%v)", err),
			fix: "check the submodule out (`submodules: true` on actions/checkout)"}
	}
	sub = smallCache(sub, wt.Filesystem)
	c, err := sub.CommitObject(commit)
	if err != nil {
		return nil, nil, &submoduleError{at: at, why: fmt.Sprintf("whose commit %s is not in the submodule's objects (%v)", short, err),
			fix: "fetch the submodule's history (`submodules: true` with `fetch-depth: 0` on actions/checkout, or `git submodule update` with enough depth)"}
	}
	t, err := c.Tree()
	if err != nil {
		return nil, nil, &submoduleError{at: at, why: fmt.Sprintf("whose commit %s has a tree that cannot be read (%v)", short, err),
			fix: "fetch the submodule's history (`submodules: true` with `fetch-depth: 0` on actions/checkout)"}
	}
	return sub, t, nil
}

// objectCache bounds go-git's cache of decoded objects. Each blob is read
// once, so the default (96 MiB) would only hold a second copy of the corpus.
const objectCache = 4 * cache.MiByte

// smallCache reopens repo's storage with a small object cache; the repo is
// returned as it is when its storage is not the file system's.
func smallCache(repo *git.Repository, worktree billy.Filesystem) *git.Repository {
	st, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return repo
	}
	small, err := git.Open(filesystem.NewStorage(st.Filesystem(), cache.NewObjectLRU(objectCache)), worktree)
	if err != nil {
		return repo
	}
	return small
}

// resolveRevision finds the commit rev names, and says how it was chosen
// when it was not simply named.
func resolveRevision(repo *git.Repository, rev Revision) (*object.Commit, string, error) {
	if rev.MergeBaseOf == "" {
		c, err := resolveCommit(repo, rev.Rev)
		return c, "", err
	}
	var branch *object.Commit
	var name string
	for _, ref := range []string{"refs/remotes/origin/" + rev.MergeBaseOf, "refs/heads/" + rev.MergeBaseOf} {
		r, err := repo.Reference(plumbing.ReferenceName(ref), true)
		if err != nil {
			continue
		}
		if branch, err = repo.CommitObject(r.Hash()); err != nil {
			return nil, "", missing(r.Hash().String()[:7], err)
		}
		name = strings.TrimPrefix(strings.TrimPrefix(ref, "refs/remotes/"), "refs/heads/")
		break
	}
	if branch == nil {
		return nil, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the event names no pull request, and the default branch %s is not in this checkout to take the merge base with. To compare with the base, fetch it (`fetch-depth: 0` on actions/checkout)", rev.MergeBaseOf)}
	}
	ref, err := repo.Head()
	if err != nil {
		return nil, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the repository has no HEAD commit: %v", err)}
	}
	head, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, "", missing(ref.Hash().String()[:7], err)
	}
	bases, err := head.MergeBase(branch)
	if err != nil || len(bases) == 0 {
		why := "they share no history in this checkout"
		if err != nil {
			why = err.Error()
		}
		return nil, "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: no merge base of HEAD and %s (%s). To compare with the base, fetch the whole history (`fetch-depth: 0` on actions/checkout)", name, why)}
	}
	// Several best common ancestors: the same one on every run.
	sort.Slice(bases, func(i, j int) bool { return bases[i].Hash.String() < bases[j].Hash.String() })
	return bases[0], fmt.Sprintf(" (merge base of HEAD and %s)", name), nil
}

// resolveCommit finds rev's commit, telling a missing object (a shallow
// checkout) apart from a revision that names nothing.
func resolveCommit(repo *git.Repository, rev string) (*object.Commit, error) {
	if rev == "HEAD^" {
		return firstParent(repo)
	}
	name := rev
	if len(name) > 12 {
		name = name[:7]
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) || model.IsCommitHash(rev) {
			return nil, missing(name, err)
		}
		return nil, &Unavailable{Reason: fmt.Sprintf("no comparison with the base: revision %s: %v", rev, err)}
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, missing(name, err)
	}
	return c, nil
}

// firstParent is HEAD's first parent, told apart from a first commit (no
// parent at all) and from a parent a shallow clone left out.
func firstParent(repo *git.Repository) (*object.Commit, error) {
	ref, err := repo.Head()
	if err != nil {
		return nil, &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the repository has no HEAD commit: %v", err)}
	}
	head, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, missing(ref.Hash().String()[:7], err)
	}
	if len(head.ParentHashes) == 0 {
		return nil, &Unavailable{Reason: fmt.Sprintf("no comparison with the base: HEAD (%s) is the first commit, with no parent to compare with", head.Hash.String()[:7])}
	}
	parent := head.ParentHashes[0]
	c, err := repo.CommitObject(parent)
	if err != nil {
		return nil, missing(parent.String()[:7], err)
	}
	return c, nil
}

func missing(name string, err error) error {
	return &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the base commit %s is not in this checkout, which is probably shallow (%v). To compare with the base, %s.", name, err, ShallowHint)}
}

// partial is the reason for a base commit that is here without all of its
// objects: a partial clone, whose missing files git fetches when it needs
// them. Read as they are, the missing fixtures would be corpus errors at
// the base, and a fixture the pull request broke "still failing".
func partial(short string, err error) error {
	return &Unavailable{Reason: fmt.Sprintf("no comparison with the base: part of base commit %s is not in this checkout (%v), as in a partial clone (`filter: blob:none` on actions/checkout): "+
		"git fetches such objects when it needs them, and this tool, which reads git's objects itself, cannot. To compare with the base, check out without `filter`, with `fetch-depth: 2`", short, err)}
}

// maxBaseTotal bounds the bytes a base corpus may hold in all, counted
// from its tree entries before anything is read: many entries can name one
// blob that git stores once and compresses well (60 entries naming one
// 40 MB blob of spaces are 40 KB in git), and each is read in full.
var maxBaseTotal int64 = 4 << 30

// loadCorpus lists the fixture folders under corpusRel and serves their
// files one at a time: each Open reads its blob, at most limit+1 bytes
// (enough for the runner to refuse a larger one as it would on disk),
// under one lock, since a git object store is not for concurrent use. The
// corpus is never held in memory whole; at any moment only the fixtures
// the runner's workers are reading are.
func loadCorpus(repo *git.Repository, lock *sync.Mutex, tree *object.Tree, corpusRel string, limit int64) (fs.FS, error) {
	c := &commitCorpus{index: fstest.MapFS{}, blobs: map[string]plumbing.Hash{}, repo: repo, lock: lock, limit: limit}
	sub := tree
	if corpusRel != "." {
		var err error
		sub, err = tree.Tree(corpusRel)
		if errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) {
			return c, nil // no corpus at the base: every fixture is added
		}
		if err != nil {
			return nil, err
		}
	}
	var total int64
	for _, folder := range runner.Folders {
		e, err := sub.FindEntry(folder)
		if err != nil || e.Mode != filemode.Dir {
			continue // no such folder at the base
		}
		ft, err := repo.TreeObject(e.Hash)
		if err != nil {
			c.notes = append(c.notes, treeNote(folder, e.Hash, err))
			continue
		}
		if err := c.list(ft, folder, &total); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// list adds the files below t (at the corpus-relative folder dir) to the
// index. A folder whose tree object cannot be read costs that folder, not
// the comparison: it is noted, saying what is wrong, and the rest is read.
// Names are taken as git stores them (a new line included), as discovery
// on disk takes them.
func (c *commitCorpus) list(t *object.Tree, dir string, total *int64) error {
	for _, e := range t.Entries {
		name := dir + "/" + e.Name
		switch {
		case e.Mode == filemode.Dir:
			sub, err := c.repo.TreeObject(e.Hash)
			if err != nil {
				c.notes = append(c.notes, treeNote(name, e.Hash, err))
				continue
			}
			if err := c.list(sub, name, total); err != nil {
				return err
			}
		case e.Mode == filemode.Symlink:
			// Kept as a link so that the runner reports it as it does on
			// disk.
			c.index[name] = &fstest.MapFile{Mode: fs.ModeSymlink}
		case e.Mode.IsFile():
			size, err := blobSize(c.repo, e.Hash)
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				return fmt.Errorf("%s, blob %s: %w", name, e.Hash.String()[:7], err)
			}
			if err != nil {
				// Read as unreadable when the runner opens it.
				size = 0
			}
			*total += min(size, c.limit+1)
			if *total > maxBaseTotal {
				return fmt.Errorf("its fixture files hold more than %d MiB in all, more than a base is read for", maxBaseTotal>>20)
			}
			c.index[name] = &fstest.MapFile{Mode: 0o644}
			c.blobs[name] = e.Hash
		}
	}
	return nil
}

// treeNote says what is wrong with the tree object of a folder of the
// base corpus: missing (a partial or shallow fetch) or unreadable.
func treeNote(name string, h plumbing.Hash, err error) string {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return fmt.Sprintf("the base's folder %s (tree %s) is missing from the git objects, so its fixtures count as added", name, h.String()[:7])
	}
	return fmt.Sprintf("the base's folder %s (tree %s) is a corrupt git object (%v), so its fixtures count as added", name, h.String()[:7], err)
}

// blobSize is a blob's size, read from its header without its contents
// where the store can.
func blobSize(repo *git.Repository, h plumbing.Hash) (int64, error) {
	if s, ok := repo.Storer.(interface {
		EncodedObjectSize(plumbing.Hash) (int64, error)
	}); ok {
		return s.EncodedObjectSize(h)
	}
	b, err := repo.BlobObject(h)
	if err != nil {
		return 0, err
	}
	return b.Size, nil
}

// commitCorpus is a base corpus read from git objects: index lists it (for
// discovery), blobs names the blob of each file, read on Open.
type commitCorpus struct {
	index fstest.MapFS
	blobs map[string]plumbing.Hash
	repo  *git.Repository
	lock  *sync.Mutex
	limit int64
	// notes say what of the base could not be read.
	notes []string
}

func (c *commitCorpus) Open(name string) (fs.File, error) {
	h, ok := c.blobs[name]
	if !ok {
		return c.index.Open(name) // a folder, a link, or nothing
	}
	data, err := c.read(h)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return fstest.MapFS{name: {Data: data, Mode: 0o644}}.Open(name)
}

func (c *commitCorpus) read(h plumbing.Hash) ([]byte, error) {
	c.lock.Lock()
	defer c.lock.Unlock()
	b, err := c.repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data := make([]byte, min(b.Size, c.limit+1))
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, err
	}
	return data, nil
}

func (c *commitCorpus) ReadDir(name string) ([]fs.DirEntry, error) { return c.index.ReadDir(name) }
func (c *commitCorpus) Stat(name string) (fs.FileInfo, error)      { return c.index.Stat(name) }
func (c *commitCorpus) Lstat(name string) (fs.FileInfo, error)     { return c.index.Lstat(name) }
func (c *commitCorpus) ReadLink(name string) (string, error)       { return c.index.ReadLink(name) }

// baseSchema turns the head's schema choice into a path inside the base
// tree: "embedded" stays; no choice is the upstream layout next to the
// corpus when the base has it, else embedded; a file in the repository is
// read at the base. A file outside the repository, or one the base does not
// have, leaves no comparison.
func baseSchema(flag, wd, root, corpusRel, upstream string, tree *treeFS) (string, error) {
	if flag == runner.Embedded {
		return flag, nil
	}
	if flag == "" {
		p := path.Clean(path.Join(corpusRel, upstream))
		if tree.exists(p) {
			return p, nil
		}
		return runner.Embedded, nil
	}
	rel, ok := inRepo(root, workspace.Resolve(wd, flag))
	if !ok {
		return "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the schema %s is outside the git repository, so its base version is unknown", flag)}
	}
	if !tree.exists(rel) {
		return "", &Unavailable{Reason: fmt.Sprintf("no comparison with the base: the schema %s does not exist at the base commit", flag)}
	}
	return rel, nil
}

// treeFS serves the files of a git tree one at a time, for the schemas and
// the files they refer to. Directories cannot be opened; nothing needs to
// list them.
type treeFS struct {
	mu   *sync.Mutex
	tree *object.Tree
}

func (t *treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	f, err := t.tree.File(name)
	if err != nil {
		if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) {
			err = fs.ErrNotExist
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if f.Size > runner.MaxSchemaFile {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than %d MiB", runner.MaxSchemaFile>>20)}
	}
	data, err := f.Contents()
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return fstest.MapFS{name: {Data: []byte(data), Mode: 0o644}}.Open(name)
}

func (t *treeFS) exists(name string) bool {
	if !fs.ValidPath(name) {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, err := t.tree.File(name)
	return err == nil
}

// inRepo returns p as a slash path relative to the repository root when
// it lies inside it. Both sides are compared with symbolic links resolved,
// so that a workspace reached through a link still matches.
func inRepo(root, p string) (string, bool) {
	if r, ok := workspace.Within(root, p); ok {
		return filepath.ToSlash(r), true
	}
	er, err1 := filepath.EvalSymlinks(root)
	ep, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	if r, ok := workspace.Within(er, ep); ok {
		return filepath.ToSlash(r), true
	}
	return "", false
}

// headDisplay shows a corpus-relative path as the head run shows its own.
func headDisplay(cfg runner.Config) func(rel string) string {
	return func(rel string) string { return runner.DisplayPath(cfg.WorkDir, cfg.Corpus, rel) }
}
