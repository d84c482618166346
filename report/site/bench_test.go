package site

import (
	"fmt"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// manyReports is n reports of 5 implementations (one a report, as each
// publishes its own) over 125 fixtures, verdicts varying deterministically.
func manyReports(n int) []Report {
	base := sample.Large(125)
	out := make([]Report, 0, n)
	for k := 0; k < n; k++ {
		i, round := k%5, k/5
		im := model.Implementation{Name: fmt.Sprintf("runtime-%d", i), Version: "1.0", DRP2Versions: []string{"2.0"},
			Adapter: &model.GPUAdapter{Device: fmt.Sprintf("device %d", i)}, Results: make([]model.Result, len(base.Results))}
		for j, r := range base.Results {
			r.Passed = (j*7+i*3+round)%11 != 0 && j%10 >= i
			im.Results[j] = r
		}
		im.Summary = model.Summarize(len(im.Results), im.Results, nil)
		run := &model.Run{Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(round) * 6 * time.Hour),
			CorpusDigest: corpusA, Results: base.Results, Implementations: []model.Implementation{im}}
		out = append(out, Report{Source: fmt.Sprintf("reports/%05d.json", k), Run: run})
	}
	return out
}

// BenchmarkBuild renders the site of 1,000 reports in process (the
// reading of the reports aside: scripts/bench-site measures the whole
// command): its time and its size.
func BenchmarkBuild(b *testing.B) {
	reports := manyReports(1000)
	b.ResetTimer()
	size := 0
	for b.Loop() {
		size = 0
		for _, f := range Build(reports, Options{Compare: baseline.Compare}) {
			size += len(f.Data)
		}
	}
	b.ReportMetric(float64(size), "site-bytes")
}

// TestManyReportsSize: the site of 1,000 reports of 5 implementations over
// 125 fixtures stays within 16 MiB, the bound docs/site.md states.
func TestManyReportsSize(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	size, pages := 0, 0
	for _, f := range Build(manyReports(1000), Options{Compare: baseline.Compare}) {
		size += len(f.Data)
		if len(f.Path) > 5 && f.Path[len(f.Path)-5:] == ".html" {
			pages++
		}
	}
	// The index, the fixtures, the grid and the diff index; a page per
	// implementation, per fixture, and per report after an implementation's
	// first.
	if size > 16<<20 || pages != 4+5+125+995 {
		t.Errorf("%d bytes, %d pages", size, pages)
	}
	t.Logf("%d bytes, %d pages", size, pages)
}
