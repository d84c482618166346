package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWriteFileContained(t *testing.T) {
	dir := t.TempDir()
	ws := New(dir, true)
	if err := ws.WriteFile("../escape.xml", []byte("x")); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("../ accepted: %v", err)
	}
	if err := ws.WriteFile(filepath.Join(t.TempDir(), "abs.xml"), []byte("x")); err == nil {
		t.Error("an absolute path outside the workspace was accepted")
	}
	if err := ws.WriteFile(".", []byte("x")); err == nil {
		t.Error("the workspace itself was accepted as a file")
	}
	if err := ws.WriteFile("a/b/c.xml", []byte("x")); err != nil {
		t.Errorf("nested path: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a/b/c.xml")); err != nil || string(data) != "x" {
		t.Errorf("nested file: %q, %v", data, err)
	}
	if err := ws.WriteFile(filepath.Join(dir, "abs-inside.xml"), []byte("x")); err != nil {
		t.Errorf("absolute path inside: %v", err)
	}
}

// A link anywhere on the way below the workspace is refused for reads and
// writes, contained or not; outside an uncontained workspace the path is
// the user's own choice.
func TestLinksRefused(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret"), "token")
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "file-link"))
	os.Symlink(outside, filepath.Join(dir, "folder-link"))
	for _, contained := range []bool{true, false} {
		ws := New(dir, contained)
		for _, p := range []string{"file-link", "folder-link/secret"} {
			if data, err := ws.ReadFile(p, MaxInputFile); err == nil {
				t.Errorf("contained=%v: read %s through a link: %q", contained, p, data)
			}
			if err := ws.WriteFile(p, []byte("x")); err == nil {
				t.Errorf("contained=%v: wrote %s through a link", contained, p)
			}
			if k := ws.Kind(p); k != Other {
				t.Errorf("contained=%v: Kind(%s) = %v, want Other", contained, p, k)
			}
			if _, err := ws.Tree(filepath.Dir(p), MaxInputFile); p == "folder-link/secret" && err == nil {
				t.Errorf("contained=%v: a tree through a folder link", contained)
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(outside, "secret")); string(data) != "token" || err != nil {
		t.Errorf("the link's target was overwritten: %q", data)
	}
	if _, err := New(dir, false).ReadFile(filepath.Join(outside, "secret"), MaxInputFile); err != nil {
		t.Errorf("uncontained, a file outside: %v", err)
	}
	if _, err := New(dir, true).ReadFile(filepath.Join(outside, "secret"), MaxInputFile); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("contained, a file outside: %v", err)
	}
}

// A folder is refused as a file, and so is a file over the bound, by the
// workspace and by a tree of it (a FIFO: TestFIFORefused, where there
// are FIFOs).
func TestOnlyRegularFilesBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "big"), strings.Repeat("x", 101))
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	ws := New(dir, true)
	if _, err := ws.ReadFile("big", 100); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("over the bound: %v", err)
	}
	if _, err := ws.ReadFile("folder", 100); err == nil {
		t.Error("a folder was read as a file")
	}
	tree, err := ws.Tree(".", 100)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	if _, err := tree.ReadFile("big"); err == nil {
		t.Error("a tree read a file over its bound")
	}
}

// A tree serves its folder and nothing outside it or through a link, and
// lists links without following them.
func TestTree(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.json"), "token")
	write(t, filepath.Join(dir, "c/positive/a.json"), "{}")
	os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "c/positive/b.json"))
	os.Symlink(outside, filepath.Join(dir, "c/negative"))
	tree, err := New(dir, true).Tree("c", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	if data, err := tree.ReadFile("positive/a.json"); err != nil || string(data) != "{}" {
		t.Errorf("positive/a.json: %q, %v", data, err)
	}
	for _, name := range []string{"positive/b.json", "negative/secret.json", "../c/positive/a.json", "/etc/passwd"} {
		if data, err := tree.ReadFile(name); err == nil {
			t.Errorf("read %s: %q", name, data)
		}
	}
	st, err := tree.Lstat("positive/b.json")
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of a link: %v, %v", st, err)
	}
	entries, err := tree.ReadDir("positive")
	if err != nil || len(entries) != 2 {
		t.Errorf("ReadDir: %v, %v", entries, err)
	}
	if _, err := tree.ReadDir("negative"); err == nil {
		t.Error("listed a folder through a link")
	}
	if _, err := New(dir, true).Tree(outside, 1); err == nil {
		t.Error("a contained workspace opened a tree outside it")
	}
}

func TestPaths(t *testing.T) {
	ws := New("/w/s", true)
	for _, c := range []struct{ in, rel, display string }{
		{"a/b.json", "a/b.json", "a/b.json"},
		{"/w/s/a", "a", "a"},
		{"/w/other", "", "/w/other"},
		{"../s/x", "x", "x"},
	} {
		rel, ok := ws.Rel(c.in)
		if rel != c.rel || ok != (c.rel != "") {
			t.Errorf("Rel(%s) = %q, %v", c.in, rel, ok)
		}
		if d := ws.Display(c.in); d != c.display {
			t.Errorf("Display(%s) = %q, want %q", c.in, d, c.display)
		}
	}
	if r, ok := Within("/a", "/ab"); ok {
		t.Errorf("Within(/a, /ab) = %q", r)
	}
}

// A path spelled through a link to the workspace, or with the root's real
// name while the workspace was entered through a link, is inside it: a
// link committed at its end is refused, never followed.
func TestInsideThroughALink(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{real, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	alias := filepath.Join(base, "alias")
	if err := os.Symlink(real, alias); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(filepath.Join(outside, "target"), filepath.Join(real, "report")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ root, path string }{
		{real, filepath.Join(alias, "report")},
		{alias, filepath.Join(real, "report")},
	} {
		d := New(c.root, false)
		if err := d.AppendFile(c.path, []byte("x")); err == nil {
			t.Errorf("root %s: appended to %s through its link", c.root, c.path)
		}
		if err := d.WriteFile(c.path, []byte("x")); err == nil {
			t.Errorf("root %s: wrote %s through its link", c.root, c.path)
		}
		if rel, ok := d.Rel(c.path); !ok || rel != "report" {
			t.Errorf("root %s: Rel(%s) = %q, %v; want report, inside", c.root, c.path, rel, ok)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "target")); err == nil {
		t.Error("the link's target was written")
	}
	// A path truly outside is still written, as before.
	if err := New(real, false).AppendFile(filepath.Join(outside, "summary.md"), []byte("x")); err != nil {
		t.Errorf("a file outside the workspace: %v", err)
	}
}

// A file is read into one buffer of its size, or into the caller's when
// that has room; the bound holds either way.
func TestReadFileInto(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a"), strings.Repeat("a", 5000))
	write(t, filepath.Join(dir, "b"), "bb")
	ws := New(dir, true)
	data, err := ws.ReadFile("a", MaxInputFile)
	if err != nil || string(data) != strings.Repeat("a", 5000) || cap(data) != 5001 {
		t.Fatalf("ReadFile a: %d bytes, cap %d, %v; want 5000 bytes in a buffer of 5001", len(data), cap(data), err)
	}
	again, err := ws.ReadFileInto("b", MaxInputFile, data)
	if err != nil || string(again) != "bb" || &again[:1][0] != &data[:1][0] {
		t.Fatalf("ReadFileInto b: %q, %v; want bb in the given buffer", again, err)
	}
	small := make([]byte, 0, 10)
	if grown, err := ws.ReadFileInto("a", MaxInputFile, small); err != nil || len(grown) != 5000 || &grown[:1][0] == &small[:1][0] {
		t.Fatalf("ReadFileInto a into 10 bytes: %d bytes, %v; want 5000 in a buffer of their own", len(grown), err)
	}
	if _, err := ws.ReadFileInto("a", 4999, data); err == nil || !strings.Contains(err.Error(), "larger than 4999 bytes") {
		t.Fatalf("ReadFileInto past the bound: %v", err)
	}
}
