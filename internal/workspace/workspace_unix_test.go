//go:build unix

package workspace

// Named pipes (FIFOs) are made with mkfifo, which only Unix has.

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO is refused at once, not waited on, by the workspace and by a
// tree of it.
func TestFIFORefused(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skipf("SKIPPED: mkfifo: %v", err)
	}
	ws := New(dir, true)
	done := make(chan error, 1)
	go func() { _, err := ws.ReadFile("fifo", 100); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was read")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	tree, err := ws.Tree(".", 100)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	go func() { _, err := tree.ReadFile("fifo"); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was read from a tree")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO from a tree blocked")
	}
}
