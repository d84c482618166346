package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// Tree is the files of one folder as an fs.FS, for the runner: the corpus,
// and the schemas with the files their references name. Nothing outside the
// folder can be reached; no element of a name may be a link; only regular
// files and folders open, and ReadFile is bounded. A link is listed by
// ReadDir and Lstat (so that discovery can report it) but never opened.
type Tree struct {
	dir  string
	root *os.Root
	fsys fs.FS
	max  int64
	// fd is the folder itself, for openBeneath; nil where unused.
	fd *os.File
}

// Tree opens the folder at p. Below the workspace, no element of p may be
// a link; a contained workspace refuses a folder outside it. ReadFile
// refuses a file over max bytes.
func (d Dir) Tree(p string, max int64) (*Tree, error) {
	abs := d.Abs(p)
	rel, inside := d.within(abs)
	switch {
	case inside && rel != ".":
		root, err := os.OpenRoot(d.root)
		if err != nil {
			return nil, err
		}
		err = walk(root, rel, wantFolder)
		root.Close()
		if err != nil {
			return nil, err
		}
	case !inside && d.contained:
		return nil, fmt.Errorf("%s lies outside the workspace %s: files must stay inside it", p, d.root)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	t := &Tree{dir: abs, root: root, fsys: root.FS(), max: max}
	if fd, err := root.Open("."); err == nil {
		t.fd = fd
	}
	return t, nil
}

// Dir is the tree's folder, absolute.
func (t *Tree) Dir() string { return t.dir }

// Close releases the folder.
func (t *Tree) Close() error {
	if t.fd != nil {
		t.fd.Close()
	}
	return t.root.Close()
}

func (t *Tree) check(op, name string, w want) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return nil
	}
	if err := walk(t.root, filepath.FromSlash(name), w); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// Open opens a regular file or a folder.
func (t *Tree) Open(name string) (fs.File, error) {
	if fs.ValidPath(name) && name != "." {
		if f, ok, err := openBeneath(t.fd, name); ok {
			if err != nil {
				return nil, &fs.PathError{Op: "open", Path: name, Err: err}
			}
			return t.keep(f, name)
		}
	}
	if err := t.check("open", name, wantAny); err != nil {
		return nil, err
	}
	st, err := t.root.Lstat(filepath.FromSlash(name))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if st.IsDir() {
		return t.fsys.Open(name)
	}
	f, err := openRegular(func(flag int) (*os.File, error) {
		return t.root.OpenFile(filepath.FromSlash(name), flag|noFollow, 0)
	}, name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

// keep returns f, opened by openBeneath, when it is a regular file; a
// folder is reopened through the tree's file system, for ReadDir.
func (t *Tree) keep(f fs.File, name string) (fs.File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	switch {
	case st.Mode().IsRegular():
		return f, nil
	case st.IsDir():
		f.Close()
		return t.fsys.Open(name)
	}
	f.Close()
	return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%s is not a regular file (%s)", name, st.Mode().Type())}
}

// ReadFile reads a regular file whole, refusing one over the tree's bound.
func (t *Tree) ReadFile(name string) ([]byte, error) {
	f, err := t.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("is a folder")}
	}
	data, err := readBounded(f, name, t.max)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, nil
}

// ReadDir lists a folder.
func (t *Tree) ReadDir(name string) ([]fs.DirEntry, error) {
	if fs.ValidPath(name) {
		lstat := func(entry string) (fs.FileInfo, error) { return t.Lstat(path.Join(name, entry)) }
		if entries, ok := readDirBeneath(t.fd, name, lstat); ok {
			return entries, nil
		}
	}
	if err := t.check("readdir", name, wantFolder); err != nil {
		return nil, err
	}
	return fs.ReadDir(t.fsys, name)
}

// Lstat describes name without following a final link.
func (t *Tree) Lstat(name string) (fs.FileInfo, error) {
	dir, _ := filepath.Split(filepath.FromSlash(name))
	if dir != "" {
		if err := t.check("lstat", filepath.ToSlash(filepath.Clean(dir)), wantFolder); err != nil {
			return nil, err
		}
	}
	return fs.Lstat(t.fsys, name)
}

// ReadLink is part of fs.ReadLinkFS, so that Lstat is used; links are
// never followed, so their targets are not read either.
func (t *Tree) ReadLink(name string) (string, error) {
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fmt.Errorf("links are not followed")}
}

// Stat is Lstat: nothing in a tree is reached through a link.
func (t *Tree) Stat(name string) (fs.FileInfo, error) { return t.Lstat(name) }

var (
	_ fs.ReadDirFS  = (*Tree)(nil)
	_ fs.ReadFileFS = (*Tree)(nil)
	_ fs.ReadLinkFS = (*Tree)(nil)
	_ fs.StatFS     = (*Tree)(nil)
)

// FS is the tree of the folder at p as an fs.FS, for readers that were
// handed a folder already checked (the corpus a run has read): when the
// folder cannot be opened, every call fails with the reason. The folder
// is released when the result is no longer used.
func (d Dir) FS(p string, max int64) fs.FS {
	t, err := d.Tree(p, max)
	if err != nil {
		return failed{err}
	}
	return t
}

type failed struct{ err error }

func (f failed) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: f.err}
}
