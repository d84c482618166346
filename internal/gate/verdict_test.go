package gate

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestImplementationCountsClaimedFixtures: the headline's "failed N of M"
// counts the fixtures the implementation claims, as the matrix does ("5
// of 6 (1 failed); 2 not claimed"), not the ones it does not perform.
func TestImplementationCountsClaimedFixtures(t *testing.T) {
	im := model.Implementation{Command: "./rt", Name: "rt"}
	im.Summary = model.Summary{Run: 8, Passed: 5, Failed: 1, NotClaimed: 2}
	run := &model.Run{Implementations: []model.Implementation{im}}
	j := Judge(&Outcome{Run: run}, Job{FailOn: FailOn{Mismatch: true}})
	if len(j.Reasons) != 1 || j.Reasons[0].Kind != model.ReasonImplementationFailed || j.Reasons[0].Count != 1 || j.Reasons[0].Of != 6 {
		t.Errorf("reasons %+v, want 1 failed of the 6 claimed", j.Reasons)
	}
}
