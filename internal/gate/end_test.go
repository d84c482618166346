package gate

import (
	"errors"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/model"
)

// An outcome ends its command by what stopped a late step, else by the
// verdict: the exit codes 0, 1 and the error's own.
func TestOutcomeEnd(t *testing.T) {
	record := exit.New(exit.Record, errors.New("write report.json: denied"))
	for _, c := range []struct {
		name string
		o    Outcome
		want int
	}{
		{"no verdict", Outcome{}, exit.OK},
		{"passed", Outcome{Verdict: &model.Judgement{}}, exit.OK},
		{"failed", Outcome{Verdict: &model.Judgement{Failed: true}}, exit.Failed},
		{"a late step stopped", Outcome{Verdict: &model.Judgement{Failed: true}, Err: record}, exit.Usage},
	} {
		if got := exit.Code(c.o.End()); got != c.want {
			t.Errorf("%s: exit code %d, want %d", c.name, got, c.want)
		}
	}
	o := Outcome{Err: record}
	if !errors.Is(o.End(), record) {
		t.Errorf("the end %v is not the outcome's error", o.End())
	}
}
