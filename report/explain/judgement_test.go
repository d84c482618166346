package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// A run that fails while every fixture passed must not open its headline,
// which is also the check run's title, with the passing count: the reason
// it fails comes first, so that the line reads as failing.
func TestHeadlineOfARunFailingOnlyOnFindings(t *testing.T) {
	run := &model.Run{Summary: model.Summary{Discovered: 125, Run: 125, Passed: 125, Findings: 3},
		Judgement: &model.Judgement{Failed: true, Reasons: []model.Reason{{Kind: model.ReasonFindings, Count: 3}}}}
	want := "3 findings fail the run (fail-on findings); all 125 fixtures passed"
	if got := Judgement(run).Headline; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// Failing fixtures still open it: they are what fails the run first.
	run.Summary.Passed, run.Summary.Failed = 124, 1
	run.Judgement.Reasons = append([]model.Reason{{Kind: model.ReasonMismatches, Count: 1, Of: 125}}, run.Judgement.Reasons...)
	want = "1 of 125 fixtures failed (1 mismatch); 3 findings fail the run (fail-on findings)"
	if got := Judgement(run).Headline; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// A passing run with findings names them as a note.
	run = &model.Run{Summary: model.Summary{Discovered: 2, Run: 2, Passed: 2, Findings: 3}, Judgement: &model.Judgement{Findings: 3}}
	if got := Judgement(run).Headline; got != "all 2 fixtures passed; 3 findings" {
		t.Errorf("passing headline %q", got)
	}
}

// The headline's breakdown splits the failures that count: an excused
// corpus error is in neither part, whichever kind is excused.
func TestHeadlineBreakdownLeavesExcusedFailuresOut(t *testing.T) {
	mismatch := model.Result{Path: "a.json", Actual: model.Actual{Outcome: model.Outcome("error")}}
	corpusError := model.Result{Path: "b.json", Actual: model.Actual{Outcome: model.CorpusError}}
	for _, tc := range []struct {
		name    string
		results []model.Result
		want    string
	}{
		{"corpus error excused", []model.Result{mismatch, withKnown(corpusError)},
			"1 of 2 fixtures failed (1 mismatch) (and 1 known failure, excused)"},
		{"mismatch excused", []model.Result{withKnown(mismatch), corpusError},
			"1 of 2 fixtures failed (0 mismatches, 1 corpus error) (and 1 known failure, excused)"},
		{"both excused, a third fails", []model.Result{withKnown(mismatch), withKnown(corpusError), mismatch},
			"1 of 3 fixtures failed (1 mismatch) (and 2 known failures, excused)"},
	} {
		run := &model.Run{Results: tc.results, Judgement: &model.Judgement{Failed: true}}
		run.Summary = model.Summarize(len(tc.results), run.Results, nil)
		if got := Judgement(run).Headline; got != tc.want {
			t.Errorf("%s: headline %q, want %q", tc.name, got, tc.want)
		}
	}
}

func withKnown(r model.Result) model.Result {
	r.KnownFailure = "listed"
	return r
}
