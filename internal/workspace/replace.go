package workspace

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// folder is where a file is replaced: an *os.Root below the workspace
// (every name stays inside it), the file system itself outside.
type folder interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Lstat(name string) (fs.FileInfo, error)
	Rename(oldname, newname string) error
	Remove(name string) error
	Open(name string) (*os.File, error)
}

// anywhere is the file system as a folder, for paths outside the workspace.
type anywhere struct{}

func (anywhere) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (anywhere) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }
func (anywhere) Rename(oldname, newname string) error   { return os.Rename(oldname, newname) }
func (anywhere) Remove(name string) error               { return os.Remove(name) }
func (anywhere) Open(name string) (*os.File, error)     { return os.Open(name) }

// fileWriter is where the new file's bytes go; a test makes it fail as a
// full disk does, part-way.
var fileWriter = func(f *os.File) io.Writer { return f }

// bytesOf writes data: the file's whole content, rendered beforehand.
func bytesOf(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// replace makes name in dir hold data, shown as shown in errors. The bytes
// go to a new file beside it, which is synced and then renamed over name:
// rename is atomic, so whoever opens name, whenever the process is killed
// or the disk fills, finds the previous file whole or the new one whole.
// A write that fails removes its temporary file and leaves the previous
// one as it was. Renaming over a link replaces the link, never its target,
// so a link that appears at name after the caller's check redirects
// nothing either. write gives the bytes, as many writes as it needs (a
// report streamed as it is rendered); its error is the write's.
func replace(dir folder, name, shown string, write func(io.Writer) error) error {
	// A file replaced keeps its permissions; a new one is made as a
	// file created in place would be (0644 less the umask).
	var mode fs.FileMode
	previous := false
	if st, err := dir.Lstat(name); err == nil && st.Mode().IsRegular() {
		mode, previous = st.Mode().Perm(), true
	}
	tmp, f, err := createTemp(dir, name)
	if err != nil {
		return notReplaced("create", shown, err, previous)
	}
	op, err := fill(f, write, mode)
	if err == nil {
		op, err = "replace", dir.Rename(tmp, name)
	}
	if err != nil {
		dir.Remove(tmp)
		return notReplaced(op, shown, err, previous)
	}
	// The folder's entry is durable once the folder is synced; a file
	// system that cannot sync a folder still renamed the file whole.
	if d, err := dir.Open(filepath.Dir(name)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// fill writes the new file f, gives it mode (unless 0), syncs and
// closes it; op names the step that failed. Synced before the rename: a
// crash of the machine must not leave the new name on a file whose bytes
// never reached the disk.
func fill(f *os.File, write func(io.Writer) error, mode fs.FileMode) (op string, err error) {
	if err := writeBuffered(fileWriter(f), write); err != nil {
		f.Close()
		return "write", err
	}
	if mode != 0 {
		if err := f.Chmod(mode); err != nil {
			f.Close()
			return "write", err
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "sync", err
	}
	return "write", f.Close()
}

// createTemp creates a new file beside name, named after it and hidden
// (".report.json.tmp-1f2e3d4c"), that no other writer can have opened.
func createTemp(dir folder, name string) (string, *os.File, error) {
	base := filepath.Base(name)
	if len(base) > 200 {
		// A name's limit is 255 bytes; the cut keeps whole characters.
		base = strings.ToValidUTF8(base[:200], "")
	}
	for range 100 {
		var raw [4]byte
		rand.Read(raw[:])
		tmp := filepath.Join(filepath.Dir(name), "."+base+".tmp-"+hex.EncodeToString(raw[:]))
		f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, fmt.Errorf("no free temporary name beside %s", name)
}

// notReplaced is a failed replacement, named by the path as given and the
// step's cause (the temporary file's name says nothing to the user).
func notReplaced(op, shown string, err error, previous bool) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	if previous {
		return fmt.Errorf("%s %s: %w (the previous file is kept whole)", op, shown, err)
	}
	return fmt.Errorf("%s %s: %w", op, shown, err)
}

// replaceOutside replaces the file at abs, outside the workspace, where
// the user's own paths are taken as given: a link there is followed and
// its target replaced, and a file that is not a regular one (a device
// such as /dev/stdout, a FIFO) cannot be replaced and is written to.
func replaceOutside(abs, shown string, write func(io.Writer) error) error {
	if st, err := os.Stat(abs); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(abs, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return err
		}
		if err := writeBuffered(f, write); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	return replace(anywhere{}, abs, shown, write)
}

// writeBuffered gives write a buffer before w, so that a report written
// in small pieces reaches the file in large ones.
func writeBuffered(w io.Writer, write func(io.Writer) error) error {
	b := bufio.NewWriterSize(w, 64<<10)
	if err := write(b); err != nil {
		return err
	}
	return b.Flush()
}
