// Package workspace opens every file whose path a pull request controls:
// the corpus, the schemas and the files they refer to, the manifest, the
// known-failures list, implementation lists, baseline folders and reports,
// and the report files the tool writes. A pull request lays out the whole
// workspace, links and special files included, so every path goes through
// one set of rules here instead of a check in one package and an open in
// another:
//
//   - below the workspace folder, no element of the path may be a symbolic
//     link, and the file must be a regular file (a FIFO would block the
//     read, a device would never end);
//   - a contained workspace (the action) refuses paths outside it; an
//     uncontained one (the command line) opens them as given, the user's
//     own choice;
//   - reads are bounded; writes create the missing folders, and a file
//     written in place of another replaces it whole (replace.go), so
//     that no reader, killed process or full disk ever sees a part.
//
// The files the Actions runner itself hands the step (the job summary,
// the outputs and the event payload) are not the pull request's: Append and
// ReadOwn serve them.
package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxInputFile bounds an input file read whole (a known-failures list, a
// manifest, a JSON report, an implementation list): far above any real
// one, far below what would hurt a runner.
const MaxInputFile = 256 << 20

// Dir is the working folder that input paths are relative to.
type Dir struct {
	root      string
	contained bool
}

// New is the workspace rooted at root (made absolute). Contained refuses
// every path outside it.
func New(root string, contained bool) Dir {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return Dir{root: filepath.Clean(root), contained: contained}
}

// Root is the workspace folder, absolute.
func (d Dir) Root() string { return d.root }

// Contained reports whether paths outside the workspace are refused.
func (d Dir) Contained() bool { return d.contained }

// Abs makes a path given relative to the workspace absolute.
func (d Dir) Abs(p string) string { return Resolve(d.root, p) }

// Rel returns p (relative to the workspace, or absolute) as a slash path
// relative to the workspace when it lies at or below it.
func (d Dir) Rel(p string) (string, bool) {
	r, ok := d.within(d.Abs(p))
	return filepath.ToSlash(r), ok
}

// Display shows p the way reports show paths: relative to the workspace
// when it lies under it, else absolute; always with slashes.
func (d Dir) Display(p string) string {
	if r, ok := d.Rel(p); ok {
		return r
	}
	return filepath.ToSlash(d.Abs(p))
}

// Resolve makes a path given relative to wd absolute.
func Resolve(wd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(wd, p)
}

// Within returns p relative to dir when p lies at or below dir (both
// absolute or both relative to the same place).
func Within(dir, p string) (string, bool) {
	r, err := filepath.Rel(dir, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return r, true
}

// within says whether abs lies inside the workspace, and where. A path is
// inside when it is spelled below the root, and also when a folder on its
// way, links resolved, is the root or below it: a path through a link to
// the workspace (or spelled with the root's real name while the working
// directory was entered through a link) is held to the workspace's rules,
// never opened as an outside path that may follow links. The last element
// is not resolved: a link there is the workspace's to refuse.
func (d Dir) within(abs string) (string, bool) {
	if rel, inside := Within(d.root, abs); inside {
		return rel, true
	}
	root, err := filepath.EvalSymlinks(d.root)
	if err != nil {
		return "", false
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			if rel, inside := Within(root, real); inside {
				rest, _ := filepath.Rel(dir, abs)
				return filepath.Join(rel, rest), true
			}
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", false
		}
	}
}

// place says where p is: inside the workspace (rel set), or outside it
// (abs only), refused when contained.
func (d Dir) place(p string) (abs, rel string, inside bool, err error) {
	abs = d.Abs(p)
	rel, inside = d.within(abs)
	if !inside && d.contained {
		return abs, "", false, fmt.Errorf("%s lies outside the workspace %s: files must stay inside it", p, d.root)
	}
	if inside && (rel == "." || rel == "") {
		return abs, "", true, fmt.Errorf("%s is the workspace folder itself, not a file", p)
	}
	return abs, rel, inside, nil
}

// Open opens the regular file at p to read. Below the workspace no element
// of the path may be a link.
func (d Dir) Open(p string) (*os.File, error) {
	abs, rel, inside, err := d.place(p)
	if err != nil {
		return nil, err
	}
	var f *os.File
	if !inside {
		f, err = openRegular(func(flag int) (*os.File, error) { return os.OpenFile(abs, flag, 0) }, p)
	} else {
		var root *os.Root
		if root, err = os.OpenRoot(d.root); err != nil {
			return nil, err
		}
		defer root.Close()
		f, err = openInRoot(root, rel, p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, NotExist{Path: p}
	}
	return f, err
}

// NotExist is a missing file, named as it was given: "known.txt: no such
// file", not the system call that found it missing (openat, statat).
type NotExist struct{ Path string }

func (e NotExist) Error() string { return e.Path + ": no such file" }

// Unwrap makes errors.Is(err, fs.ErrNotExist) hold.
func (e NotExist) Unwrap() error { return fs.ErrNotExist }

// openInRoot opens rel inside root as a regular file, refusing a link at
// any element of the path.
func openInRoot(root *os.Root, rel, shown string) (*os.File, error) {
	if err := walk(root, rel, wantFile); err != nil {
		return nil, err
	}
	// O_NOFOLLOW closes the gap between the walk and the open; the
	// os.Root keeps every folder on the way inside the root.
	return openRegular(func(flag int) (*os.File, error) { return root.OpenFile(rel, flag|noFollow, 0) }, shown)
}

// openRegular opens without blocking (a FIFO would wait for a writer) and
// keeps the file only when it is a regular file.
func openRegular(open func(flag int) (*os.File, error), shown string) (*os.File, error) {
	f, err := open(os.O_RDONLY | nonBlock)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s)", shown, st.Mode().Type())
	}
	return f, nil
}

// ReadFile reads the regular file at p whole, through Open, refusing one
// larger than max bytes.
func (d Dir) ReadFile(p string, max int64) ([]byte, error) { return d.ReadFileInto(p, max, nil) }

// ReadFileInto is ReadFile into buf's memory when it has room: a caller
// reading several large files one after the other, done with each before
// the next, touches the memory of one instead of each.
func (d Dir) ReadFileInto(p string, max int64, buf []byte) ([]byte, error) {
	f, err := d.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBoundedInto(f, p, max, buf)
}

func readBounded(r io.Reader, shown string, max int64) ([]byte, error) {
	return readBoundedInto(r, shown, max, nil)
}

func readBoundedInto(r io.Reader, shown string, max int64, buf []byte) ([]byte, error) {
	data, err := readAll(io.LimitReader(r, max+1), sizeHint(r, max), buf)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than %s", shown, size(max))
	}
	return data, nil
}

// sizeHint is the buffer to read r into: one byte more than a regular
// file's size (at most max), so that the read that finds its end needs no
// room of its own. io.ReadAll's doubling from 512 bytes cleared and copied
// a 14 MB report about twice over, a quarter of the processor time of a
// merge of four such reports.
func sizeHint(r io.Reader, max int64) int64 {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 512
	}
	info, err := st.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return 512
	}
	return min(info.Size(), max) + 1
}

// readAll is io.ReadAll into buf, or a buffer of hint bytes when buf is
// smaller, grown only for a file that grew (or a reader whose size is
// unknown).
func readAll(r io.Reader, hint int64, buf []byte) ([]byte, error) {
	data := buf[:0]
	if int64(cap(data)) < hint {
		data = make([]byte, 0, max(hint, 1))
	}
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// WriteFile replaces the file at p with data, creating the missing
// folders. Below the workspace a link at the file or at any folder on the
// way is refused, so that a pull request cannot commit a link named like a
// report and have its target overwritten. The file is replaced whole
// (replace): a reader, a killed process or a full disk finds the previous
// file or the new one, never a part of either.
func (d Dir) WriteFile(p string, data []byte) error { return d.WriteFileFrom(p, bytesOf(data)) }

// WriteFileFrom is WriteFile of the bytes write gives, as it gives them:
// a report streamed as it is rendered is never whole in memory, and is
// still never seen in part. An error of write leaves the file as it was
// and is returned, named by the file.
func (d Dir) WriteFileFrom(p string, write func(io.Writer) error) error {
	abs, rel, inside, err := d.place(p)
	if err != nil {
		return err
	}
	if !inside {
		return replaceOutside(abs, p, write)
	}
	root, err := os.OpenRoot(d.root)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := walk(root, rel, createFile); err != nil {
		return err
	}
	return replace(root, rel, p, write)
}

// AppendFile appends data to the file at p, creating it and the missing
// folders, with links refused below the workspace as WriteFile refuses
// them.
func (d Dir) AppendFile(p string, data []byte) error {
	abs, rel, inside, err := d.place(p)
	if err != nil {
		return err
	}
	var f *os.File
	if !inside {
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		f, err = os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	} else {
		var root *os.Root
		if root, err = os.OpenRoot(d.root); err != nil {
			return err
		}
		defer root.Close()
		if err := walk(root, rel, createFile); err != nil {
			return err
		}
		f, err = root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_APPEND|noFollow, 0o644)
	}
	if err != nil {
		return err
	}
	return writeClose(f, data)
}

// SaveReport writes a report file at p: replaced in d, or appended
// (appendTo) to a file that is the runner's own, such as
// $GITHUB_STEP_SUMMARY, which lies outside the workspace, so it is not held
// to it; links below the working directory are refused either way.
func (d Dir) SaveReport(p string, data []byte, appendTo bool) error {
	if appendTo {
		return New(d.root, false).AppendFile(p, data)
	}
	return d.WriteFile(p, data)
}

// Append appends data to path, creating the file when needed. It is for the
// files the Actions runner hands the step ($GITHUB_STEP_SUMMARY,
// $GITHUB_OUTPUT), which lie outside the workspace and are not the pull
// request's.
func Append(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	return writeClose(f, data)
}

// ReadOwn reads a file the Actions runner hands the step (the event
// payload), bounded by max.
func ReadOwn(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, path, max)
}

// writeClose writes data to f and closes it, reporting the first error.
func writeClose(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Kind is what a path names, without following a link.
type Kind int

const (
	Missing Kind = iota
	File         // a regular file
	Folder
	Other // a link (or a path through one below the workspace), a special file, or unreadable
)

// Kind says what p names. A contained workspace makes every path outside
// it Missing.
func (d Dir) Kind(p string) Kind {
	abs := d.Abs(p)
	rel, inside := d.within(abs)
	var st fs.FileInfo
	var err error
	switch {
	case inside && rel == ".":
		return Folder
	case inside:
		root, err := os.OpenRoot(d.root)
		if err != nil {
			return Other
		}
		defer root.Close()
		if err := walk(root, rel, wantAny); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return Missing
			}
			return Other
		}
		st, err = root.Lstat(rel)
		if err != nil {
			return Other
		}
	case d.contained:
		return Missing
	default:
		if st, err = os.Lstat(abs); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return Missing
			}
			return Other
		}
	}
	switch {
	case st.Mode().IsRegular():
		return File
	case st.IsDir():
		return Folder
	}
	return Other
}

// want is what walk expects at the end of a path.
type want int

const (
	wantFile   want = iota // an existing regular file
	createFile             // a regular file or nothing; missing folders are created
	wantFolder             // an existing folder
	wantAny                // anything but a link
)

// walk follows rel inside root one element at a time and refuses a link
// at any step, or a folder on the way that is not a folder. What the last
// element must be is w.
func walk(root *os.Root, rel string, w want) error {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i := range parts {
		sub := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		st, err := root.Lstat(sub)
		last := i == len(parts)-1
		switch {
		case errors.Is(err, fs.ErrNotExist):
			switch {
			case w != createFile:
				return err
			case last:
				// Writing: the file is created by the caller.
			default:
				if err := root.Mkdir(sub, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
					return err
				}
			}
		case err != nil:
			return err
		case st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: files a pull request lays out are never read or written through a link", filepath.ToSlash(sub))
		case !last && !st.IsDir():
			return fmt.Errorf("%s is not a folder", filepath.ToSlash(sub))
		case last && (w == wantFile || w == createFile) && !st.Mode().IsRegular():
			return fmt.Errorf("%s exists and is not a regular file", filepath.ToSlash(sub))
		case last && w == wantFolder && !st.IsDir():
			return fmt.Errorf("%s is not a folder", filepath.ToSlash(sub))
		}
	}
	return nil
}

// Folders lists the real folders directly inside the folder p of the
// workspace ("." for its root), sorted: a link is never a folder, and no
// element of p may be one. It reads at most max entries; read says how
// many it read, and full that it stopped at max.
func (d Dir) Folders(p string, max int) (names []string, read int, full bool, err error) {
	root, err := os.OpenRoot(d.root)
	if err != nil {
		return nil, 0, false, err
	}
	defer root.Close()
	rel := filepath.Clean(filepath.FromSlash(p))
	if rel != "." {
		if err := walk(root, rel, wantFolder); err != nil {
			return nil, 0, false, err
		}
	}
	f, err := root.Open(rel)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	for read < max {
		batch, err := f.ReadDir(min(256, max-read))
		for _, e := range batch {
			read++
			// The type comes from the listing: a link is a link.
			if e.Type()&fs.ModeType == fs.ModeDir {
				names = append(names, e.Name())
			}
		}
		if errors.Is(err, io.EOF) || len(batch) == 0 {
			sort.Strings(names)
			return names, read, false, nil
		}
		if err != nil {
			return nil, read, false, err
		}
	}
	// max entries read: one more says whether the folder holds more.
	if more, _ := f.ReadDir(1); len(more) == 0 {
		sort.Strings(names)
		return names, read, false, nil
	}
	sort.Strings(names)
	return names, read, true, nil
}
