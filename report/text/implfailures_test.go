package text

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
)

// runtimeRun is a run of n fixtures the validator passes, sent to one
// implementation that fails all but the first few: one runtime exception
// fails most of them, a wrong code fails every fifth, success where an
// error is due every seventh; three failures are known and sixteen listed
// failures pass. The gate judged it under fail-on never.
func runtimeRun(n int) *model.Run {
	run := &model.Run{CorpusRoot: "spec/drp2/fixtures", Judgement: &model.Judgement{FailOn: "never"}}
	im := model.Implementation{Command: "python3 examples/python/drp2_adapter.py", Name: "python-example", Version: "0.1"}
	for i := range n {
		rel := fmt.Sprintf("negative/case_%05d.json", i)
		f := model.Result{Class: model.ClassNegative, Folder: "negative", Path: "spec/drp2/fixtures/" + rel, RelPath: rel,
			Name: fmt.Sprintf("case_%05d", i), Span: &model.Span{Line: 3, Column: 5},
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: intp(i % 9)}}
		f.Passed = true
		f.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: intp(i % 9)}
		run.Results = append(run.Results, f)
		r := f
		switch {
		case n > 3 && i >= 10 && i < 26:
			// Listed as failing, and passing now.
			r.Listing = &model.Listing{Expect: model.ExpectFail, Entry: fmt.Sprintf("expect.txt:%d", i), Reason: "fixed?"}
		case i < 3 && n > 3:
			// passes
		case i%5 == 0:
			r.Passed, r.Actual.Code = false, "DRP2_ERR_INVALID_ID"
		case i%7 == 0:
			r.Passed, r.Actual = false, model.Actual{Outcome: model.Success}
		default:
			r.Passed, r.Actual = false, model.Actual{Outcome: model.HarnessError,
				Message: fmt.Sprintf("the implementation said: Traceback: TypeError: 'NoneType' object is not subscriptable (line %d)", 40+i%3)}
		}
		switch {
		case n > 3 && i >= 3 && i < 6:
			r.Listing = &model.Listing{Expect: model.ExpectFail, Entry: fmt.Sprintf("expect.txt:%d", i), Reason: "bug 7"}
			r.KnownFailure = "bug 7"
		}
		im.Results = append(im.Results, r)
	}
	im.Summary = model.Summarize(n, im.Results, nil)
	run.Implementations = []model.Implementation{im}
	run.Summary = model.Summarize(n, run.Results, nil)
	return run
}

// TestImplementationFailuresScale: an implementation's failures are
// grouped by cause and capped, at 3 failures as at 50,000; a runtime
// exception is one cause whatever number of fixtures it fails; known
// failures are counted, not listed; the counts add up; and the last line
// states the implementation's result although fail-on never decided
// nothing on it.
func TestImplementationFailuresScale(t *testing.T) {
	for _, n := range []int{3, 420, 50000} {
		run := runtimeRun(n)
		var b bytes.Buffer
		if err := Write(&b, bound.Run(run), Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if lines := strings.Count(out, "\n"); lines > 60 {
			t.Errorf("%d fixtures: %d lines\n%s", n, lines, out)
		}
		if c := strings.Count(out, "TypeError"); c != 1 {
			t.Errorf("%d fixtures: the exception printed %d times", n, c)
		}
		last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
		s := run.Implementations[0].Summary
		want := fmt.Sprintf("implementation python-example 0.1 failed %d of %d fixtures", s.Unexcused(), n)
		if !strings.HasPrefix(last, "DRP2 conformance:") || !strings.Contains(last, want) || !strings.Contains(last, "not failing the run (fail-on never)") {
			t.Errorf("%d fixtures: last line %q, want it to say %q", n, last, want)
		}
		if n > 3 && (strings.Contains(out, "case_00003") || !strings.Contains(out, "failed "+fmt.Sprint(s.Failed)+" ("+fmt.Sprint(s.Unexcused())+" unexpected, 3 known failures), 16 unexpected passes")) {
			t.Errorf("%d fixtures: known failures listed, or the counts do not add up:\n%s", n, out)
		}
		if n < 50000 {
			golden.Check(t, fmt.Sprintf("runtime-%d.txt", n), []byte(out))
		}
	}
}

// TestOneFixtureCounts: one fixture is "1 fixture", and failures all
// known say so.
func TestOneFixtureCounts(t *testing.T) {
	run := runtimeRun(1)
	im := &run.Implementations[0]
	im.Results[0].KnownFailure = "bug 7"
	im.Results[0].Listing = &model.Listing{Expect: model.ExpectFail, Entry: "expect.txt:1", Reason: "bug 7"}
	im.Summary = model.Summarize(1, im.Results, nil)
	out := render(t, run, Options{})
	for _, want := range []string{"passed 0 of 1 fixture, failed 1 (1 known failure),",
		"DRP2 conformance: the 1 fixture passed; implementation python-example 0.1 passed 0 of 1 fixture (and 1 known failure, excused)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func intp(i int) *int { return &i }
