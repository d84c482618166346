package explain

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestGolden shows the headline and detail of every sample result.
func TestGolden(t *testing.T) {
	var b strings.Builder
	run := sample.Run()
	for i := range run.Results {
		b.WriteString("=== " + Location(&run.Results[i]) + "\n" + Detail(&run.Results[i]) + "\n\n")
	}
	golden.Check(t, "detail.golden", []byte(b.String()))
}

func intp(i int) *int { return &i }

func TestHeadline(t *testing.T) {
	tests := []struct {
		name string
		r    model.Result
		want string
	}{
		{"negative got success", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(9)},
			Actual:   model.Actual{Outcome: model.Success}},
			"expected semantic_validation DRP2_ERR_USAGE at command 9, got success"},
		{"negative got other error", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(9)},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_STATE", CommandIndex: intp(4)}},
			"expected semantic_validation DRP2_ERR_USAGE at command 9, got semantic_validation DRP2_ERR_INVALID_STATE at command 4"},
		{"no command index", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "capability_validation", Code: "DRP2_ERR_FEATURE_REQUIRED"},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA"}},
			"expected capability_validation DRP2_ERR_FEATURE_REQUIRED, got schema_validation DRP2_ERR_SCHEMA"},
		{"positive", model.Result{
			Expected: model.Expected{Outcome: "success"},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(0)}},
			"expected success, got schema_validation DRP2_ERR_SCHEMA at command 0"},
		{"corpus error", model.Result{
			Actual: model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope, Message: "invalid JSON:\nunexpected end"}},
			"corpus error: invalid JSON: unexpected end"},
		{"odd outcome", model.Result{
			Expected: model.Expected{Outcome: "maybe"},
			Actual:   model.Actual{Outcome: model.Success}},
			`expected outcome "maybe", got success`},
		{"passed", model.Result{Passed: true}, "passed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Headline(&tt.r); got != tt.want {
				t.Errorf("Headline = %q\nwant       %q", got, tt.want)
			}
		})
	}
}

func TestFields(t *testing.T) {
	r := model.Result{
		Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE"},
		Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: intp(3)},
	}
	got := Fields(&r)
	want := []Field{
		{"outcome", "error", "error", true, false},
		{"phase", "semantic_validation", "semantic_validation", true, false},
		{"code", "DRP2_ERR_USAGE", "DRP2_ERR_USAGE", true, false},
		{"command_index", Absent, "3", false, false},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d fields, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	r.Expected.CommandIndex = intp(2)
	if f := Fields(&r)[3]; !f.Differs || !f.Compared {
		t.Errorf("command_index 2 vs 3 = %+v, want a compared difference", f)
	}
	r.Expected.CommandIndex, r.Expected.BigCommandIndex = intp(maxInt), "10000000000000000000"
	if f := Fields(&r)[3]; f.Expected != "10000000000000000000" || !f.Differs {
		t.Errorf("command_index 1e19 vs 3 = %+v, want the expected index as the fixture gives it", f)
	}
}

const maxInt = int(^uint(0) >> 1)

func TestDetailKeepsUntrustedLinesIndented(t *testing.T) {
	r := sample.Run().Results[8]
	d := Detail(&r)
	for _, l := range strings.Split(d, "\n")[1:] {
		if strings.HasPrefix(l, "next") {
			t.Fatalf("a line break in untrusted text starts a line of its own:\n%s", d)
		}
	}
	for _, want := range []string{"fixture: ", "path: fixtures/negative/evil`name].json", "reason: ", "fix: ", "code            DRP2_ERR_<b>|x"} {
		if !strings.Contains(d, want) {
			t.Errorf("Detail lacks %q:\n%s", want, d)
		}
	}
}

func TestLocationAndName(t *testing.T) {
	r := model.Result{Path: `fixtures\negative\x.json`, RelPath: "negative/x.json", Span: &model.Span{Line: 4, Column: 2}}
	if got := Location(&r); got != "fixtures/negative/x.json:4:2" {
		t.Errorf("Location = %q", got)
	}
	if got := Name(&r); got != "x.json" {
		t.Errorf("Name without a name = %q, want the file name", got)
	}
}

func TestDifferences(t *testing.T) {
	tests := []struct {
		name string
		r    model.Result
		want []string
	}{
		{"code and index", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INVALID_ID", CommandIndex: intp(4)},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_STATE", CommandIndex: intp(3)}},
			[]string{"expected DRP2_ERR_INVALID_ID, got DRP2_ERR_INVALID_STATE", "expected command 4, got command 3"}},
		{"phase", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "capability_validation", Code: "DRP2_ERR_SCHEMA"},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(1)}},
			[]string{"expected capability_validation, got schema_validation"}},
		{"index missing", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "schema_validation", Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(2)},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA"}},
			[]string{"expected command 2, got no command"}},
		{"outcome", model.Result{
			Expected: model.Expected{Outcome: "success"},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_SCHEMA", CommandIndex: intp(0)}},
			[]string{"expected success, got schema_validation DRP2_ERR_SCHEMA at command 0"}},
		{"corpus error", model.Result{Actual: model.Actual{Outcome: model.CorpusError, Message: "bad"}}, []string{"corpus error"}},
		{"passed", model.Result{Passed: true}, nil},
		// An index too large for an int is named as the fixture gives it.
		{"huge index", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(maxInt), BigCommandIndex: "10000000000000000000"},
			Actual:   model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: intp(3)}},
			[]string{"expected command 10000000000000000000, got command 3"}},
		{"huge index, other outcome", model.Result{
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(maxInt), BigCommandIndex: "10000000000000000000"},
			Actual:   model.Actual{Outcome: model.Success}},
			[]string{"expected semantic_validation DRP2_ERR_USAGE at command 10000000000000000000, got success"}},
	}
	for _, tt := range tests {
		if got := Differences(&tt.r); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: Differences = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestShownName(t *testing.T) {
	for _, c := range []struct{ name, path, want string }{
		{"destroy_twice", "fixtures/negative/destroy_twice.json", ""},
		{"", "fixtures/negative/truncated.json", ""},
		{"Destroy twice", "fixtures/negative/destroy_twice.json", "Destroy twice"},
		{"x.json", "a/x.json", ""},
	} {
		r := model.Result{Name: c.name, Path: c.path}
		if got := ShownName(&r); got != c.want {
			t.Errorf("ShownName(%q at %s) = %q, want %q", c.name, c.path, got, c.want)
		}
	}
}

func TestVerdictAndBreakdown(t *testing.T) {
	s := sample.Run().Summary
	if got := Verdict(&s) + ": " + Breakdown(&s); got != "6 of 9 fixtures failed: 5 mismatches, 1 corpus error" {
		t.Errorf("verdict = %q", got)
	}
	p := sample.Passing().Summary
	if got := Verdict(&p); got != "all 3 fixtures passed" || Breakdown(&p) != "" {
		t.Errorf("passing verdict = %q, breakdown %q", got, Breakdown(&p))
	}
	if got := Verdict(&model.Summary{}); got != "no fixtures run" {
		t.Errorf("empty verdict = %q", got)
	}
}

func TestWhy(t *testing.T) {
	r := model.Result{Actual: model.Actual{Message: "WriteBuffer: buffer_id 1\nnames no object", Rule: "COMMANDS.md WriteBuffer rule 2"}}
	if got := Why(&r); got != "WriteBuffer: buffer_id 1 names no object (COMMANDS.md WriteBuffer rule 2)" {
		t.Errorf("Why = %q", got)
	}
	// The validator ends its messages with the rule; it is said once.
	r.Actual.Message = "WriteBuffer: buffer_id 1 names no object (COMMANDS.md WriteBuffer rule 2)"
	if got := Why(&r); got != "WriteBuffer: buffer_id 1 names no object (COMMANDS.md WriteBuffer rule 2)" {
		t.Errorf("Why of a message ending with its rule = %q", got)
	}
	if got := Message(&r); got != "WriteBuffer: buffer_id 1 names no object" {
		t.Errorf("Message = %q", got)
	}
	r.Actual.Message = ""
	if got := Why(&r); got != "COMMANDS.md WriteBuffer rule 2" {
		t.Errorf("Why without a message = %q", got)
	}
}
