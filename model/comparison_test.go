package model

import "testing"

func TestCountAndOrder(t *testing.T) {
	c := &Comparison{Changes: []Change{
		{Verdict: Regressed, Content: StreamChanged},
		{Verdict: StillPassing, Content: Renamed},
		{Verdict: Fixed, Content: ExpectationChanged},
		{Verdict: Removed},
		{Verdict: StillPassing, Content: MetadataChanged},
	}}
	want := Delta{Regressed: 1, Fixed: 1, Removed: 1, StreamChanged: 1, Renamed: 1, ExpectationChanged: 1}
	if c.Delta() != want {
		t.Errorf("Delta = %+v, want %+v", c.Delta(), want)
	}
	for i := 1; i < len(Verdicts); i++ {
		if !Verdicts[i-1].Less(Verdicts[i]) || Verdicts[i].Less(Verdicts[i-1]) {
			t.Errorf("%s and %s out of order", Verdicts[i-1], Verdicts[i])
		}
	}
	if !Regressed.Less(Verdict("unknown")) {
		t.Error("a known verdict does not come before an unknown one")
	}
}
