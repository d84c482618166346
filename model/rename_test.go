package model

import "testing"

func TestMatchRenames(t *testing.T) {
	x := Digest{File: "F", Commands: "C", Expected: "E"}
	gone := []Digest{x, {File: "G", Commands: "C2", Expected: "E2"}, {}}
	added := []Digest{
		{File: "other", Commands: "C", Expected: "E"}, // x reworded: same body
		{File: "F", Commands: "C", Expected: "E"},     // x moved as it is
		{File: "H", Commands: "C2", Expected: "E9"},   // new expectation: not a rename
		{}, // no sums: never paired
	}
	got := MatchRenames(gone, added)
	// The whole file wins over the body, whatever the path order.
	if len(got) != 1 || got[1] != 0 {
		t.Errorf("MatchRenames = %v, want map[1:0]", got)
	}
	got = MatchRenames(gone, added[:1])
	if len(got) != 1 || got[0] != 0 {
		t.Errorf("reworded: %v, want map[0:0]", got)
	}
}
