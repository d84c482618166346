package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/corpusgen"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

var realCorpus = filepath.Join("..", "..", "shared", "drp2", "fixtures")

func benchRun(b *testing.B, cfg runner.Config, want int) {
	b.Helper()
	cfg.Checker = drp2.New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run, err := runner.Run(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if run.Summary.Run != want {
			b.Fatalf("ran %d fixtures, want %d", run.Summary.Run, want)
		}
	}
	b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "fixtures/s")
}

// BenchmarkRealCorpus runs the 125 fixtures of the DRP2 checkout beside
// the project with its upstream schemas.
func BenchmarkRealCorpus(b *testing.B) {
	if _, err := os.Stat(realCorpus); err != nil {
		b.Skipf("SKIPPED: no DRP2 corpus at %s", realCorpus)
	}
	benchRun(b, runner.Config{Corpus: realCorpus}, 125)
}

// BenchmarkGeneratedCorpus runs corpora generated from the real corpus at
// two sizes, to compare fixtures per second across a tenfold growth.
func BenchmarkGeneratedCorpus(b *testing.B) {
	if _, err := os.Stat(realCorpus); err != nil {
		b.Skipf("SKIPPED: no DRP2 corpus at %s", realCorpus)
	}
	for _, n := range []int{5000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			if err := corpusgen.Corpus(os.DirFS(realCorpus), dir, corpusgen.Options{Count: n}); err != nil {
				b.Fatal(err)
			}
			benchRun(b, runner.Config{Corpus: dir, CommandSchema: runner.Embedded, FixtureSchema: runner.Embedded}, n)
		})
	}
}
