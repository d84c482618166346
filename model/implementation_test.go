package model

import "testing"

func TestRankImplementations(t *testing.T) {
	impls := []Implementation{
		{Command: "c", Name: "zeta", Summary: Summary{Passed: 5}},
		{Command: "b", Name: "alpha", Version: "1", Summary: Summary{Passed: 5}},
		{Command: "a", Summary: Summary{Passed: 9}},
		{Command: "d", Name: "beta", Summary: Summary{Passed: 5}, Results: []Result{{Actual: Actual{Outcome: HarnessError}}}},
	}
	got := ""
	for _, i := range RankImplementations(impls) {
		got += impls[i].Label() + ";"
	}
	// Most passed first; then fewer harness errors; then by label.
	if want := "a;alpha 1;zeta;beta;"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

func TestLevel2Counts(t *testing.T) {
	im := Implementation{Level2: map[string]bool{"a": true, "b": false, "c": true}}
	if c, p := im.Level2Counts(); c != 3 || p != 2 {
		t.Errorf("%d %d", c, p)
	}
}
