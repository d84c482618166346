package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestComparisonHeadline(t *testing.T) {
	for _, c := range []struct {
		c    *model.Comparison
		want string
	}{
		{nil, ""},
		{&model.Comparison{Unavailable: "shallow"}, "no comparison with the base"},
		{&model.Comparison{Base: "abc1234"}, "no change against base abc1234"},
		{&model.Comparison{Base: "b", Changes: changes(model.Regressed, 2, model.Fixed, 3, model.AddedPassing, 4, model.AddedFailing, 1)}, "2 regressed, 3 fixed, 5 added against base b"},
		{&model.Comparison{Base: "b", FixtureSchemaChanged: true, Changes: changes(model.StillFailing, 7)}, "fixture schema changed against base b"},
		// A schema of $refs: the files of it that changed, and the error
		// the change now gives.
		{&model.Comparison{Base: "b", CommandSchemaChanged: true, CommandSchemaFiles: []string{"commands/CreateBuffer.json"},
			SchemaFailure: &model.SchemaFailure{Message: "CreateBuffer: missing properties: 'usages'", Path: "fixtures/positive/a.json", Fixtures: 336, All: 336},
			Changes:       changes(model.Regressed, 336)},
			"336 regressed, command schema changed: commands/CreateBuffer.json (336 fixtures now fail with: CreateBuffer: missing properties: 'usages') against base b"},
		{&model.Comparison{Base: "b", CommandSchemaChanged: true, FixtureSchemaChanged: true,
			CommandSchemaFiles: []string{"a.json", "b.json", "c.json"}, FixtureSchemaFiles: []string{"d.json"},
			SchemaFailure: &model.SchemaFailure{Message: "line\none", Fixtures: 1, All: 3}},
			"command and fixture schemas changed: a.json, b.json, c.json and 1 more (3 fixtures now fail a schema phase, 1 of them with: line one) against base b"},
	} {
		if got := ComparisonHeadline(c.c); got != c.want {
			t.Errorf("ComparisonHeadline() = %q, want %q", got, c.want)
		}
	}
}

// changes makes n changes of each transition: changes(Regressed, 2, Fixed, 1).
func changes(counts ...any) []model.Change {
	var out []model.Change
	for i := 0; i < len(counts); i += 2 {
		for n := counts[i+1].(int); n > 0; n-- {
			out = append(out, model.Change{Transition: counts[i].(model.Transition)})
		}
	}
	return out
}

// TestChangeIn: a fixture of both runs whose file did not change says
// which schema changed; one whose file changed, or that one run lacks,
// says what Change says.
func TestChangeIn(t *testing.T) {
	c := &model.Comparison{CommandSchemaChanged: true, CommandSchemaFiles: []string{"commands/CreateBuffer.json"}}
	both := &model.Side{Passed: true, Actual: model.Actual{Outcome: model.Success}}
	now := &model.Side{Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSchema}}
	for _, tc := range []struct {
		ch   model.Change
		want string
	}{
		{model.Change{Transition: model.Regressed, Base: both, Head: now}, "command schema changed"},
		{model.Change{Transition: model.Regressed, Content: model.StreamChanged, Base: both, Head: now}, "stream changed"},
		{model.Change{Transition: model.Regressed, Content: model.StreamChanged, Base: both, Head: now,
			Stream: &model.StreamDiff{First: 3, BaseCommands: 12, HeadCommands: 11, Changed: 1, Removed: 1}},
			"stream changed from command 3: 1 changed, 1 removed, 12 → 11 commands"},
		{model.Change{Transition: model.Regressed, Content: model.StreamChanged, Base: both, Head: now,
			Stream: &model.StreamDiff{First: 6, BaseCommands: 9, HeadCommands: 9, Changed: 1}},
			"stream changed from command 6: 1 changed, 9 commands"},
		{model.Change{Transition: model.AddedFailing, Head: both}, ""},
		{model.Change{Transition: model.Removed, Base: both}, ""},
	} {
		if got := ChangeIn(c, &tc.ch); got != tc.want {
			t.Errorf("ChangeIn(%+v) = %q, want %q", tc.ch, got, tc.want)
		}
	}
	if got := ChangeIn(&model.Comparison{}, &model.Change{Transition: model.Regressed, Base: both, Head: now}); got != "" {
		t.Errorf("no schema change: %q", got)
	}
	f := &model.SchemaFailure{Message: "CreateBuffer: missing properties: 'usages'", Path: "fixtures/a.json", Fixtures: 300, All: 336}
	if got, want := SchemaFailureLine(f, func(s string) string { return "«" + s + "»" }),
		"336 fixtures now fail a schema phase, 300 of them with: «CreateBuffer: missing properties: 'usages'» (first: «fixtures/a.json»)"; got != want {
		t.Errorf("SchemaFailureLine = %q, want %q", got, want)
	}
}
