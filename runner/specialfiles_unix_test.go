//go:build unix

package runner

// Named pipes (FIFOs) are made with mkfifo, which only Unix has.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

func TestSpecialFilesAreFindingsNotFixtures(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/a.json":          fixtureJSON("a", success, hello, reply),
		"positive/dir.json/b.json": fixtureJSON("b", success, hello, reply),
	})
	outside := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(outside, []byte(fixtureJSON("secret", success, hello, reply)), 0o644)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(outside, filepath.Join(root, "positive", "outside.json")))
	must(os.Symlink("loop.json", filepath.Join(root, "positive", "loop.json")))
	must(os.Symlink("a.json", filepath.Join(root, "positive", "inside.json")))
	must(mkfifo(filepath.Join(root, "positive", "fifo.json")))
	bad := filepath.Join(root, "positive", "bad-\xff.json")
	must(os.WriteFile(bad, []byte(fixtureJSON("bad", success, hello, reply)), 0o644))

	done := make(chan *model.Run)
	go func() { done <- runCorpus(t, Config{Corpus: root}) }()
	var run *model.Run
	select {
	case run = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the run hung (a FIFO was opened?)")
	}
	r := byPath(run)
	if !r["positive/a.json"].Passed || !r["positive/dir.json/b.json"].Passed {
		t.Errorf("regular fixtures: %+v", run.Results)
	}
	if got := r["positive/bad-\xff.json"]; !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "UTF-8") {
		t.Errorf("non-UTF-8 name: %+v", got.Actual)
	}
	skipped := map[string]string{}
	for _, f := range run.Findings {
		if f.Kind == model.FindingSkippedFile {
			skipped[f.Path] = f.Message
		}
	}
	for _, p := range []string{"positive/outside.json", "positive/loop.json", "positive/inside.json", "positive/fifo.json", "positive/dir.json"} {
		if skipped[p] == "" {
			t.Errorf("%s: no skipped-file finding (findings: %v)", p, skipped)
		}
	}
	if len(run.Results) != 3 {
		t.Errorf("results = %d, want 3 (a, dir.json/b, bad name)", len(run.Results))
	}
}
