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
