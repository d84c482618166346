package model

import "testing"

func TestHeadline(t *testing.T) {
	for _, c := range []struct {
		c    *Comparison
		want string
	}{
		{nil, ""},
		{&Comparison{Unavailable: "shallow"}, "no comparison with the base"},
		{&Comparison{Base: "abc1234"}, "no change against base abc1234"},
		{&Comparison{Base: "b", Changes: changes(Regressed, 2, Fixed, 3, AddedPassing, 4, AddedFailing, 1)}, "2 regressed, 3 fixed, 5 added against base b"},
		{&Comparison{Base: "b", FixtureSchemaChanged: true, Changes: changes(StillFailing, 7)}, "schemas changed against base b"},
	} {
		if got := c.c.Headline(); got != c.want {
			t.Errorf("Headline() = %q, want %q", got, c.want)
		}
	}
}

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

// changes makes n changes of each verdict: changes(Regressed, 2, Fixed, 1).
func changes(counts ...any) []Change {
	var out []Change
	for i := 0; i < len(counts); i += 2 {
		for n := counts[i+1].(int); n > 0; n-- {
			out = append(out, Change{Verdict: counts[i].(Verdict)})
		}
	}
	return out
}
