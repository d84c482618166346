package markdown

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// The Markdown report is the summary followed by the sections of what the
// run carries, and a note saying where the report is when GitHub would
// drop it whole.
func TestReport(t *testing.T) {
	run := sample.Passing()
	run.Manifest = &model.ManifestCheck{Path: "fixtures/manifest.json", DRP2Version: "2.0", Headline: "the corpus matches its manifest"}
	run.Coverage = &model.Coverage{Rules: []model.RuleCoverage{{ID: "R1", Summary: "a rule", Negative: 1}}}
	got := Report(run, Options{})
	sum := Summary(run, Options{})
	if !strings.HasPrefix(got, sum) || strings.Index(got, "### Fixture manifest") < len(sum) ||
		strings.Index(got, "### Rule coverage") < strings.Index(got, "### Fixture manifest") {
		t.Errorf("report:\n%s", got)
	}
	for i := 0; i < 4000; i++ {
		run.Coverage.Rules = append(run.Coverage.Rules, model.RuleCoverage{ID: "R", Summary: strings.Repeat("long ", 60)})
	}
	got = Report(run, Options{WholeReport: "out/`r`.json"})
	if want := "## DRP2 fixtures\n\nThe report is larger than the 1 MiB job summary limit: see ``out/`r`.json``.\n"; got != want {
		t.Errorf("oversized report: %q, want %q", got, want)
	}
}
