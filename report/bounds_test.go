package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// failingRun is a run of passing fixtures and failing ones, each failure
// with a long message, a rule, a span and a diagnostic: the detail a cap
// leaves out.
func failingRun(failing, passing int) *model.Run {
	run := &model.Run{CorpusRoot: "fixtures", ToolVersion: "v1.2.3"}
	long := strings.Repeat("the buffer was never created; ", 50)
	for i := range failing {
		r := model.Result{Class: model.ClassNegative, Folder: "negative",
			Path: fmt.Sprintf("fixtures/negative/wrong_%05d.json", i), RelPath: fmt.Sprintf("negative/wrong_%05d.json", i),
			Name: fmt.Sprintf("wrong_%05d", i), Span: &model.Span{Line: 9, Column: 5, EndLine: 9, EndColumn: 20},
			Expected:    model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INTERNAL"},
			Actual:      model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_ID", Message: "WriteBuffer: " + long, Rule: "ERRORS.md Identity rule 1"},
			Diagnostics: []model.Diagnostic{{Source: "validator", Message: long}},
			Digest:      model.Digest{File: fmt.Sprintf("%064d", i)},
		}
		if i == 1 {
			r.Class, r.Actual = model.ClassUnknown, model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope, Message: "invalid JSON"}
		}
		run.Results = append(run.Results, r)
	}
	for i := range passing {
		run.Results = append(run.Results, model.Result{Class: model.ClassPositive, Folder: "positive", Passed: true,
			Path: fmt.Sprintf("fixtures/positive/ok_%05d.json", i), RelPath: fmt.Sprintf("positive/ok_%05d.json", i),
			Name: fmt.Sprintf("ok_%05d", i), Expected: model.Expected{Outcome: "success"}, Actual: model.Actual{Outcome: model.Success}})
	}
	run.Summary = model.Summarize(len(run.Results), run.Results, nil)
	return run
}

// renderAll renders run in every format a run is reported in.
func renderAll(t *testing.T, run *model.Run) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"text", "json", "junit", "markdown"} {
		var b bytes.Buffer
		o := RenderOptions{}
		if f == "text" {
			o = LogOptions(func(string) string { return "" })
			o.Text.Color = false
		}
		if err := Lookup(f).WriteRun(&b, run, o); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = b.String()
	}
	return out
}

// TestCappedGolden: with 4 failures in full (bound.RunTo, as the gate
// bounds 1,000), the other 8 keep their verdicts in every report,
// which says how many it left out; the counts are the whole run's.
func TestCappedGolden(t *testing.T) {
	run := bound.RunTo(failingRun(12, 3), 4)
	for f, text := range renderAll(t, run) {
		golden.Check(t, "capped."+map[string]string{"text": "txt", "json": "json", "junit": "xml", "markdown": "md"}[f], []byte(text))
	}
}

// TestCappedTotals: the text report, the JSON report, JUnit and the
// Markdown say the same totals of a capped run, the run's own.
func TestCappedTotals(t *testing.T) {
	run := bound.RunTo(failingRun(12, 3), 4)
	out := renderAll(t, run)
	want := [4]int{15, 15, 3, 12} // discovered, run, passed, failed

	back, err := jsonout.ReadReport([]byte(out["json"]))
	if err != nil {
		t.Fatal(err)
	}
	s := back.Summary
	if got := [4]int{s.Discovered, s.Run, s.Passed, s.Failed}; got != want {
		t.Errorf("JSON report read back: %v, want %v", got, want)
	}
	left := 0
	for i := range back.Results {
		if back.Results[i].DetailLeftOut {
			left++
		}
	}
	if n := left; n != 8 || !strings.Contains(out["json"], `"detail_left_out": 8`) {
		t.Errorf("JSON report: %d records without detail read back, want 8", n)
	}

	m := regexp.MustCompile(`Summary: discovered (\d+), run (\d+), passed (\d+), failed (\d+)`).FindStringSubmatch(out["text"])
	if got := atoi4(m); got != want {
		t.Errorf("text report: %v, want %v", got, want)
	}
	m = regexp.MustCompile(`\| \*\*All\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|`).FindStringSubmatch(out["markdown"])
	if m == nil || [3]string{m[1], m[2], m[3]} != [3]string{"15", "3", "12"} {
		t.Errorf("Markdown counts: %v, want run 15, passed 3, failed 12", m)
	}

	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Cases    []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal([]byte(out["junit"]), &suites); err != nil {
		t.Fatal(err)
	}
	if suites.Tests != 15 || len(suites.Cases) != 15 || suites.Failures+suites.Errors != 12 {
		t.Errorf("JUnit: %d tests, %d testcases, %d failures and %d errors; want 15, 15 and 12 in all", suites.Tests, len(suites.Cases), suites.Failures, suites.Errors)
	}
	for f, says := range map[string]string{"text": "8 more failing fixtures", "markdown": "8 more failing fixtures",
		"junit": `name="drp2.detail_left_out" value="8"`} {
		if !strings.Contains(out[f], says) {
			t.Errorf("%s does not say that 8 failures were left out (%s)", f, says)
		}
	}
}

func atoi4(m []string) [4]int {
	var out [4]int
	for i := 1; i < len(m) && i <= 4; i++ {
		out[i-1], _ = strconv.Atoi(m[i])
	}
	return out
}

// TestReportsBounded: past the failures given in full, a failure adds no
// line to the log and at most a verdict's worth of bytes to the JUnit and
// JSON reports, whatever its message and diagnostics; the job summary
// stays within its limit. Each failure here carries 3 KB of words, which
// every report repeated before it was bounded. The runs are bounded as
// the gate bounds every run before a sink sees it.
func TestReportsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 2,500 failures")
	}
	const base, more = escape.FullFailures + 100, 1400
	small, large := renderAll(t, bound.Run(failingRun(base, 10))), renderAll(t, bound.Run(failingRun(base+more, 10)))
	perFailure := map[string]int{
		// The count in the closing lines grows by a digit at most.
		"text": 0,
		// A testcase with its verdict in the message and a one-line body.
		"junit": 600,
		// A record of the verdict, the paths and the digest, and a line
		// of the summary's failing paths.
		"json": 1000,
		// Bounded whatever the run: half the job summary's limit.
		"markdown": 0,
	}
	for f, limit := range perFailure {
		grew := len(large[f]) - len(small[f])
		if grew > limit*more+64 {
			t.Errorf("%s grew by %d bytes for %d more failures (%d each), want at most %d each", f, grew, more, grew/more, limit)
		}
	}
	if n := len(large["markdown"]); n > 512<<10 {
		t.Errorf("the job summary is %d bytes", n)
	}
}

// TestChangesCapped: the log lists the first changed fixtures of a
// comparison, as many as the failures given in full, and counts the rest.
func TestChangesCapped(t *testing.T) {
	run := failingRun(0, 1)
	run.Comparison = &model.Comparison{}
	for i := range escape.FullFailures + 5 {
		run.Comparison.Changes = append(run.Comparison.Changes, model.Change{Transition: model.Regressed,
			Path: fmt.Sprintf("fixtures/negative/changed_%05d.json", i), RelPath: fmt.Sprintf("negative/changed_%05d.json", i)})
	}
	text := renderAll(t, bound.Run(run))["text"]
	if n := strings.Count(text, "fixtures/negative/changed_"); n != escape.FullFailures || !strings.Contains(text, "... and 5 more changed fixtures") {
		t.Errorf("the log lists %d changed fixtures, want %d and a count of 5 more", n, escape.FullFailures)
	}
}

// TestBound: the gate's bound (bound.Run) caps what a fixture controls,
// leaves the run it was given alone, and keeps values within their caps
// as they are.
func TestBound(t *testing.T) {
	run := sample.Huge()
	b := bound.Run(run)
	if len(run.Results[0].Name) != sample.HugeBytes {
		t.Fatal("bound.Run changed its input")
	}
	r := b.Results[0]
	for name, v := range map[string]string{
		"name": r.Name, "path": r.Path, "code": r.Expected.Code, "reason": r.Reason, "message": r.Actual.Message,
		"diagnostic": r.Diagnostics[0].Message, "finding": b.Findings[0].Message, "failing path": b.Summary.FailingPaths[0],
	} {
		if len(v) > 5000 || !strings.Contains(v, "more bytes)") {
			t.Errorf("%s: %d bytes, %q...", name, len(v), v[:40])
		}
	}
	s := sample.Run()
	if bs := bound.Run(s); bs.Results[2].Actual.Message != s.Results[2].Actual.Message || bs.CorpusRoot != s.CorpusRoot {
		t.Error("bound.Run changed a short value")
	}
}
