package model

import "testing"

// TestParity: equal bytes group together, the fixture's data is the
// reference, and a difference names its first byte, also when one side is
// a prefix of the other.
func TestParity(t *testing.T) {
	run := &Run{
		Results:          []Result{{RelPath: "positive/a.json"}, {RelPath: "positive/b.json"}},
		FixtureReadbacks: map[string][][]byte{"positive/a.json": {{1, 2, 3, 4}}, "positive/b.json": {nil}},
		Implementations: []Implementation{
			{Name: "node", Summary: Summary{Passed: 2}, Readbacks: map[string][][]byte{"positive/a.json": {{1, 2, 3, 4}}, "positive/b.json": {{9, 9}}}},
			{Name: "browser", Summary: Summary{Passed: 1}, Readbacks: map[string][][]byte{"positive/a.json": {{1, 2, 7, 4}}, "positive/b.json": {{9, 9, 0}}}},
			{Name: "alone", Readbacks: map[string][][]byte{"positive/c.json": {{5}}}},
		},
	}
	rows := Parity(run)
	if len(rows) != 2 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	a, b := rows[0], rows[1]
	if a.Path != "positive/a.json" || a.Agree() || len(a.Groups) != 2 {
		t.Fatalf("row a: %+v", a)
	}
	if g := a.Groups[0]; len(g.Sources) != 2 || g.Sources[0] != FixtureSource || g.Sources[1] != "node" || g.FirstDiff != -1 {
		t.Errorf("reference group: %+v", g)
	}
	if g := a.Groups[1]; g.Sources[0] != "browser" || g.FirstDiff != 2 || g.Got != 7 || g.Want != 3 {
		t.Errorf("differing group: %+v", g)
	}
	// No fixture data: the best implementation is the reference.
	if g := b.Groups[1]; b.Groups[0].Sources[0] != "node" || g.FirstDiff != 2 || g.Got != 0 || g.Want != -1 {
		t.Errorf("row b: %+v", b)
	}
	// Fixture data that is not base64 is named, not compared.
	if len(b.Unusable) != 1 || b.Unusable[0] != FixtureSource || len(a.Unusable) != 0 {
		t.Errorf("unusable: %v, %v", a.Unusable, b.Unusable)
	}
	if c, ok := ParityCounts(rows, "browser"); c != 2 || ok != 0 {
		t.Errorf("browser: %d compared, %d agreed", c, ok)
	}
	if c, ok := ParityCounts(rows, "node"); c != 2 || ok != 2 {
		t.Errorf("node: %d compared, %d agreed", c, ok)
	}
}
