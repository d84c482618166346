package bound

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func failing(n int) []model.Result {
	var rs []model.Result
	for i := range n {
		rs = append(rs, model.Result{Path: fmt.Sprint(i), Reason: "why", Actual: model.Actual{Outcome: model.Error, Message: "m"}})
	}
	return rs
}

// TestLeftOutAndRecorded: past the first failures given in full, unusable
// fixtures first, the rest keep their verdicts alone; the run says how
// many it gives in full at most and how many it left out, those left out
// before counted too, and the run it was given is not changed.
func TestLeftOutAndRecorded(t *testing.T) {
	rs := append(failing(4), model.Result{Path: "passed", Passed: true, Reason: "r"},
		model.Result{Path: "broken", Actual: model.Actual{Outcome: model.CorpusError, Message: "invalid JSON"}},
		model.Result{Path: "read back", DetailLeftOut: true, Actual: model.Actual{Outcome: model.Error}})
	run := &model.Run{Results: rs, Implementations: []model.Implementation{{Results: failing(3)}}}
	b := RunTo(run, 2)
	var kept []string
	for _, r := range b.Results {
		if !r.DetailLeftOut {
			kept = append(kept, r.Path)
		} else if r.Reason != "" || r.Actual.Message != "" {
			t.Errorf("%s: detail left in", r.Path)
		}
	}
	if got := strings.Join(kept, " "); got != "0 passed broken" {
		t.Errorf("given in full: %s; want the unusable fixture, the first failure and the pass", got)
	}
	if b.Bounds != (model.Bounds{Full: 2, LeftOut: 4}) {
		t.Errorf("bounds %+v", b.Bounds)
	}
	if im := b.Implementations[0].Results; im[1].DetailLeftOut || !im[2].DetailLeftOut {
		t.Error("an implementation's failures are not bounded like the run's")
	}
	if run.Results[3].DetailLeftOut || run.Bounds.Full != 0 {
		t.Error("RunTo changed the run it was given")
	}
}

// TestNotesCounted: a comparison shows a few notes on its base, and counts
// the rest.
func TestNotesCounted(t *testing.T) {
	c := &model.Comparison{}
	for i := range maxNotes + 3 {
		c.Notes = append(c.Notes, fmt.Sprintf("folder %d could not be read", i))
	}
	notes := Run(&model.Run{Comparison: c}).Comparison.Notes
	if len(notes) != maxNotes+1 || notes[maxNotes] != "and 3 more folders of the base could not be read" {
		t.Errorf("notes: %q", notes)
	}
}
