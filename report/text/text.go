// Package text renders a run for a terminal or a CI log: each failing
// fixture with only what differs and why, findings, RUNNER.md's minimal
// summary (discovered, run, passed, failed, the failing paths with their
// mismatch) and a final count.
//
// Every line is safe for a GitHub Actions log: fixture-provided text is
// shown with control characters escaped, and no line can start a workflow
// command or carry a legacy "##[" one (escape.LogLine).
package text

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Options says how the report is shown. The zero value is the plain report
// of failures for a file or a pipe.
type Options struct {
	// Verbose lists passing fixtures too, one line each.
	Verbose bool
	// Color marks PASS, FAIL, ERROR, WARN and the final count with ANSI
	// colours. The caller decides: a terminal, and NO_COLOR unset.
	Color bool
	// Group folds each section (fixtures, findings, run details) in
	// "::group::"/"::endgroup::" for the Actions log; the final count
	// stays outside, always visible.
	Group bool
}

// ANSI colours. Only this package's own words are coloured; untrusted text
// never is, and it cannot carry an escape of its own (see Clean).
const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

// Write writes the report. It stops at the first write error.
func Write(w io.Writer, run *model.Run, opts Options) error {
	if run == nil {
		run = &model.Run{}
	}
	p := &printer{w: w, opts: opts}
	p.results(run)
	p.findings(run.Findings)
	p.details(run)
	if opts.Verbose {
		p.slowest(run)
	}
	p.implementations(run)
	p.comparison(run.Comparison)
	p.manifest(run.Manifest)
	if opts.Group {
		p.reproduce(run)
	} else {
		p.restate(run)
	}
	p.final(run)
	return p.err
}

// reproduce says, in the Actions log, the one command that reruns the
// failing fixtures on a developer's machine, per cause.
func (p *printer) reproduce(run *model.Run) {
	var failing []*model.Result
	for i := range run.Results {
		// The causes of the failures given in full: a failure without its
		// message and rule cannot say its cause.
		if r := &run.Results[i]; !r.Passed && !r.IsCorpusError() && !r.DetailLeftOut {
			failing = append(failing, r)
		}
	}
	if len(failing) == 0 {
		return
	}
	groups := explain.Groups(failing)
	p.section(fmt.Sprintf("To reproduce locally (%d %s)", len(groups), explain.Plural(len(groups), "cause", "causes")))
	for _, g := range groups {
		paths := g.Paths()
		if len(paths) > 3 {
			paths = paths[:3]
		}
		p.textf("%d %s: %s", len(g.Results), explain.Plural(len(g.Results), "fixture", "fixtures"), Clean(g.Cause()))
		p.textf("  %s", Clean(explain.Reproduce(run.ToolVersion, paths)))
	}
	p.endGroup()
}

// manifest prints the manifest comparison before the verdict, which may
// rest on it: its headline alone when the corpus matches the manifest,
// else a line a change in a section of its own, then the headline. In a
// log the section folds away unless the comparison fails the run: then
// the changes are what the reader came for, as failures are.
func (p *printer) manifest(m *model.ManifestCheck) {
	if m == nil || p.err != nil {
		return
	}
	var b strings.Builder
	if p.err = Manifest(&b, m); p.err != nil {
		return
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if m.Clean() {
		p.textf("%s", lines[len(lines)-1])
		return
	}
	fold := p.opts.Group && !m.Fails()
	if fold || !p.opts.Group {
		p.section("Fixture manifest")
	} else {
		p.textf("Fixture manifest:")
	}
	for _, l := range lines {
		p.textf("%s", l)
	}
	if fold {
		p.endGroup()
	}
}

type printer struct {
	w    io.Writer
	opts Options
	err  error
	// started: a line has been printed, so a new section needs a blank
	// line before it.
	started bool
}

// line prints one line: label (one of ours, coloured when asked) and then
// text, which LogLine makes safe for a log.
func (p *printer) line(label, color, text string) {
	if p.err != nil {
		return
	}
	if label != "" && p.opts.Color && color != "" {
		label = color + label + reset
	}
	_, p.err = io.WriteString(p.w, label+escape.LogLine(text)+"\n")
	p.started = true
}

func (p *printer) textf(format string, args ...any) { p.line("", "", fmt.Sprintf(format, args...)) }

// section starts a folded group, or without Group a blank line and the
// title. Titles are this package's own words.
func (p *printer) section(title string) {
	if p.err != nil {
		return
	}
	if p.opts.Group {
		_, p.err = io.WriteString(p.w, "::group::"+title+"\n")
		return
	}
	if p.started {
		title = "\n" + title
	}
	_, p.err = io.WriteString(p.w, title+":\n")
}

func (p *printer) endGroup() {
	if p.opts.Group && p.err == nil {
		_, p.err = io.WriteString(p.w, "::endgroup::\n")
	}
}

// results prints the failures, unfolded: they are what a reader of the
// log came for. Passes, when asked for, follow in a section of their own.
func (p *printer) results(run *model.Run) {
	// Corpus errors first: a file the change broke is the likeliest cause
	// of everything else. Failures without their detail are counted.
	shown, left := 0, 0
	for _, corpus := range []bool{true, false} {
		for i := range run.Results {
			switch r := &run.Results[i]; {
			case r.Passed || r.IsCorpusError() != corpus:
			case r.DetailLeftOut:
				left++
			default:
				shown++
				p.result(r)
			}
		}
	}
	if left > 0 {
		p.textf("... and %s", explain.MoreLeftOut(left, shown))
	}
	// Stale entries, unfolded too: they are what keeps the list true.
	for i := range run.Results {
		if r := &run.Results[i]; r.Kind() == model.KindUnexpectedPass {
			p.line("STALE", yellow, " "+Clean(explain.Location(r))+": "+Clean(explain.StaleEntry(r)))
		}
	}
	if !p.opts.Verbose || run.Summary.Passed == 0 {
		return
	}
	p.section(fmt.Sprintf("Passing fixtures (%d)", run.Summary.Passed))
	listed := 0
	for i := range run.Results {
		if r := &run.Results[i]; r.Passed && listed < MaxPassingListed {
			listed++
			p.result(r)
		}
	}
	if rest := run.Summary.Passed - listed; rest > 0 {
		p.textf("%s", explain.MorePassing(rest))
	}
	p.endGroup()
}

// MaxPassingListed is the most passing fixtures a verbose report lists one
// by one, as many as the failures it gives in full: a corpus of 50,000
// passes would otherwise print 50,000 lines nobody reads into the log.
const MaxPassingListed = escape.FullFailures

// result prints a fixture's head line ("FAIL path:line [class]", with the
// name only when it is not the file name) and, for a failure, what
// differs, the tool's reason and the fixture's own words.
func (p *printer) result(r *model.Result) {
	head := " " + Clean(explain.Location(r))
	if !r.IsCorpusError() {
		head += " [" + r.Class.String() + "]"
	}
	if n := explain.ShownName(r); n != "" {
		head += " name " + quote(n)
	}
	switch {
	case r.IsCorpusError():
		p.line("ERROR", red, head)
	case r.Passed:
		p.line("PASS ", green, head)
		return
	default:
		p.line("FAIL ", red, head)
	}
	const indent = "      "
	if r.KnownFailure != "" {
		p.textf("%sknown failure: %s", indent, Clean(r.KnownFailure))
	}
	if r.Kind() == model.KindFlaky && r.Listing != nil {
		p.textf("%sflaky (%s): %s", indent, Clean(r.Listing.Entry), Clean(r.Listing.Reason))
	}
	if r.IsCorpusError() {
		p.textf("%s%s: %s", indent, explain.CorpusError, Clean(r.Actual.Message))
		p.textf("%s(the fixture file is unusable; this is not a DRP2 result)", indent)
		return
	}
	p.textf("%s%s", indent, Clean(strings.Join(explain.Differences(r), ", ")))
	if m := explain.Message(r); m != "" {
		p.textf("%smessage: %s", indent, Clean(m))
	}
	if r.Actual.Rule != "" {
		p.textf("%srule: %s", indent, Clean(r.Actual.Rule))
	}
	if r.Reason != "" {
		p.textf("%s%s: %s", indent, explain.FixtureReason, Clean(r.Reason))
	}
	if r.Fix != "" {
		p.textf("%s%s: %s", indent, explain.FixtureFix, Clean(r.Fix))
	}
	for _, d := range r.Diagnostics {
		p.textf("%sdiagnostic: %s: %s", indent, Clean(d.Source), Clean(d.Message))
	}
}

// Caps of the plain report, whose end is what stays on a terminal: the
// findings shown (warnings by the thousand would push the failures out of
// the scrollback) and the failures restated before the verdict.
const (
	MaxFindingsShown    = 20
	MaxFailuresRestated = 20
)

// findings prints the findings: all of them when verbose or folded in a
// log's group, else the first MaxFindingsShown and a count of the rest.
func (p *printer) findings(fs []model.Finding) {
	if len(fs) == 0 {
		return
	}
	p.section(fmt.Sprintf("Findings (%d; warnings, they change no result)", len(fs)))
	shown := fs
	if !p.opts.Verbose && !p.opts.Group && len(fs) > MaxFindingsShown {
		shown = fs[:MaxFindingsShown]
	}
	for _, f := range shown {
		p.line("WARN ", yellow, fmt.Sprintf(" %s: %s: %s", Clean(f.Path), explain.FindingTitle(f.Kind), Clean(f.Message)))
	}
	if rest := len(fs) - len(shown); rest > 0 {
		p.textf("%s", explain.MoreFindings(rest))
	}
	p.endGroup()
}

// restate lists the failing fixtures again, one line each, just before
// the verdict (as gotestsum does): after the findings, the run details and
// the rest, they are what a reader of the end of the output needs.
func (p *printer) restate(run *model.Run) {
	var failing []*model.Result
	for _, corpusErrors := range []bool{true, false} {
		for i := range run.Results {
			if r := &run.Results[i]; !r.Passed && r.IsCorpusError() == corpusErrors {
				failing = append(failing, r)
			}
		}
	}
	if len(failing) == 0 {
		return
	}
	p.section(fmt.Sprintf("Failing fixtures (%d)", len(failing)))
	for _, r := range failing[:min(len(failing), MaxFailuresRestated)] {
		label, what := "FAIL ", strings.Join(explain.Differences(r), ", ")
		if r.IsCorpusError() {
			label, what = "ERROR", explain.Headline(r)
		}
		if r.KnownFailure != "" {
			what += " (known failure)"
		}
		p.line(label, red, " "+Clean(explain.Location(r)+": "+what))
	}
	if rest := len(failing) - MaxFailuresRestated; rest > 0 {
		p.textf("%s", explain.MoreFailures(rest))
	}
}

// details is RUNNER.md's minimal summary and the run's evidence; the
// failing paths with their mismatches are the FAIL lines above.
func (p *printer) details(run *model.Run) {
	s := &run.Summary
	p.section("Run details")
	corpus := Clean(run.CorpusRoot)
	if note := explain.CorpusNote(run.CorpusSearch); note != "" {
		corpus += " (" + note + ")"
	}
	p.textf("Corpus: %s", corpus)
	if run.CorpusDigest != "" {
		p.textf("Corpus sha256: %s", Clean(run.CorpusDigest))
	}
	if sh := explain.Shard(run.Shard); sh != "" {
		p.textf("Shard: %s", sh)
	}
	if rr := run.Rerun; rr != nil {
		p.textf("%s", explain.Rerun(rr, Clean(rr.From), 0))
	}
	if run.ToolVersion != "" {
		p.textf("Tool version: %s", Clean(run.ToolVersion))
	}
	for _, s := range []struct {
		label  string
		schema model.SchemaSource
	}{{"Command schema", run.CommandSchema}, {"Fixture schema", run.FixtureSchema}} {
		closure := ""
		if s.schema.Closure != "" {
			// What the schema is: every file its compilation read.
			closure = fmt.Sprintf(", closure sha256 %s of %s", Clean(s.schema.Closure), explain.Count(len(s.schema.Files), "file", "files"))
		}
		p.textf("%s: %s (sha256 %s%s)", s.label, Clean(s.schema.Source), Clean(s.schema.SHA256), closure)
	}
	for _, c := range s.ByClass {
		p.textf("  %-18s run %d, passed %d, failed %d", explain.ClassTitle(c.Class)+":", c.Run, c.Passed, c.Failed)
	}
	p.textf("Summary: discovered %d, run %d, passed %d, failed %d, corpus errors %d, findings %d",
		s.Discovered, s.Run, s.Passed, s.Failed, s.CorpusErrors, s.Findings)
	if e := explain.Expectations(s); e != "" {
		p.textf("Expectations: %s", e)
	}
	if u := run.ExpectationsUpdate; u != nil {
		p.expectationsUpdate(u)
	}
	p.endGroup()
}

// slowest lists the slowest fixtures of the validator and of each
// implementation, as gotestsum's slowest tool does; nothing for a run
// whose fixtures took no time (under SOURCE_DATE_EPOCH).
func (p *printer) slowest(run *model.Run) {
	slow := explain.Slowest(run, explain.SlowestShown)
	if len(slow) == 0 {
		return
	}
	p.section("Slowest fixtures")
	for _, s := range slow {
		p.textf("%s%s:", Clean(s.Who), explain.InAll(s.Total))
		for _, r := range s.Results {
			p.textf("  %10s  %s", explain.Took(r.Duration), Clean(explain.DisplayPath(r)))
		}
	}
	p.endGroup()
}

// expectationsUpdate says which expectations file was written, and the
// change, a line of the diff a line.
func (p *printer) expectationsUpdate(u *model.ExpectationsUpdate) {
	if u.Diff == "" {
		p.textf("Expectations written to %s: unchanged", Clean(u.File))
		return
	}
	p.textf("Expectations written to %s:", Clean(u.File))
	for _, line := range strings.Split(strings.TrimSuffix(u.Diff, "\n"), "\n") {
		p.textf("  %s", Clean(line))
	}
}

// final is the one line that says how the run went, outside any group:
// the gate's verdict when the run was judged, else the counts.
func (p *printer) final(run *model.Run) {
	s := &run.Summary
	text, color := counts(s)
	if j := run.Judgement; j != nil {
		text, color = Clean(explain.Judgement(run).Headline), green
		switch {
		case j.Failed:
			color = red
		case s.Run == 0:
			color = yellow
		}
	}
	for _, im := range unstated(run) {
		text += "; " + Clean(explain.ImplementationResult(im))
		if run.Judgement != nil && !run.Judgement.Failed && im.Summary.Unexcused() > 0 {
			text += ", not failing the run (fail-on " + Clean(run.Judgement.FailOn) + ")"
		}
		if (im.Error != "" || im.Summary.Unexcused() > 0) && color == green {
			// The run passes, but not every implementation did.
			color = yellow
		}
	}
	if !p.opts.Group {
		p.textf("")
	}
	p.line("DRP2 conformance:", color+bold, " "+text)
}

// unstated are the implementations, best first, whose result the
// verdict's headline does not state: it names only those that decided the
// run, and a last line that says "all 125 fixtures passed" of a run whose
// one implementation failed every fixture reads as a pass of it.
func unstated(run *model.Run) []*model.Implementation {
	stated := map[string]bool{}
	if j := run.Judgement; j != nil {
		for _, r := range j.Reasons {
			if r.Kind == model.ReasonImplementationFailed || r.Kind == model.ReasonUnusable {
				stated[r.Subject] = true
			}
		}
	}
	var out []*model.Implementation
	for _, i := range model.RankImplementations(run.Implementations) {
		if im := &run.Implementations[i]; !stated[im.Label()] {
			out = append(out, im)
		}
	}
	return out
}

// counts says how the run went by its counts alone, for a run that was
// not judged.
func counts(s *model.Summary) (text, color string) {
	text = explain.Verdict(s)
	if b := explain.Breakdown(s); b != "" {
		text += " (" + b + ")"
	}
	color = green
	switch {
	case s.Run == 0 && s.Discovered == 0:
		color = yellow
		text += ": the corpus holds no fixture"
	case s.Run == 0:
		// The front end names the filters, in the words they were given.
		color = yellow
		text += fmt.Sprintf(": the filters matched none of the %d fixtures discovered", s.Discovered)
	case s.Failed > 0:
		color = red
	}
	if s.Findings > 0 {
		text += fmt.Sprintf("; %d %s", s.Findings, explain.Plural(s.Findings, "finding", "findings"))
	}
	return text, color
}

func quote(s string) string {
	return strconv.Quote(s)
}

// Clean makes untrusted text safe for one terminal line: control and other
// non-printing characters (newlines, escapes, line separators, ...) and
// invalid UTF-8 are shown as Go escapes. The printer then breaks any "##["
// and a leading "::" (escape.LogLine).
func Clean(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || !strconv.IsPrint(r) }) {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}
