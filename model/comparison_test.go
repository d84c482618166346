package model

import "testing"

func TestCountAndOrder(t *testing.T) {
	c := &Comparison{Changes: []Change{
		{Transition: Regressed, Content: StreamChanged},
		{Transition: StillPassing, Content: Renamed},
		{Transition: Fixed, Content: ExpectationChanged},
		{Transition: Removed},
		{Transition: StillPassing, Content: MetadataChanged},
	}}
	want := Delta{Regressed: 1, Fixed: 1, Removed: 1, StreamChanged: 1, Renamed: 1, ExpectationChanged: 1}
	if c.Delta() != want {
		t.Errorf("Delta = %+v, want %+v", c.Delta(), want)
	}
	for i := 1; i < len(Transitions); i++ {
		if !Transitions[i-1].Less(Transitions[i]) || Transitions[i].Less(Transitions[i-1]) {
			t.Errorf("%s and %s out of order", Transitions[i-1], Transitions[i])
		}
	}
	if !Regressed.Less(Transition("unknown")) {
		t.Error("a known verdict does not come before an unknown one")
	}
}

// TestSchemaChanged: two runs' schemas are compared by closure when both
// recorded one, else by the schema file's own sum (a report written
// before closures); a run that names no schema changes nothing.
func TestSchemaChanged(t *testing.T) {
	for _, c := range []struct {
		base, head SchemaSource
		want       bool
	}{
		{SchemaSource{SHA256: "a", Closure: "x"}, SchemaSource{SHA256: "a", Closure: "y"}, true},
		{SchemaSource{SHA256: "a", Closure: "x"}, SchemaSource{SHA256: "a", Closure: "x"}, false},
		{SchemaSource{SHA256: "a"}, SchemaSource{SHA256: "a", Closure: "y"}, false},
		{SchemaSource{SHA256: "a"}, SchemaSource{SHA256: "b", Closure: "y"}, true},
		{SchemaSource{}, SchemaSource{SHA256: "b", Closure: "y"}, false},
	} {
		if got := SchemaChanged(c.base, c.head); got != c.want {
			t.Errorf("SchemaChanged(%+v, %+v) = %v", c.base, c.head, got)
		}
	}
}

func TestSchemaFilesChanged(t *testing.T) {
	base := []SchemaFile{{"a.json", "1"}, {"b.json", "2"}, {"gone.json", "3"}}
	head := []SchemaFile{{"a.json", "1"}, {"b.json", "9"}, {"c.json", "4"}}
	got := SchemaFilesChanged(base, head)
	if want := []string{"b.json", "c.json", "gone.json"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("SchemaFilesChanged = %v, want %v", got, want)
	}
	if got := SchemaFilesChanged(base, base); got != nil {
		t.Errorf("same closures: %v", got)
	}
}
