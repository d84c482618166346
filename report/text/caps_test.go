package text

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// manyRun is a run of the sample's passing fixtures plus failures and
// findings past the terminal's caps: 23 failing fixtures (one a corpus
// error, one a known failure) and 25 findings.
func manyRun() *model.Run {
	run := sample.Passing()
	for i := range 23 {
		r := model.Result{Class: model.ClassNegative, Folder: "negative",
			Path: fmt.Sprintf("fixtures/negative/wrong_%02d.json", i), RelPath: fmt.Sprintf("negative/wrong_%02d.json", i),
			Name: fmt.Sprintf("wrong_%02d", i), Span: &model.Span{Line: 3, Column: 1},
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE"},
			Actual:   model.Actual{Outcome: model.Success}}
		switch i {
		case 7:
			r.Class, r.Actual = model.ClassUnknown, model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope, Message: "invalid JSON"}
		case 9:
			r.KnownFailure = "tracked elsewhere"
		}
		run.Results = append(run.Results, r)
	}
	for i := range 25 {
		run.Findings = append(run.Findings, model.Finding{Kind: model.FindingNameStem,
			Path: fmt.Sprintf("fixtures/negative/wrong_%02d.json", i), Message: "name differs from file name"})
	}
	run.Summary = model.Summarize(len(run.Results), run.Results, run.Findings)
	return run
}

// TestCapsGolden: the plain report shows the first 20 findings and says
// how many more there are and where they are; it restates the failing
// fixtures, at most 20, one line each, corpus errors first, just before
// the verdict. Verbose shows every finding.
func TestCapsGolden(t *testing.T) {
	golden.Check(t, "many.txt", []byte(render(t, manyRun(), Options{})))
	verbose := render(t, manyRun(), Options{Verbose: true})
	if n := strings.Count(verbose, "WARN "); n != 25 || strings.Contains(verbose, "more findings") {
		t.Errorf("verbose: %d findings shown, want all 25 and no note", n)
	}
	// In a log's groups the findings fold away, and the commands that
	// reproduce take the place of the restatement.
	grouped := render(t, manyRun(), Options{Verbose: true, Group: true})
	if n := strings.Count(grouped, "WARN "); n != 25 || strings.Contains(grouped, "Failing fixtures") {
		t.Errorf("grouped: %d findings shown, restated: %v", n, strings.Contains(grouped, "Failing fixtures"))
	}
}
