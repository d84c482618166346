package annotation

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestKeepFinding: finding-annotations changed keeps the findings on files
// the change added, renamed or edited, and no others; off keeps none.
func TestKeepFinding(t *testing.T) {
	run := &model.Run{Comparison: &model.Comparison{Changes: []model.Change{
		{Path: "f/positive/new.json", Transition: model.AddedPassing},
		{Path: "f/positive/edited.json", Transition: model.StillPassing, Content: model.StreamChanged},
		{Path: "f/positive/old.json", Transition: model.StillFailing},
	}}}
	keep := keepFinding(run, FindingsChanged)
	for path, want := range map[string]bool{"f/positive/new.json": true, "f/positive/edited.json": true,
		"f/positive/old.json": false, "f/positive/untouched.json": false} {
		if got := keep(model.Finding{Path: path}); got != want {
			t.Errorf("changed keeps %s: %v, want %v", path, got, want)
		}
	}
	if keepFinding(run, FindingsOff)(model.Finding{Path: "f/positive/new.json"}) {
		t.Error("off keeps a finding")
	}
	if keepFinding(run, FindingsAll) != nil {
		t.Error("all filters findings")
	}
	if keepFinding(&model.Run{}, FindingsChanged)(model.Finding{Path: "x.json"}) {
		t.Error("without a comparison, changed keeps a finding on a file nobody knows was touched")
	}
}
