package corpusgen

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFloor: every .json file is read and checked once, and only those.
func TestFloor(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"positive/a.json": `{"a": 1}`,
		"negative/b.json": `{"b": [1, 2]}`,
		"negative/c.json": `{"c": `,
		"notes.txt":       "not read",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2, 8} {
		got, err := Floor(dir, workers)
		if err != nil {
			t.Fatal(err)
		}
		want := FloorResult{Files: 3, Invalid: 1, Bytes: int64(len(files["positive/a.json"]) + len(files["negative/b.json"]) + len(files["negative/c.json"]))}
		if got != want {
			t.Errorf("%d workers: %+v, want %+v", workers, got, want)
		}
	}
}
