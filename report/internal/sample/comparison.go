package sample

import (
	"sort"

	"github.com/drp2/drp2-fixtures/model"
)

// BaseCommit is the base commit of the sample comparison.
const BaseCommit = "abc1234def5678abc1234def5678abc1234def56"

// Compared returns the sample run compared with a base commit: every
// transition and every content change once, a changed command schema, hostile
// text in a fixture name, and a known failure.
func Compared() *model.Run {
	run := Run()
	for i := range run.Results {
		if run.Results[i].Name == "destroy_twice" {
			run.Results[i].KnownFailure = "renderer#12: " + Hostile
		}
	}
	run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
	side := func(passed bool, code string) *model.Side {
		s := &model.Side{Passed: passed, Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE"}}
		if code == "" {
			s.Actual = model.Actual{Outcome: model.Success}
		} else {
			s.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: code, CommandIndex: intp(9)}
		}
		return s
	}
	pos := func(passed bool) *model.Side {
		s := &model.Side{Passed: passed, Expected: model.Expected{Outcome: "success"}, Actual: model.Actual{Outcome: model.Success}}
		if !passed {
			s.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseCapability, Code: "DRP2_ERR_UNSUPPORTED_CAPABILITY", CommandIndex: intp(6)}
		}
		return s
	}
	expect := func(s *model.Side, code string, index int) *model.Side {
		s.Expected.Code, s.Expected.CommandIndex = code, intp(index)
		return s
	}
	c := &model.Comparison{
		Base: BaseCommit[:7], Commit: BaseCommit,
		// What of the base could not be read, with Markdown in it.
		Notes:                []string{"the base's folder neg_*x* (tree cdcdcdc) is a corrupt git object (zlib: invalid header), so its fixtures count as added"},
		CommandSchemaChanged: true,
		BaseCommandSchema: model.SchemaSource{Source: "schema/drp_command.json", SHA256: "11" + run.CommandSchema.SHA256[2:],
			Closure: "22" + run.CommandSchema.SHA256[2:]},
		BaseFixtureSchema: run.FixtureSchema,
		// Files of the closure that changed, one with Markdown in its name,
		// and the error the change gives the regressed fixture.
		CommandSchemaFiles: []string{"commands/CreateBuffer.json", "common/<b>|*x*`.json"},
		SchemaFailure: &model.SchemaFailure{Message: "CreateBuffer: missing properties: 'usages' <b>|x",
			Path: "fixtures/negative/draw_outside_pass.json", Fixtures: 1, All: 1},
		Changes: []model.Change{
			{RelPath: "negative/draw_outside_pass.json", Path: "fixtures/negative/draw_outside_pass.json", Name: "draw_outside_pass",
				Transition: model.Regressed, Base: side(true, "DRP2_ERR_USAGE"), Head: side(false, "")},
			{RelPath: "positive/texture_upload.json", Path: "fixtures/positive/texture_upload.json", Name: "texture_upload",
				Transition: model.Regressed, Content: model.StreamChanged, Base: pos(true), Head: pos(false)},
			// The file broke: readable on the base, a corpus error now.
			{RelPath: "negative/truncated.json", Path: "fixtures/negative/truncated.json", Name: "truncated",
				Transition: model.Regressed, Content: model.Broken, Base: side(true, "DRP2_ERR_USAGE"),
				Head: &model.Side{Actual: model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope,
					Message: "invalid JSON: unexpected end of input at line 7, column 1"}}},
			// Fixed by moving the expectation to what the validator
			// already said.
			{RelPath: "negative/bind_group_unknown_layout.json", Path: "fixtures/negative/bind_group_unknown_layout.json", Name: "bind_group_unknown_layout",
				Transition: model.Fixed, Content: model.ExpectationChanged, Base: side(false, "DRP2_ERR_INVALID_ID"),
				Head: expect(side(true, "DRP2_ERR_INVALID_ID"), "DRP2_ERR_INVALID_ID", 9)},
			{RelPath: "negative/evil`name].json", Path: "fixtures/negative/evil`name].json", Name: Hostile,
				Transition: model.AddedFailing, Head: side(false, "DRP2_ERR_<b>|x")},
			{RelPath: "positive/minimal_triangle.json", Path: "fixtures/positive/minimal_triangle.json", Name: "minimal_triangle",
				Transition: model.AddedPassing, Head: pos(true)},
			{RelPath: "negative/old_rule.json", Path: "fixtures/negative/old_rule.json", Name: "old_rule",
				Transition: model.Removed, Base: side(true, "DRP2_ERR_USAGE")},
			{RelPath: "negative/destroy_twice.json", Path: "fixtures/negative/destroy_twice.json", Name: "destroy_twice",
				Transition: model.StillFailing, Base: side(false, "DRP2_ERR_INVALID_STATE"), Head: side(false, "DRP2_ERR_INVALID_STATE")},
			{RelPath: "negative_schema/missing_cmd.json", Path: "fixtures/negative_schema/missing_cmd.json", Name: "missing_cmd",
				Transition: model.StillPassing, Content: model.Renamed, From: "negative_schema/no_cmd.json", Base: pos(true), Head: pos(true)},
		},
	}
	run.CommandSchema.Closure = "33" + run.CommandSchema.SHA256[2:]
	// In report order, as the baseline package orders them.
	sort.SliceStable(c.Changes, func(i, j int) bool {
		a, b := &c.Changes[i], &c.Changes[j]
		if a.Transition != b.Transition {
			return a.Transition.Less(b.Transition)
		}
		return a.RelPath < b.RelPath
	})
	run.Comparison = c
	return run
}

// Unavailable returns the sample run with a comparison that could not be
// made (a shallow checkout).
func Unavailable() *model.Run {
	run := Run()
	run.Comparison = &model.Comparison{Unavailable: "no comparison with the base: the base commit abc1234 is not in this checkout, which is probably shallow (object not found). To compare with the base, set `fetch-depth: 2` on actions/checkout for pull requests."}
	return run
}
