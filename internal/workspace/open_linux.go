//go:build linux

package workspace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel (or a seccomp filter) refuses openat2;
// the element-by-element walk is used from then on.
var noOpenat2 atomic.Bool

// openBeneath opens name below the folder dir in one system call that
// refuses a link at any element and any path out of dir (openat2 with
// RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS), so that a corpus of 50,000
// fixtures costs no extra lstat per element. ok is false when the kernel
// cannot do it; the caller then walks.
func openBeneath(dir *os.File, name string) (f fs.File, ok bool, err error) {
	if dir == nil || noOpenat2.Load() {
		return nil, false, nil
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(int(dir.Fd()), name, &how)
		switch {
		case err == nil:
			return descriptorFile(fd, name), true, nil
		case errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM):
			noOpenat2.Store(true)
			return nil, false, nil
		case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV):
			// A link on the way, or a way out: let the walk say which.
			return nil, false, nil
		}
		return nil, true, err
	}
}

// descriptorFile is fd as a file: a regular one read through its
// descriptor, anything else through os.NewFile. os.NewFile would ask the
// flags of the descriptor (opened non-blocking, for a FIFO's sake) and try
// to register it with the network poller, which refuses a regular file:
// two system calls and a finalizer per fixture, of a run's few. The fstat
// that finds it regular is the one Stat returns.
func descriptorFile(fd int, name string) fs.File {
	var st unix.Stat_t
	for {
		err := unix.Fstat(fd, &st)
		if err == unix.EINTR {
			continue
		}
		if err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			return &regularFile{fd: fd, info: regularInfo{name: path.Base(name), st: st}}
		}
		return os.NewFile(uintptr(fd), name)
	}
}

type regularFile struct {
	fd   int // -1 once closed
	info regularInfo
}

func (f *regularFile) Stat() (fs.FileInfo, error) {
	if f.fd < 0 {
		return nil, f.error("stat", fs.ErrClosed)
	}
	return &f.info, nil
}

// maxRead bounds one read, as os does: some kernels refuse larger ones.
const maxRead = 1 << 30

func (f *regularFile) Read(b []byte) (int, error) {
	if f.fd < 0 {
		return 0, f.error("read", fs.ErrClosed)
	}
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(f.fd, b[:min(len(b), maxRead)])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, f.error("read", err)
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *regularFile) Close() error {
	if f.fd < 0 {
		return f.error("close", fs.ErrClosed)
	}
	err := unix.Close(f.fd)
	f.fd = -1
	if err != nil {
		return f.error("close", err)
	}
	return nil
}

func (f *regularFile) error(op string, err error) error {
	return &fs.PathError{Op: op, Path: f.info.name, Err: err}
}

// regularInfo is a regular file's fs.FileInfo from its fstat.
type regularInfo struct {
	name string
	st   unix.Stat_t
}

func (i *regularInfo) Name() string { return i.name }
func (i *regularInfo) Size() int64  { return i.st.Size }
func (i *regularInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.st.Mode & 0o777)
	if i.st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if i.st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if i.st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
func (i *regularInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i *regularInfo) IsDir() bool        { return false }
func (i *regularInfo) Sys() any           { return &i.st }

// readDirBeneath lists the folder name below dir as fs.ReadDir does (sorted
// by name, without . and ..), from the types the kernel gives with the
// names. os.Root's ReadDir asks each entry's type again, one lstat per
// fixture. ok is false, and the caller lists the folder its own way, when
// openat2 is refused, the folder cannot be opened as one (a link on the
// way, a file), or the file system does not give an entry's type.
//
// An entry's Info is lstat(its name in the folder).
func readDirBeneath(dir *os.File, name string, lstat func(string) (fs.FileInfo, error)) (entries []fs.DirEntry, ok bool) {
	if dir == nil || noOpenat2.Load() {
		return nil, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_DIRECTORY | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := unix.Openat2(int(dir.Fd()), name, &how)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	var found []dirent
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n == 0 {
			break
		}
		if found, ok = appendDirents(found, buf[:n], lstat); !ok {
			return nil, false
		}
	}
	// Sorted as the concrete type: through the interface, the comparisons
	// of a folder of 50,000 fixtures cost a third of listing it.
	slices.SortFunc(found, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	// Pointers into found: a dirent put in an interface by value would be
	// copied to the heap, an allocation per fixture.
	entries = make([]fs.DirEntry, len(found))
	for i := range found {
		entries[i] = &found[i]
	}
	return entries, true
}

// appendDirents appends the entries of a getdents64 buffer: each record is
// d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), then the name up
// to a NUL. It reports false on a record it cannot read or an entry of
// unknown type.
func appendDirents(entries []dirent, buf []byte, lstat func(string) (fs.FileInfo, error)) ([]dirent, bool) {
	const nameAt = 19
	for len(buf) > 0 {
		if len(buf) < nameAt {
			return nil, false
		}
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < nameAt || reclen > len(buf) {
			return nil, false
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		name := rec[nameAt:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if string(name) == "." || string(name) == ".." || len(name) == 0 {
			continue
		}
		typ, known := direntTypes[rec[18]]
		if !known {
			return nil, false
		}
		entries = append(entries, dirent{name: string(name), typ: typ, lstat: lstat})
	}
	return entries, true
}

// direntTypes are the file types of d_type, as fs.FileMode types.
var direntTypes = map[byte]fs.FileMode{
	unix.DT_REG:  0,
	unix.DT_DIR:  fs.ModeDir,
	unix.DT_LNK:  fs.ModeSymlink,
	unix.DT_FIFO: fs.ModeNamedPipe,
	unix.DT_SOCK: fs.ModeSocket,
	unix.DT_CHR:  fs.ModeDevice | fs.ModeCharDevice,
	unix.DT_BLK:  fs.ModeDevice,
}

// dirent is an fs.DirEntry of a type the kernel gave; its Info is asked
// for only when wanted.
type dirent struct {
	name  string
	typ   fs.FileMode
	lstat func(string) (fs.FileInfo, error)
}

func (d dirent) Name() string               { return d.name }
func (d dirent) IsDir() bool                { return d.typ.IsDir() }
func (d dirent) Type() fs.FileMode          { return d.typ }
func (d dirent) Info() (fs.FileInfo, error) { return d.lstat(d.name) }
func (d dirent) String() string             { return fs.FormatDirEntry(d) }
