package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// TestMergeSizesMemoryByResultsHeld: as merge reads its reports, Holds
// hears the results they hold so far, the implementations' with the
// validator's, so that main's soft memory limit grows with what the
// merge keeps (under the limit of an empty run, the collector of a merge
// of 50,000 fixtures worked a fifth of its time).
func TestMergeSizesMemoryByResultsHeld(t *testing.T) {
	dir := testkit.Corpus(t, shardedCorpus(t))
	for k := 1; k <= 2; k++ {
		if code, _, stderr := run(t, dir, "run", "--fail-on", "never", "--implementation", selfAdapter(t), "--shard", fmt.Sprintf("%d/2", k),
			"--json-out", fmt.Sprintf("out/%d.json", k)); code != ExitOK {
			t.Fatalf("shard %d: exit %d\n%s", k, code, stderr)
		}
	}
	var sized []int
	var stdout, stderr bytes.Buffer
	env := Env{Stdout: &stdout, Stderr: &stderr, WorkDir: dir, Holds: func(n int) { sized = append(sized, n) }}
	if code := Main(context.Background(), []string{"merge", "--fail-on", "never", "--json-out", "merged.json", "out/1.json", "out/2.json"}, env); code != ExitOK {
		t.Fatalf("merge: exit %d\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	var merged struct {
		Results         []any
		Implementations []struct{ Results []any }
	}
	if err := json.Unmarshal(data, &merged); err != nil {
		t.Fatal(err)
	}
	total := len(merged.Results) + len(merged.Implementations[0].Results)
	if len(sized) != 2 || sized[0] <= 0 || sized[0] >= sized[1] || sized[1] != total {
		t.Errorf("Holds heard %v, want a count after each of the 2 reports, ending at the %d results they hold", sized, total)
	}
}
