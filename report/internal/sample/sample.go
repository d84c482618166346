// Package sample builds the one set of results every reporter's golden
// tests render: each class passing and failing, a corpus error, findings,
// hostile text in every untrusted field, and a generator for very large
// runs that exercise the size caps.
package sample

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// Hostile is text that tries to escape every sink at once: HTML, Markdown
// structure, mentions, links, code spans, workflow commands, line breaks,
// control characters and invalid UTF-8.
const Hostile = "</details><script>alert(1)</script> @someone [x](http://x) `tick` %0A::error::boom\r\nnext\x00\x1b[31m\xff"

// Started is the fixed start time of the sample runs.
var Started = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

func intp(i int) *int { return &i }

// Run returns the shared sample run. Each call returns a fresh value.
func Run() *model.Run {
	results := slices.Concat(negatives(), positives(), schemaNegatives(), brokenAndHostile())
	findings := sampleFindings()
	run := newRun(results, findings, 42*time.Millisecond)
	run.ToolVersion = "v1.2.3"
	run.CommandSchema.Source = "fixtures/schema/drp2-command.schema.json"
	return run
}

// newRun is a summarized run of results and findings in the corpus
// "fixtures", with the embedded schemas, started at Started.
func newRun(results []model.Result, findings []model.Finding, d time.Duration) *model.Run {
	run := &model.Run{
		CorpusRoot:    "fixtures",
		CommandSchema: model.SchemaSource{Source: "embedded", SHA256: strings.Repeat("ab", 32)},
		FixtureSchema: model.SchemaSource{Source: "embedded", SHA256: strings.Repeat("cd", 32)},
		Started:       Started,
		Duration:      d,
		Results:       results,
		Findings:      findings,
	}
	run.Summary = model.Summarize(len(results), results, findings)
	return run
}

// negatives are negative fixtures: one passing, two failing.
func negatives() []model.Result {
	return []model.Result{
		{
			Path: "fixtures/negative/bind_group_unknown_layout.json", RelPath: "negative/bind_group_unknown_layout.json",
			Folder: "negative", Name: "bind_group_unknown_layout", Class: model.ClassNegative,
			Tags:        []string{"negative", "bind_group"},
			Description: "CreateBindGroup names a layout that was never created.",
			Reason:      "A bind group can only refer to a live layout.",
			Fix:         "Create the layout first, or use its id.",
			Expected:    model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INVALID_ID", CommandIndex: intp(3)},
			Actual:      model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_ID", CommandIndex: intp(3), Message: "layout 14 is not live"},
			Passed:      true,
			Duration:    1200 * time.Microsecond,
		},
		{
			Path: "fixtures/negative/draw_outside_pass.json", RelPath: "negative/draw_outside_pass.json",
			Folder: "negative", Name: "draw_outside_pass", Class: model.ClassNegative,
			Tags:        []string{"negative", "render_pass"},
			Description: "Draw is issued with no render pass open.",
			Reason:      "Draw commands are only valid inside a render pass.",
			Fix:         "Open a render pass before the draw.",
			Expected:    model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(9)},
			Actual:      model.Actual{Outcome: model.Success},
			Span:        &model.Span{Line: 61, Column: 5, EndLine: 66, EndColumn: 6},
			Duration:    2500 * time.Microsecond,
		},
		{
			Path: "fixtures/negative/destroy_twice.json", RelPath: "negative/destroy_twice.json",
			Folder: "negative", Name: "destroy_twice", Class: model.ClassNegative,
			Reason:   "A destroyed id is no longer live.",
			Fix:      "Destroy each object once.",
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INVALID_ID", CommandIndex: intp(4)},
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_STATE", CommandIndex: intp(4),
				Message: "DestroyBuffer: buffer_id 12 names no live object (LIFETIMES.md Destruction rule 2)", Rule: "LIFETIMES.md Destruction rule 2"},
			Span:        &model.Span{Line: 40, Column: 7, EndLine: 40, EndColumn: 19},
			Duration:    900 * time.Microsecond,
			Diagnostics: []model.Diagnostic{{Source: "lifetime", Message: "buffer 12 destroyed at command 3"}},
		},
	}
}

// positives are positive fixtures: one passing, one failing.
func positives() []model.Result {
	return []model.Result{
		{
			Path: "fixtures/positive/minimal_triangle.json", RelPath: "positive/minimal_triangle.json",
			Folder: "positive", Name: "minimal_triangle", Class: model.ClassPositive,
			Expected: model.Expected{Outcome: "success"},
			Actual:   model.Actual{Outcome: model.Success},
			Passed:   true,
			Duration: 3 * time.Millisecond,
		},
		{
			Path: "fixtures/positive/texture_upload.json", RelPath: "positive/texture_upload.json",
			Folder: "positive", Name: "texture_upload", Class: model.ClassPositive,
			Reason:   "Uploading a full mip level is valid.",
			Expected: model.Expected{Outcome: "success"},
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseCapability, Code: "DRP2_ERR_UNSUPPORTED_CAPABILITY", CommandIndex: intp(6),
				Message: "format rgba16float needs capability float16_textures"},
			Span:     &model.Span{Line: 88, Column: 9, EndLine: 88, EndColumn: 31},
			Duration: 4 * time.Millisecond,
		},
	}
}

// schemaNegatives are schema-negative fixtures: one passing, one failing.
func schemaNegatives() []model.Result {
	return []model.Result{
		{
			Path: "fixtures/negative_schema/missing_cmd.json", RelPath: "negative_schema/missing_cmd.json",
			Folder: "negative_schema", Name: "missing_cmd", Class: model.ClassSchemaNegative,
			Reason:   "Every command needs a cmd field.",
			Expected: model.Expected{Outcome: "error", Phase: "schema_validation", Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(1)},
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(1),
				Message: "missing property cmd"},
			Passed:   true,
			Duration: 700 * time.Microsecond,
		},
		{
			Path: "fixtures/negative_schema/legacy_type_field.json", RelPath: "negative_schema/legacy_type_field.json",
			Folder: "negative_schema", Name: "legacy_type_field", Class: model.ClassSchemaNegative,
			Reason:   "The legacy type field was replaced by cmd.",
			Fix:      "Rename type to cmd.",
			Expected: model.Expected{Outcome: "error", Phase: "schema_validation", Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(2)},
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(0),
				Message: "additional property type is not allowed"},
			Span:     &model.Span{Line: 12, Column: 5, EndLine: 18, EndColumn: 6},
			Duration: 600 * time.Microsecond,
		},
	}
}

// brokenAndHostile are a corpus error and a fixture with hostile text
// in every field.
func brokenAndHostile() []model.Result {
	return []model.Result{
		{
			// A corpus-authoring error: the envelope is unusable, so the
			// fixture has no class and no DRP result.
			Path: "fixtures/negative/truncated.json", RelPath: "negative/truncated.json",
			Folder: "negative", Name: "", Class: model.ClassUnknown,
			Actual: model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope,
				Message: "invalid JSON: unexpected end of input at line 7, column 1"},
			Span:     &model.Span{Line: 7, Column: 1, EndLine: 7, EndColumn: 1},
			Duration: 100 * time.Microsecond,
		},
		{
			// Hostile text in every field a fixture controls.
			Path: "fixtures/negative/" + "evil`name].json", RelPath: "negative/evil`name].json",
			Folder: "negative", Name: Hostile, Class: model.ClassNegative,
			Tags:        []string{Hostile},
			Description: Hostile,
			Reason:      Hostile + "\n" + strings.Repeat("very long reason ", 300),
			Fix:         "<img src=x onerror=alert(1)> ```\n::warning::x\n``` ~~~",
			Expected:    model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_<b>|x", CommandIndex: intp(2)},
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: intp(2),
				Message: Hostile},
			Span:     nil, // unknown position: reporters fall back to line 1
			Duration: 1500 * time.Microsecond,
		},
	}
}

// sampleFindings are one finding of each kind the reporters show, one of
// them hostile.
func sampleFindings() []model.Finding {
	return []model.Finding{
		{Kind: model.FindingFolderClass, Path: "fixtures/positive/should_fail.json",
			Message: "expected block says negative, folder says positive"},
		{Kind: model.FindingDuplicateName, Path: "fixtures/negative/draw_outside_pass_copy.json",
			Message: "name draw_outside_pass is also used by fixtures/negative/draw_outside_pass.json"},
		{Kind: model.FindingNameStem, Path: "fixtures/negative/evil`name].json",
			Message: "name " + Hostile + " differs from file name"},
	}
}

// Passing returns a run in which every fixture passed: the short report.
func Passing() *model.Run {
	full := Run()
	var results []model.Result
	for _, r := range full.Results {
		if r.Passed {
			results = append(results, r)
		}
	}
	run := newRun(results, nil, 5*time.Millisecond)
	run.CommandSchema = full.CommandSchema
	return run
}

// Large returns a run of n failing fixtures spread over all three classes,
// with long reasons and hostile text, plus n/10 findings: more than any
// size cap allows. The positive fixtures fail by 97 rules, the negative
// ones all alike, the schema negatives all alike.
func Large(n int) *model.Run {
	results := make([]model.Result, 0, n)
	for i := 0; i < n; i++ {
		r := model.Result{
			Reason:   fmt.Sprintf("reason %d: %s %s", i, Hostile, strings.Repeat("lorem ipsum ", 20)),
			Fix:      fmt.Sprintf("fix %d: %s", i, strings.Repeat("dolor sit amet ", 10)),
			Duration: time.Duration(i%7+1) * time.Millisecond,
			Span:     &model.Span{Line: i%90 + 10, Column: 5, EndLine: i%90 + 14, EndColumn: 6},
		}
		switch i % 3 {
		case 0:
			r.Class, r.Folder = model.ClassPositive, "positive"
			r.Expected = model.Expected{Outcome: "success"}
			// Many causes: one group per rule, a few fixtures each.
			r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_STATE", CommandIndex: intp(i % 13),
				Message: Hostile, Rule: fmt.Sprintf("LIFETIMES.md Section %d rule %d", i%97, i%5+1)}
		case 1:
			r.Class, r.Folder = model.ClassNegative, "negative"
			r.Expected = model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(i % 11)}
			r.Actual = model.Actual{Outcome: model.Success}
		default:
			r.Class, r.Folder = model.ClassSchemaNegative, "negative_schema"
			r.Expected = model.Expected{Outcome: "error", Phase: "schema_validation", Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(1)}
			r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(2), Message: "wrong command"}
		}
		r.Name = fmt.Sprintf("fixture_%05d_%s", i, "@someone")
		r.RelPath = fmt.Sprintf("%s/fixture_%05d.json", r.Folder, i)
		r.Path = "fixtures/" + r.RelPath
		results = append(results, r)
	}
	var findings []model.Finding
	for i := 0; i < n/10; i++ {
		findings = append(findings, model.Finding{Kind: model.FindingNameStem,
			Path: fmt.Sprintf("fixtures/negative/fixture_%05d.json", i), Message: "name differs: " + Hostile})
	}
	return newRun(results, findings, time.Duration(n)*time.Millisecond)
}

// HugeBytes is the size of each oversized value in Huge.
const HugeBytes = 3 << 20

// Huge returns a run whose fixture-controlled values are each HugeBytes
// long: the name, the file name, the expected code, the reason and fix, a
// message listing a hundred thousand unknown keys (as a schema error
// would), a diagnostic and a finding. No sink may echo them whole.
func Huge() *model.Run {
	long := strings.Repeat("n", HugeBytes)
	var keys strings.Builder
	keys.WriteString("additional properties ")
	for i := 0; keys.Len() < HugeBytes; i++ {
		fmt.Fprintf(&keys, "'k%d', ", i)
	}
	keys.WriteString("not allowed")
	results := []model.Result{{
		Path: "fixtures/negative/" + long + ".json", RelPath: "negative/" + long + ".json",
		Folder: "negative", Name: long, Class: model.ClassNegative,
		Tags:        []string{long},
		Description: long, Reason: long, Fix: long,
		Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: long, CommandIndex: intp(1)},
		Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(0),
			Message: keys.String()},
		Span:        &model.Span{Line: 3, Column: 5, EndLine: 3, EndColumn: 9},
		Diagnostics: []model.Diagnostic{{Source: long, Message: long}},
	}}
	findings := []model.Finding{{Kind: model.FindingNameStem, Path: "fixtures/negative/" + long + ".json", Message: "name " + long}}
	return newRun(results, findings, 0)
}
