package sample

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// LongestName is the longest fixture path of the DRP2 corpus: one failure
// of it is what pushed a comment's table past the column.
const LongestName = "negative/invalid_destroy_bind_group_layout_still_referenced_by_submitted_work.json"

// SchemaEdit returns a run of a pull request that edits the command
// schema, compared with its base, as a real corpus fails: with 400 it is
// one schema edit failing 336 fixtures of every class (each at its own
// command, each negative expecting its own code), a validator rule gone
// that 57 negatives still fail as on the base, a file the change broke,
// and a few failures of their own; 120 fixtures pass. With 3 it is one
// fixture of each of the first three, the schema edit's being the
// corpus's longest name.
func SchemaEdit(failing int) *model.Run {
	edit, gone := 1, 1
	if failing >= 400 {
		edit, gone = 336, 57
	}
	var results []model.Result
	for i := 0; i < edit; i++ {
		results = append(results, editFailure(i))
	}
	for i := 0; i < gone; i++ {
		results = append(results, ruleGone(i))
	}
	results = append(results, model.Result{Path: "fixtures/negative/invalid_copy_truncated.json", RelPath: "negative/invalid_copy_truncated.json",
		Folder: "negative", Actual: model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope,
			Message: "invalid JSON: unexpected end of input at line 31, column 1"}, Span: &model.Span{Line: 31, Column: 1, EndLine: 31, EndColumn: 1}})
	for i := len(results); i < failing; i++ {
		results = append(results, ownFailure(i))
	}
	for i := 0; i < 120; i++ {
		r := fixture("positive", fmt.Sprintf("draw_indexed_basic_%03d", i))
		r.Expected, r.Actual, r.Passed = model.Expected{Outcome: "success"}, model.Actual{Outcome: model.Success}, true
		results = append(results, r)
	}
	run := newRun(results, nil, 2*time.Second)
	run.ToolVersion = "v1.4.0"
	run.Comparison = schemaEditComparison(run)
	return run
}

// editCodes are the codes the negatives failed by the schema edit expect.
var editCodes = []string{"DRP2_ERR_USAGE", "DRP2_ERR_INVALID_STATE", "DRP2_ERR_LAYOUT", "DRP2_ERR_OUT_OF_RANGE",
	"DRP2_ERR_INVALID_ID", "DRP2_ERR_INVALID_ARGUMENT", "DRP2_ERR_DUPLICATE_ID"}

// editFailure is a fixture the schema edit fails: its CreateBuffer's size
// is no longer valid, at whichever command it creates its buffer.
func editFailure(i int) model.Result {
	at, size := 2+i%5, 16<<(i%3)
	var r model.Result
	switch {
	case i == 0:
		r = fixture("negative", LongestName[len("negative/"):len(LongestName)-len(".json")])
	case i%6 == 1:
		r = fixture("positive", fmt.Sprintf("copy_buffer_to_texture_rows_%03d", i))
	case i%6 == 2:
		r = fixture("negative_schema", fmt.Sprintf("create_texture_view_unknown_field_%03d", i))
	default:
		r = fixture("negative", fmt.Sprintf("invalid_copy_texture_to_buffer_bad_rows_per_image_%03d", i))
	}
	switch r.Class {
	case model.ClassPositive:
		r.Expected = model.Expected{Outcome: "success"}
	case model.ClassSchemaNegative:
		r.Expected = model.Expected{Outcome: "error", Phase: "schema_validation", Code: "DRP2_ERR_INVALID_ARGUMENT", CommandIndex: intp(at + 3)}
	default:
		r.Expected = model.Expected{Outcome: "error", Phase: "semantic_validation", Code: editCodes[i%len(editCodes)], CommandIndex: intp(at + 4)}
	}
	r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_INVALID_ARGUMENT", CommandIndex: intp(at),
		Message: fmt.Sprintf("command %d: CreateBuffer: /size: %d not multipleOf 256", at, size)}
	r.Span = &model.Span{Line: 30 + 7*at, Column: 15, EndLine: 30 + 7*at, EndColumn: 40}
	return r
}

// ruleGone is a negative the validator no longer fails: it says nothing,
// and each expected the same error at its own command.
func ruleGone(i int) model.Result {
	r := fixture("negative", fmt.Sprintf("invalid_destroy_buffer_still_referenced_by_recorded_work_%02d", i))
	r.Expected = model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(7 + i%9)}
	r.Actual = model.Actual{Outcome: model.Success}
	r.Span = &model.Span{Line: 72 + i%9, Column: 15, EndLine: 72 + i%9, EndColumn: 40}
	return r
}

// ownFailure is a failure of its own cause: a capability the validator
// does not know, each by its own name.
func ownFailure(i int) model.Result {
	r := fixture("positive", fmt.Sprintf("texture_format_feature_%03d", i))
	r.Expected = model.Expected{Outcome: "success"}
	r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseCapability, Code: "DRP2_ERR_UNSUPPORTED_CAPABILITY", CommandIndex: intp(1),
		Message: fmt.Sprintf("CreateTexture: format needs capability feature_%c", 'a'+rune(i%26)), Rule: fmt.Sprintf("CAPABILITIES.md rule %d", i)}
	r.Span = &model.Span{Line: 12, Column: 9, EndLine: 12, EndColumn: 30}
	return r
}

// fixture is a fixture of folder named name, of the folder's class.
func fixture(folder, name string) model.Result {
	class := map[string]model.Class{"positive": model.ClassPositive, "negative": model.ClassNegative,
		"negative_schema": model.ClassSchemaNegative}[folder]
	rel := folder + "/" + name + ".json"
	return model.Result{Path: "fixtures/" + rel, RelPath: rel, Folder: folder, Name: name, Class: class, Duration: time.Millisecond}
}

// schemaEditComparison compares the run with its base: the schema edit's
// failures and the broken file regressed, the rule gone failed on the base
// too, the failures of their own were added.
func schemaEditComparison(run *model.Run) *model.Comparison {
	c := &model.Comparison{Base: BaseCommit[:7], Commit: BaseCommit, CommandSchemaChanged: true,
		BaseCommandSchema: model.SchemaSource{Source: "embedded", SHA256: "11" + run.CommandSchema.SHA256[2:]}, BaseFixtureSchema: run.FixtureSchema}
	for _, r := range run.Results {
		ch := model.Change{RelPath: r.RelPath, Path: r.Path, Name: r.Name,
			Head: &model.Side{Passed: r.Passed, Expected: r.Expected, Actual: r.Actual}}
		passed := &model.Side{Passed: true, Expected: r.Expected, Actual: model.Actual{Outcome: model.Outcome(r.Expected.Outcome),
			Phase: model.Phase(r.Expected.Phase), Code: r.Expected.Code, CommandIndex: r.Expected.CommandIndex}}
		switch {
		case r.Passed:
			ch.Transition, ch.Base = model.StillPassing, passed
		case r.IsCorpusError():
			ch.Transition, ch.Content, ch.Base = model.Regressed, model.Broken, &model.Side{Passed: true, Expected: model.Expected{Outcome: "success"},
				Actual: model.Actual{Outcome: model.Success}}
		case r.Actual.Phase == model.PhaseSchema:
			ch.Transition, ch.Base = model.Regressed, passed
		case r.Actual.Outcome == model.Success:
			ch.Transition, ch.Base = model.StillFailing, ch.Head
		default:
			ch.Transition, ch.Head.Passed = model.AddedFailing, false
		}
		if ch.Transition != model.StillPassing {
			c.Changes = append(c.Changes, ch)
		}
	}
	sort.SliceStable(c.Changes, func(i, j int) bool {
		a, b := &c.Changes[i], &c.Changes[j]
		if a.Transition != b.Transition {
			return a.Transition.Less(b.Transition)
		}
		return a.RelPath < b.RelPath
	})
	schemaEditFailure(run, c)
	return c
}

// schemaEditFailure says, as the baseline's comparison would, which file
// of the command schema's closure the edit changed and which schema error
// the most fixtures now fail with (the command's index left out).
func schemaEditFailure(run *model.Run, c *model.Comparison) {
	run.CommandSchema.Closure = "44" + run.CommandSchema.SHA256[2:]
	c.BaseCommandSchema.Closure = "55" + run.CommandSchema.SHA256[2:]
	c.CommandSchemaFiles = []string{"commands/CreateBuffer.json"}
	count, first := map[string]int{}, map[string]string{}
	f := &model.SchemaFailure{}
	for _, r := range run.Results {
		if r.Actual.Phase != model.PhaseSchema || r.Passed {
			continue
		}
		_, msg, _ := strings.Cut(r.Actual.Message, ": ")
		if count[msg]++; first[msg] == "" {
			first[msg] = r.Path
		}
		f.All++
	}
	for msg, n := range count {
		if n > f.Fixtures || n == f.Fixtures && first[msg] < f.Path {
			f.Message, f.Path, f.Fixtures = msg, first[msg], n
		}
	}
	c.SchemaFailure = f
}

// RuntimeFailures returns SchemaEdit(400) run through two implementations
// by the runtime harness: a WebGPU runtime that passes every fixture but
// the 57 negatives whose rule it does not check either, failing each with
// its own object's label in the message, and one that could not be
// started.
func RuntimeFailures() *model.Run {
	run := SchemaEdit(400)
	run.Comparison = nil
	webgpu := model.Implementation{Command: "node adapters/webgpu/host.js --runtime webgpu.js", Name: "webgpu.js", Version: "sha256:612b5aac828a",
		DRP2Versions: []string{"2.0"}, Protocol: 2}
	broken := model.Implementation{Command: "./no-such-runtime", Error: "fork/exec ./no-such-runtime: no such file or directory"}
	for _, f := range run.Results {
		if f.IsCorpusError() {
			continue
		}
		r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class, Expected: f.Expected, Span: f.Span,
			Passed: true, Actual: model.Actual{Outcome: model.Outcome(f.Expected.Outcome), Phase: model.Phase(f.Expected.Phase),
				Code: f.Expected.Code, CommandIndex: f.Expected.CommandIndex}}
		if f.Actual.Outcome == model.Success && !f.Passed {
			r.Passed = false
			r.Actual = model.Actual{Outcome: model.Error, Code: "DRP2_ERR_INTERNAL",
				Message: fmt.Sprintf("phase not reported; validation: [Buffer \"b%d\"] used in submit while destroyed", len(webgpu.Results))}
		}
		webgpu.Results = append(webgpu.Results, r)
		broken.Results = append(broken.Results, model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class,
			Expected: f.Expected, Actual: model.Actual{Outcome: model.HarnessError, Message: "not run: the implementation could not be started: " + broken.Error}})
	}
	run.Implementations = []model.Implementation{webgpu, broken}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		im.Summary = model.Summarize(run.Summary.Discovered, im.Results, nil)
	}
	return run
}
