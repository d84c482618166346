//go:build linux

package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// On Linux a tree opens its files in one openat2 call when the kernel
// allows it; links are refused either way (TestTree).
func TestOpenBeneath(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a/b.json"), "{}")
	os.Symlink("b.json", filepath.Join(dir, "a/link.json"))
	fd, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	f, ok, err := openBeneath(fd, "a/b.json")
	if !ok {
		t.Skip("SKIPPED: openat2 is not available here; the walk is used")
	}
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, name := range []string{"a/link.json", "../x"} {
		if f, ok, err := openBeneath(fd, name); ok && err == nil {
			f.Close()
			t.Errorf("%s opened", name)
		}
	}
}

// A regular file opened beneath the tree is read through its descriptor:
// it reads, stats and closes as an *os.File of the same file does.
func TestRegularFileAsOsFile(t *testing.T) {
	dir := t.TempDir()
	content := strings.Repeat("0123456789", 7000)
	write(t, filepath.Join(dir, "a/b.json"), content)
	os.Chmod(filepath.Join(dir, "a/b.json"), 0o640|fs.ModeSetgid)
	tree, err := New(dir, true).Tree(".", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	f, err := tree.Open("a/b.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, isOS := f.(*os.File); isOS {
		t.Skip("SKIPPED: openat2 is not available here; the walk opens an *os.File")
	}
	got, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(filepath.Join(dir, "a/b.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() || !got.ModTime().Equal(want.ModTime()) || got.IsDir() {
		t.Errorf("Stat: %s %d %v %v, os.Stat: %s %d %v %v", got.Name(), got.Size(), got.Mode(), got.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
	}
	var read []byte
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		read = append(read, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if string(read) != content {
		t.Errorf("read %d bytes, want %d", len(read), len(content))
	}
	if n, err := f.Read(buf[:0]); n != 0 || err != nil {
		t.Errorf("an empty read: %d, %v", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for what, err := range map[string]error{"close": f.Close(), "read": func() error { _, err := f.Read(buf); return err }(), "stat": func() error { _, err := f.Stat(); return err }()} {
		if !errors.Is(err, fs.ErrClosed) {
			t.Errorf("%s after close: %v", what, err)
		}
	}
}

// A folder listed from the types the kernel gives is the folder os.Root
// lists: the same names in the same order, of the same types, with the
// same Info, over several getdents buffers.
func TestReadDirBeneathIsReadDir(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "c/sub/x.json"), "{}")
	for i := range 1500 {
		write(t, filepath.Join(dir, fmt.Sprintf("c/fixture_with_a_long_name_%04d_é.json", i)), "{}")
	}
	os.Symlink("sub", filepath.Join(dir, "c/link_to_folder"))
	os.Symlink("fixture_with_a_long_name_0000_é.json", filepath.Join(dir, "c/link.json"))
	syscall.Mkfifo(filepath.Join(dir, "c/fifo.json"), 0o644)
	tree, err := New(dir, true).Tree(".", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"c", "c/sub", "."} {
		want, err := fs.ReadDir(root.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		lstat := func(entry string) (fs.FileInfo, error) { return tree.Lstat(path.Join(name, entry)) }
		got, ok := readDirBeneath(tree.fd, name, lstat)
		if !ok {
			t.Skip("SKIPPED: openat2 is not available here; os.Root lists the folder")
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d entries, os.Root lists %d", name, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() {
				t.Errorf("%s entry %d: %v, os.Root: %v", name, i, g, w)
			}
			if i%250 == 0 {
				gi, gerr := g.Info()
				wi, werr := w.Info()
				if (gerr == nil) != (werr == nil) || (gerr == nil && (gi.Mode() != wi.Mode() || gi.Size() != wi.Size())) {
					t.Errorf("%s: Info %v %v, os.Root's %v %v", g.Name(), gi, gerr, wi, werr)
				}
			}
		}
	}
	for _, name := range []string{"c/link_to_folder", "c/link.json", "c/fifo.json", "c/missing", "../x"} {
		if _, ok := readDirBeneath(tree.fd, name, nil); ok {
			t.Errorf("%s listed; it is no folder beneath the tree", name)
		}
	}
}
