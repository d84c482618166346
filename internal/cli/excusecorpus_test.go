package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A corpus error is never excused: an unusable fixture is the pull
// request's to fix, and an entry the pull request lists it under, in
// either list format, must not turn the run green. The entry is named as
// one that excuses nothing.
func TestCorpusErrorIsNeverExcused(t *testing.T) {
	dir := testkit.Corpus(t, testkit.Merge(passing, map[string]string{"fixtures/positive/broken.json": `{"name": `}))
	os.WriteFile(filepath.Join(dir, "known.txt"), []byte("positive/broken.json being rewritten\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "expect.txt"), []byte("* positive/broken.json fail # being rewritten\ndrp2-fixtures positive/ flaky\n"), 0o644)
	for _, args := range [][]string{
		{"--known-failures", "known.txt"},
		{"--expectations", "expect.txt"},
	} {
		code, stdout, stderr := run(t, dir, append([]string{"run"}, args...)...)
		if code != ExitMismatch {
			t.Errorf("%v: a listed corpus error: exit %d, want %d\n%s%s", args, code, ExitMismatch, stdout, stderr)
		}
		if !strings.Contains(stdout, "entry cannot excuse a corpus error") || !strings.Contains(stdout, "has no effect") {
			t.Errorf("%v: the entry is not named as excusing nothing:\n%s", args, stdout)
		}
	}
}
