package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestProgressTotalCountsImplementations: the progress line's total counts
// every fixture once for the validator and once for each implementation
// from its first drawing, before any implementation has started: it
// never reads 3/3 while the implementations start, then jumps to /9.
func TestProgressTotalCountsImplementations(t *testing.T) {
	dir := testkit.Corpus(t, harnessCorpus)
	ticks := make(chan time.Time)
	var stderr, stdout bytes.Buffer
	env := Env{Stdout: &stdout, Stderr: &stderr, WorkDir: dir, StderrIsTerminal: func() bool { return true },
		Tick: func(time.Duration) (<-chan time.Time, func()) { return ticks, func() {} }}
	env.Sized = func(fixtures int) {
		// Told the size before any fixture runs: the first tick draws the
		// line, and the second is taken only once it is drawn.
		ticks <- time.Now().Add(time.Hour)
		ticks <- time.Now().Add(time.Hour)
	}
	code := Main(context.Background(), []string{"run", "--implementation", selfAdapter(t), "--implementation", selfAdapter(t),
		"--format", "text"}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(stderr.String(), "\r"), "\x1b[K")
	if !strings.HasPrefix(first, "drp2-fixtures run: 0/9 fixtures,") {
		t.Errorf("first progress line %q, want 0/9: 3 fixtures for the validator and each of 2 implementations", first)
	}
}
