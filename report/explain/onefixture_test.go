package explain

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestOneFixtureIsSingular: a corpus of one fixture reads "of 1 fixture"
// in the headline and its reasons, never "of 1 fixtures".
func TestOneFixtureIsSingular(t *testing.T) {
	run := &model.Run{Summary: model.Summary{Discovered: 1, Run: 1, Passed: 1},
		Judgement: &model.Judgement{Failed: true, Reasons: []model.Reason{
			{Kind: model.ReasonImplementationFailed, Subject: "rt 1.0", Count: 1, Of: 1},
			{Kind: model.ReasonMismatches, Count: 1, Of: 1},
			{Kind: model.ReasonNoComparison, Count: 1, Of: 1}}}}
	j := Judgement(run)
	want := "the 1 fixture passed; implementation rt 1.0 failed 1 of 1 fixture; no comparison with the base: every failure counts as a regression"
	if j.Headline != want {
		t.Errorf("headline %q, want %q", j.Headline, want)
	}
	for _, r := range j.Reasons {
		if strings.Contains(r, "of 1 fixtures") {
			t.Errorf("reason %q", r)
		}
	}
	im := &model.Implementation{Name: "rt", Version: "1.0", Summary: model.Summary{Run: 1, Failed: 1}}
	if got := ImplementationResult(im); got != "implementation rt 1.0 failed 1 of 1 fixture" {
		t.Errorf("implementation result %q", got)
	}
}
