package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestHarnessHeadlines: a harness error is not called an error verdict,
// and a matched verdict that failed afterwards says what failed.
func TestHarnessHeadlines(t *testing.T) {
	noVerdict := &model.Result{Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE"},
		Actual: model.Actual{Outcome: model.HarnessError, Message: "no answer within the timeout"}}
	if got, want := Headline(noVerdict), "expected semantic_validation DRP2_ERR_USAGE, got no verdict from the implementation"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	level2 := &model.Result{Expected: model.Expected{Outcome: "success"},
		Actual: model.Actual{Outcome: model.Success, Message: "Level 2: reply 1 of 1 is missing"}}
	if got, want := Headline(level2), "success, but Level 2: reply 1 of 1 is missing"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
