// Package text renders a run for a terminal: PASS or FAIL per fixture, the
// mismatches field by field, findings, and RUNNER.md's batch summary.
//
// Fixture-provided text is printed quoted or with control characters
// escaped, so that a fixture cannot move the cursor, forge lines, or start a
// workflow command in a CI log.
package text

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
)

// Write writes the report. It stops at the first write error.
func Write(w io.Writer, run *model.Run) error {
	p := &printer{w: w}
	for i := range run.Results {
		p.result(&run.Results[i])
	}
	if len(run.Findings) > 0 {
		p.line("")
		p.line("Findings (warnings; they do not change any result):")
		for _, f := range run.Findings {
			p.line("  WARN %s: %s: %s", Clean(f.Path), f.Kind, Clean(f.Message))
		}
	}
	p.summary(run)
	p.comparison(run.Comparison)
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
}

func (p *printer) result(r *model.Result) {
	label := "PASS"
	switch {
	case r.IsCorpusError():
		label = "ERROR"
	case !r.Passed:
		label = "FAIL"
	}
	p.line("%-5s %s (%s) [%s]", label, Clean(r.Path), Clean(r.Name), r.Class)
	if r.Passed {
		return
	}
	if r.KnownFailure != "" {
		p.line("      known failure: %s", Clean(r.KnownFailure))
	}
	if r.IsCorpusError() {
		p.line("      corpus error (the fixture file is unusable; not a DRP result): %s", Clean(r.Actual.Message))
		p.location(r)
		return
	}
	p.line("      %-14s %-32s %s", "field", "expected", "actual")
	row := func(field, want, got string, differs bool) {
		mark := ""
		if differs {
			mark = "  <- mismatch"
		}
		p.line("      %-14s %-32s %s%s", field, want, got, mark)
	}
	e, a := r.Expected, r.Actual
	row("outcome", quote(e.Outcome), quote(string(a.Outcome)), e.Outcome != string(a.Outcome))
	if r.Class != model.ClassPositive {
		row("phase", quote(e.Phase), quote(string(a.Phase)), e.Phase != string(a.Phase))
		row("code", quote(e.Code), quote(a.Code), e.Code != a.Code)
		row("command_index", index(e.CommandIndex), index(a.CommandIndex),
			e.CommandIndex != nil && (a.CommandIndex == nil || *a.CommandIndex != *e.CommandIndex))
	} else if a.Outcome != model.Success {
		row("phase", "-", quote(string(a.Phase)), false)
		row("code", "-", quote(a.Code), false)
		row("command_index", "-", index(a.CommandIndex), false)
	}
	if a.Message != "" {
		p.line("      message: %s", Clean(a.Message))
	}
	p.location(r)
}

func (p *printer) location(r *model.Result) {
	if r.Span != nil {
		p.line("      at %s:%d:%d", Clean(r.Path), r.Span.Line, r.Span.Column)
	}
}

func (p *printer) summary(run *model.Run) {
	s := run.Summary
	p.line("")
	p.line("Corpus: %s", Clean(run.CorpusRoot))
	p.line("Command schema: %s (sha256 %s)", Clean(run.CommandSchema.Source), run.CommandSchema.SHA256)
	p.line("Fixture schema: %s (sha256 %s)", Clean(run.FixtureSchema.Source), run.FixtureSchema.SHA256)
	for _, c := range s.ByClass {
		p.line("  %-18s run %d, passed %d, failed %d", c.Class.Title()+":", c.Run, c.Passed, c.Failed)
	}
	p.line("Summary: discovered %d, run %d, passed %d, failed %d, corpus errors %d, findings %d",
		s.Discovered, s.Run, s.Passed, s.Failed, s.CorpusErrors, s.Findings)
	if s.Run == 0 {
		p.line("No fixture was run: nothing matched the paths, --name and --tag given.")
	}
	if len(s.FailingPaths) > 0 {
		p.line("Failing fixtures:")
		for _, f := range s.FailingPaths {
			p.line("  %s", Clean(f))
		}
	}
}

func quote(s string) string {
	if s == "" {
		return "-"
	}
	return strconv.Quote(s)
}

func index(i *int) string {
	if i == nil {
		return "-"
	}
	return strconv.Itoa(*i)
}

// Clean makes untrusted text safe for one terminal line: control and other
// non-printing characters (newlines, escapes, line separators, ...) and
// invalid UTF-8 are shown as Go escapes.
func Clean(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || !strconv.IsPrint(r) }) {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}
