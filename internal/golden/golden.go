// Package golden compares test output with files under testdata, byte for
// byte, and rewrites them when the tests run with -update.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// Check compares got with testdata/name and fails the test on any
// difference, showing the first differing line (LineDiff).
func Check(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read golden file (run go test -update to create it): %v", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	t.Fatalf("%s differs (run go test -update to accept):\n%s", file, LineDiff(want, got))
}

// LineDiff shows the first line where got differs from want, for a test's
// failure message.
func LineDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return fmt.Sprintf("line %d:\nwant: %q\ngot:  %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}

// Updating reports whether the tests run with -update.
func Updating() bool { return *update }
