package explain

import (
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
)

// A run that fails while every fixture passed must not open its headline,
// which is also the check run's title, with the passing count: the reason
// it fails comes first, so that the line reads as failing.
func TestHeadlineOfARunFailingOnlyOnFindings(t *testing.T) {
	run := &model.Run{Summary: model.Summary{Discovered: 125, Run: 125, Passed: 125, Findings: 3},
		Judgement: &model.Judgement{Failed: true, Reasons: []model.Reason{{Kind: model.ReasonFindings, Count: 3}}}}
	want := "3 findings fail the run (fail-on findings); all 125 fixtures passed"
	if got := Judgement(run).Headline; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// Failing fixtures still open it: they are what fails the run first.
	run.Summary.Passed, run.Summary.Failed = 124, 1
	run.Judgement.Reasons = append([]model.Reason{{Kind: model.ReasonMismatches, Count: 1, Of: 125}}, run.Judgement.Reasons...)
	want = "1 of 125 fixtures failed (1 mismatch); 3 findings fail the run (fail-on findings)"
	if got := Judgement(run).Headline; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// A passing run with findings names them as a note.
	run = &model.Run{Summary: model.Summary{Discovered: 2, Run: 2, Passed: 2, Findings: 3}, Judgement: &model.Judgement{Findings: 3}}
	if got := Judgement(run).Headline; got != "all 2 fixtures passed; 3 findings" {
		t.Errorf("passing headline %q", got)
	}
}

// The headline's breakdown splits the failures that count: an excused
// mismatch is in neither part, and a corpus error is never excused, even
// when a report read back gives it a reason.
func TestHeadlineBreakdownLeavesExcusedFailuresOut(t *testing.T) {
	mismatch := model.Result{Path: "a.json", Actual: model.Actual{Outcome: model.Outcome("error")}}
	corpusError := model.Result{Path: "b.json", Actual: model.Actual{Outcome: model.CorpusError}}
	for _, tc := range []struct {
		name    string
		results []model.Result
		want    string
	}{
		{"corpus error listed", []model.Result{mismatch, withKnown(corpusError)},
			"2 of 2 fixtures failed (1 mismatch, 1 corpus error)"},
		{"mismatch excused", []model.Result{withKnown(mismatch), corpusError},
			"1 of 2 fixtures failed (0 mismatches, 1 corpus error) (and 1 known failure, excused)"},
		{"both listed, a third fails", []model.Result{withKnown(mismatch), withKnown(corpusError), mismatch},
			"2 of 3 fixtures failed (1 mismatch, 1 corpus error) (and 1 known failure, excused)"},
	} {
		run := &model.Run{Results: tc.results, Judgement: &model.Judgement{Failed: true}}
		run.Summary = model.Summarize(len(tc.results), run.Results, nil)
		if got := Judgement(run).Headline; got != tc.want {
			t.Errorf("%s: headline %q, want %q", tc.name, got, tc.want)
		}
	}
}

func withKnown(r model.Result) model.Result {
	r.KnownFailure = "listed"
	return r
}

// reasonRow is one reason the gate can give, with the run it is given
// for: a kind may have several rows where its words vary (one or many,
// the validator or an implementation, the filters given or none).
type reasonRow struct {
	name   string
	reason model.Reason
	sum    model.Summary
}

// failing is the summary of a run of 3 fixtures of which 1 failed, the
// counts most reasons are given beside.
var failing = model.Summary{Discovered: 3, Run: 3, Passed: 2, Failed: 1}

// reasonRows hold every kind of reason at least once; TestEveryReasonKindHasWords
// fails for a kind with no row.
var reasonRows = []reasonRow{
	{"none ran, empty corpus", model.Reason{Kind: model.ReasonNoneRan, Subject: "fixtures"}, model.Summary{}},
	{"none ran, no filter", model.Reason{Kind: model.ReasonNoneRan, Subject: "fixtures", Of: 4}, model.Summary{Discovered: 4}},
	{"none ran, filters", model.Reason{Kind: model.ReasonNoneRan, Subject: "fixtures", Of: 4, Filters: []model.Filter{
		{Spelling: "--name", Values: []string{"clear"}, Quoted: true}, {Spelling: "--tag", Values: []string{"a", "b"}}}},
		model.Summary{Discovered: 4}},
	{"mismatches", model.Reason{Kind: model.ReasonMismatches, Count: 1, Of: 3}, failing},
	{"mismatches, some excused", model.Reason{Kind: model.ReasonMismatches, Count: 1, Of: 4},
		model.Summary{Discovered: 4, Run: 4, Passed: 1, Failed: 3, KnownFailures: 1, Flaky: 1, FlakyFailed: 1}},
	{"level 3", model.Reason{Kind: model.ReasonLevel3, Readback: 2, Subject: "valid/a.json", Detail: "a, b | c"}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"unusable", model.Reason{Kind: model.ReasonUnusable, Subject: "impl\x01 1.0", Detail: "exec: not found\n"}, failing},
	{"implementation failed", model.Reason{Kind: model.ReasonImplementationFailed, Subject: "impl 1.0", Count: 1, Of: 3}, failing},
	{"no comparison", model.Reason{Kind: model.ReasonNoComparison, Count: 1, Of: 3}, failing},
	{"regressed, one", model.Reason{Kind: model.ReasonRegressed, Count: 1, Subject: "abc123"}, failing},
	{"regressed, many", model.Reason{Kind: model.ReasonRegressed, Count: 2, Subject: "abc123"}, failing},
	{"added failing, one", model.Reason{Kind: model.ReasonAddedFailing, Count: 1, Subject: "abc123"}, failing},
	{"added failing, many", model.Reason{Kind: model.ReasonAddedFailing, Count: 2, Subject: "abc123"}, failing},
	{"implementation regressed", model.Reason{Kind: model.ReasonImplementationRegressed, Subject: "impl 1.0", Count: 1, Detail: "abc123"}, failing},
	{"implementation regressed, new fixtures", model.Reason{Kind: model.ReasonImplementationRegressed, Subject: "impl 1.0", Of: 2, Detail: "abc123"}, failing},
	{"implementation regressed, both", model.Reason{Kind: model.ReasonImplementationRegressed, Subject: "impl 1.0", Count: 2, Of: 1, Detail: "abc123"}, failing},
	{"findings, one", model.Reason{Kind: model.ReasonFindings, Count: 1}, model.Summary{Discovered: 3, Run: 3, Passed: 3, Findings: 1}},
	{"findings, many", model.Reason{Kind: model.ReasonFindings, Count: 3}, model.Summary{Discovered: 3, Run: 3, Passed: 3, Findings: 3}},
	{"freeze broken, one", model.Reason{Kind: model.ReasonFreezeBroken, Subject: "fixtures/manifest.json", Count: 1}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"freeze broken, many", model.Reason{Kind: model.ReasonFreezeBroken, Subject: "fixtures/manifest.json", Count: 2}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"unclean", model.Reason{Kind: model.ReasonUnclean, Subject: "fixtures/manifest.json"}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"incomplete", model.Reason{Kind: model.ReasonIncomplete}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"unexpected passes, validator", model.Reason{Kind: model.ReasonUnexpectedPasses, Subject: model.Validator, Count: 1}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"unexpected passes, implementation", model.Reason{Kind: model.ReasonUnexpectedPasses, Subject: "impl 1.0", Count: 2}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"flaky, validator", model.Reason{Kind: model.ReasonFlaky, Subject: model.Validator, Count: 1}, model.Summary{Discovered: 3, Run: 3, Passed: 3, Flaky: 1}},
	{"flaky, implementation", model.Reason{Kind: model.ReasonFlaky, Subject: "impl 1.0", Count: 2}, model.Summary{Discovered: 3, Run: 3, Passed: 3, Flaky: 2}},
	{"unreported, one", model.Reason{Kind: model.ReasonUnreported, Subject: "impl 1.0", Count: 1, Of: 6}, model.Summary{Discovered: 6, Run: 6, Passed: 6}},
	{"unreported, all", model.Reason{Kind: model.ReasonUnreported, Subject: "impl\x01 1.0", Count: 3, Of: 3}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"required absent", model.Reason{Kind: model.ReasonRequiredAbsent, Subject: "native-runtime"}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"required absent on a device", model.Reason{Kind: model.ReasonRequiredAbsent, Subject: "native-runtime", Detail: "*NVIDIA*"}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"required absent, other devices", model.Reason{Kind: model.ReasonRequiredAbsent, Subject: "native-runtime", Detail: "*NVIDIA*",
		Devices: []string{"Google SwiftShader Device (Subzero)", ""}}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"interrupted", model.Reason{Kind: model.ReasonInterrupted, Subject: "SIGTERM", Count: 1, Of: 3}, model.Summary{Discovered: 3, Run: 3, Passed: 3}},
	{"image exceeded", model.Reason{Kind: model.ReasonImage, Subject: "positive/render_triangle.json", Readback: 0, Implementation: "webgpu 1.0",
		Image: &model.ImageCheck{Verdict: model.ImageExceeded, Exceeded: "max_channel_delta 1 > 0"}}, model.Summary{}},
	{"image missing", model.Reason{Kind: model.ReasonImage, Subject: "positive/render_triangle.json", Readback: 1, Implementation: "webgpu 1.0",
		Image: &model.ImageCheck{Verdict: model.ImageMissing, Backend: "webgpu", PlatformKey: "google-swiftshader"}}, model.Summary{}},
}

// Every reason the gate can give, in its words: the sentence, the few
// words the headline takes, and the headline of a run failed by it alone.
// A change to any reason's words changes testdata/reasons.golden.
func TestReasonWords(t *testing.T) {
	var b strings.Builder
	for _, row := range reasonRows {
		s := row.sum
		long, short := reasonWords(row.reason, &s)
		run := &model.Run{CorpusRoot: "fixtures", Summary: row.sum,
			Judgement: &model.Judgement{Failed: true, Reasons: []model.Reason{row.reason}, FailOn: "mismatch,empty"}}
		j := Judgement(run)
		fmt.Fprintf(&b, "-- %s --\nsentence: %q\nheadline words: %q\nheadline: %q\nreasons: %q\n", row.name, long, short, j.Headline, j.Reasons)
	}
	golden.Check(t, "reasons.golden", []byte(b.String()))
}

// Every kind of reason model declares has a row in reasonRows and words
// of its own, so that a kind added without words, or without a row here,
// fails this test rather than a headline silently missing its reason.
func TestEveryReasonKindHasWords(t *testing.T) {
	rows := map[model.ReasonKind]bool{}
	for _, row := range reasonRows {
		rows[row.reason.Kind] = true
	}
	kinds := reasonKinds(t)
	if len(kinds) == 0 {
		t.Fatal("no ReasonKind constant found in package model")
	}
	for i, name := range kinds {
		k := model.ReasonKind(i + 1)
		if !rows[k] {
			t.Errorf("model.%s has no row in reasonRows: add one, and its words to testdata/reasons.golden", name)
		}
		if long, short := reasonWords(model.Reason{Kind: k, Count: 1, Of: 1, Subject: "x"}, &model.Summary{}); long == "" && short == "" {
			t.Errorf("model.%s has no words in reasonWords", name)
		}
		delete(rows, k)
	}
	for k := range rows {
		t.Errorf("reasonRows has a row of kind %d, which model does not declare", k)
	}
}

// reasonKinds are the names of model's ReasonKind constants in the order
// they are declared, read from its source: the kinds are an iota block
// starting at 1, so the i-th name is kind i+1.
func reasonKinds(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "model", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := gotoken.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			names = append(names, reasonKindBlock(t, decl)...)
		}
	}
	return names
}

// reasonKindBlock are the names a const block declares when it opens
// with "ReasonKind = iota + 1"; nil for any other declaration.
func reasonKindBlock(t *testing.T, decl ast.Decl) []string {
	d, ok := decl.(*ast.GenDecl)
	if !ok || d.Tok != gotoken.CONST || len(d.Specs) == 0 {
		return nil
	}
	first := d.Specs[0].(*ast.ValueSpec)
	if id, ok := first.Type.(*ast.Ident); !ok || id.Name != "ReasonKind" {
		return nil
	}
	if len(first.Values) != 1 || types.ExprString(first.Values[0]) != "iota + 1" {
		t.Fatalf("the ReasonKind constants no longer start at iota + 1: teach reasonKinds their values")
	}
	var names []string
	for _, spec := range d.Specs {
		vs := spec.(*ast.ValueSpec)
		if (len(vs.Values) > 0 && vs != first) || len(vs.Names) != 1 {
			t.Fatalf("the ReasonKind constant %s is not one name of the iota block: teach reasonKinds its value", vs.Names[0].Name)
		}
		names = append(names, vs.Names[0].Name)
	}
	return names
}

// The headline names each list that changed by what it is, and says when
// the base's lists could not be read at all.
func TestKnownAgainstBaseNamesTheList(t *testing.T) {
	for _, tc := range []struct {
		c    *model.Comparison
		want string
	}{
		{&model.Comparison{Base: "abc1234", Known: &model.KnownChange{Added: []string{"rt a.json fail"}, Unexcused: []string{"a.json"},
			Files: []model.ListFile{{Path: "known.txt", Known: true}, {Path: "rt.txt"}}}},
			"the known-failures list known.txt and the expectations file rt.txt changed against base abc1234 (1 added, 0 removed): 1 failure no entry of the base excuses counts"},
		{&model.Comparison{Unavailable: "no comparison with the base: shallow", Known: &model.KnownChange{Unknown: true, Unexcused: []string{"a.json", "b.json"}}},
			"the expectations of the base cannot be read: 2 failures no entry of the base excuses count"},
		{&model.Comparison{Base: "abc1234", Known: &model.KnownChange{}}, ""},
	} {
		if got := KnownAgainstBase(tc.c); got != tc.want {
			t.Errorf("got %q\nwant %q", got, tc.want)
		}
	}
}
