//go:build linux

package workspace

import (
	"os"
	"path/filepath"
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
