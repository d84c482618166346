package frontend

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestUseColor(t *testing.T) {
	for _, c := range []struct {
		env       map[string]string
		byDefault bool
		want      bool
	}{
		{nil, false, false},
		{nil, true, true},
		{map[string]string{"FORCE_COLOR": "1"}, false, true},
		{map[string]string{"FORCE_COLOR": "0"}, true, false},
		{map[string]string{"FORCE_COLOR": "false"}, true, false},
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		// NO_COLOR wins over everything.
		{map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, false},
	} {
		if got := UseColor(func(k string) string { return c.env[k] }, c.byDefault); got != c.want {
			t.Errorf("UseColor(%v, default %v) = %v, want %v", c.env, c.byDefault, got, c.want)
		}
	}
}

// TestKeepFinding: finding-annotations changed keeps the findings on files
// the change added, renamed or edited, and no others; off keeps none.
func TestKeepFinding(t *testing.T) {
	run := &model.Run{Comparison: &model.Comparison{Changes: []model.Change{
		{Path: "f/positive/new.json", Verdict: model.AddedPassing},
		{Path: "f/positive/edited.json", Verdict: model.StillPassing, Content: model.StreamChanged},
		{Path: "f/positive/old.json", Verdict: model.StillFailing},
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
