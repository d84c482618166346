package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestOneSchemaEditIsOneCause: a schema edit that fails fixtures of every
// class, each at its own command and each negative expecting its own
// code, is one cause, worded once with what differs set aside.
func TestOneSchemaEditIsOneCause(t *testing.T) {
	run := sample.SchemaEdit(400)
	var failing []*model.Result
	for i := range run.Results {
		if !run.Results[i].Passed {
			failing = append(failing, &run.Results[i])
		}
	}
	groups := Groups(failing)
	var sizes []int
	for _, g := range groups {
		sizes = append(sizes, len(g.Results))
	}
	if len(groups) != 9 || sizes[0] != 336 || sizes[1] != 57 {
		t.Fatalf("groups of %v, want 336, 57 and seven alone", sizes)
	}
	edit := groups[0]
	if got, want := edit.Why(), "command …: CreateBuffer: /size: … not multipleOf 256"; got != want {
		t.Errorf("the schema edit's message reads %q, want %q", got, want)
	}
	if got, want := edit.Cause(), "expected semantic_validation DRP2_ERR_USAGE or 8 other results, got schema_validation DRP2_ERR_INVALID_ARGUMENT"; got != want {
		t.Errorf("the schema edit's cause reads %q, want %q", got, want)
	}
	if got, want := groups[1].Cause(), "expected semantic_validation DRP2_ERR_USAGE, got success"; got != want {
		t.Errorf("the rule gone reads %q, want %q", got, want)
	}
}

// TestSilentFailuresKeepTheirExpectations: fixtures that got success
// where each expected its own error are as many causes as expectations,
// since the tool said nothing that joins them.
func TestSilentFailuresKeepTheirExpectations(t *testing.T) {
	a := &model.Result{Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE"}, Actual: model.Actual{Outcome: model.Success}}
	b := &model.Result{Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_LAYOUT"}, Actual: model.Actual{Outcome: model.Success}}
	if n := len(Groups([]*model.Result{a, b})); n != 2 {
		t.Errorf("%d groups, want 2", n)
	}
}

func TestTemplate(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{[]string{"command 3: size 64", "command 3: size 16"}, "command 3: size …"},
		{[]string{"format 'r8' unknown", "format 'rg8' unknown"}, "format … unknown"},
		{[]string{"the base's folder", "the base's folder"}, "the base's folder"},
		{[]string{"a 1", "a 1 2"}, "a 1"},
		{nil, ""},
	} {
		if got := Template(tt.in); got != tt.want {
			t.Errorf("Template(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestOneRuleIsOneCause: fixtures that fail by one rule with the same
// expected and actual results are one cause, though each message names
// its own command and object kind; the other wordings stay as examples.
func TestOneRuleIsOneCause(t *testing.T) {
	const rule = "LIFETIMES.md Submission And Destruction Safety rule 5"
	exp := model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INVALID_STATE"}
	var failing []*model.Result
	for i, m := range []string{
		"command 4: DestroyBuffer: buffer 3 is still referenced by recorded work",
		"command 6: DestroyTexture: texture 2 is still referenced by recorded work",
		"command 5: DestroySampler: sampler 9 is still referenced by a pending submission",
		"command 7: DestroyBindGroup: bind group 1 is still referenced by recorded work",
		"command 3: DestroyBuffer: buffer 8 is still referenced by recorded work",
		"command 8: DestroyQuerySet: query set 4 is still referenced by recorded work",
	} {
		failing = append(failing, &model.Result{Path: "negative/x" + string(rune('a'+i)) + ".json", Expected: exp,
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", Message: m + " (" + rule + ")", Rule: rule}})
	}
	other := &model.Result{Path: "negative/y.json", Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_LAYOUT"},
		Actual: failing[0].Actual}
	groups := Groups(append(failing, other))
	if len(groups) != 2 || len(groups[0].Results) != 6 {
		var sizes []int
		for _, g := range groups {
			sizes = append(sizes, len(g.Results))
		}
		t.Fatalf("groups of %v, want 6 by the rule and 1 expecting another code", sizes)
	}
	want := "command …: DestroyBuffer: buffer … is still referenced by recorded work; e.g. also command 6: DestroyTexture: texture 2 is still referenced by recorded work and 3 other wordings (" + rule + ")"
	if got := groups[0].Why(); got != want {
		t.Errorf("the rule's message reads\n%q, want\n%q", got, want)
	}
	if got, want := groups[0].Cause(), rule+": expected DRP2_ERR_INVALID_STATE, got DRP2_ERR_USAGE"; got != want {
		t.Errorf("the cause reads %q, want %q", got, want)
	}
}

// TestCauseOfMisplacedFailures: fixtures that fail with the code they
// expect, each at another command than the one it names, read as that,
// not as "expected X, got X".
func TestCauseOfMisplacedFailures(t *testing.T) {
	at := func(i int) *int { return &i }
	var failing []*model.Result
	for i, idx := range [][2]int{{3, 2}, {5, 4}} {
		failing = append(failing, &model.Result{Path: "negative/m" + string(rune('a'+i)) + ".json",
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: at(idx[0])},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: at(idx[1]), Message: "x"}})
	}
	groups := Groups(failing)
	if len(groups) != 1 {
		t.Fatalf("%d groups, want 1", len(groups))
	}
	want := "expected semantic_validation DRP2_ERR_USAGE, got it at another command than each fixture names"
	if got := groups[0].Cause(); got != want {
		t.Errorf("the cause reads %q, want %q", got, want)
	}
}
