// Package annotation turns a run into GitHub file annotations, the one
// shape the check-run reporter (internal/github) and the workflow-command
// reporter share, and writes them as workflow commands ("::error
// file=...::message"). The type lives here, not in the model: it is
// GitHub's shape, and the model keeps to the run.
package annotation

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Annotation is one problem located in a file, as GitHub takes it.
type Annotation struct {
	// Path is relative to the repository root, slash separated.
	Path      string
	StartLine int
	EndLine   int
	// StartColumn and EndColumn are set only when StartLine == EndLine.
	StartColumn int
	EndColumn   int
	Level       Level
	Title       string
	Message     string
	RawDetails  string
}

// Level is the severity of an annotation, with GitHub's names.
type Level string

const (
	LevelFailure Level = "failure"
	LevelWarning Level = "warning"
	LevelNotice  Level = "notice"
)

// Build returns one annotation per failing fixture (level failure) and
// then one per finding (level warning). Corpus errors come first: when
// only the first few annotations are shown (ten per level in a log), a
// broken fixture file is the first thing to fix. Otherwise the run's order
// is kept. Each sits at the result's span, or on line 1 when the span is
// unknown.
func Build(run *model.Run) []Annotation { return BuildWith(run, Options{}) }

// Options tune Build.
type Options struct {
	// KeepFinding, when set, says which findings become annotations; the
	// rest stay in the reports. A pull request that did not touch a file
	// need not see its findings on every run.
	KeepFinding func(model.Finding) bool
}

// BuildWith is Build with options.
func BuildWith(run *model.Run, opts Options) []Annotation {
	if run == nil {
		return nil
	}
	var corpus, mismatches, findings []Annotation
	for i := range run.Results {
		r := &run.Results[i]
		show := explain.Show(r.Kind(), "")
		if show.Annotation == "" {
			continue
		}
		a := Annotation{
			Path:       explain.FilePath(explain.DisplayPath(r)),
			Level:      Level(show.Annotation),
			Title:      title(resultTitle(r)),
			Message:    detail(message(r)),
			RawDetails: detail(explain.Body(r)), // the message has the headline
		}
		if r.Kind() == model.KindUnexpectedPass {
			stalePass(&a, model.Validator, r)
		}
		locate(&a, r.Span)
		if r.IsCorpusError() {
			corpus = append(corpus, a)
		} else {
			mismatches = append(mismatches, a)
		}
	}
	for _, f := range run.Findings {
		if opts.KeepFinding != nil && !opts.KeepFinding(f) {
			continue
		}
		a := Annotation{
			Path:    explain.FilePath(f.Path),
			Level:   LevelWarning,
			Title:   title("DRP2 corpus finding: " + explain.FindingTitle(f.Kind)),
			Message: detail(f.Message),
		}
		locate(&a, nil)
		findings = append(findings, a)
	}
	return append(append(corpus, mismatches...), findings...)
}

// stalePass makes a the notice of an unexpected pass of the
// implementation who: its expectations entry is stale.
func stalePass(a *Annotation, who string, r *model.Result) {
	a.Title = title("DRP2 " + who + ": unexpected pass: " + explain.Name(r))
	a.Message = detail(explain.StaleEntry(r))
	a.RawDetails = ""
}

func resultTitle(r *model.Result) string {
	if r.IsCorpusError() {
		return "DRP2 " + explain.CorpusError + ": " + explain.Name(r)
	}
	return "DRP2 fixture mismatch (" + r.Class.String() + "): " + explain.Name(r)
}

// message is the headline, then the tool's own reason for its verdict and
// only then the fixture's authored reason and fix, labelled as the
// fixture's so that they are not read as the tool's.
func message(r *model.Result) string {
	lines := []string{explain.Headline(r)}
	if why := explain.Why(r); why != "" && !r.IsCorpusError() {
		lines = append(lines, why)
	}
	if r.Reason != "" {
		lines = append(lines, "Fixture's reason: "+r.Reason)
	}
	if r.Fix != "" {
		lines = append(lines, "Fixture's fix: "+r.Fix)
	}
	return strings.Join(lines, "\n")
}

// locate sets the lines and columns from a span. GitHub takes columns only
// when the annotation starts and ends on one line.
func locate(a *Annotation, s *model.Span) {
	a.StartLine = explain.StartLine(s)
	if s == nil || s.Line < 1 {
		a.EndLine = a.StartLine
		return
	}
	a.EndLine = max(s.EndLine, a.StartLine)
	if a.StartLine == a.EndLine && s.Column >= 1 {
		a.StartColumn = s.Column
		a.EndColumn = s.EndColumn
		if a.EndColumn < a.StartColumn {
			a.EndColumn = a.StartColumn
		}
	}
}

func title(s string) string {
	return escape.Clip(escape.OneLine(s), escape.AnnotationTitleChars)
}

// detail makes s fit an annotation's message or raw_details: valid UTF-8,
// no control characters but line feed and tab (GitHub shows the text as
// it is, and ESC, NUL or BEL in it would reach whatever displays it next),
// every invisible character named (escape.Visible), CR and CRLF as LF, and
// at most escape.AnnotationDetailBytes.
func detail(s string) string {
	s = escape.Visible(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r >= 0x7F && r <= 0x9F:
			return -1
		}
		return r
	}, s)
	if len(s) <= escape.AnnotationDetailBytes {
		return s
	}
	const ellipsis = "…"
	cut := escape.AnnotationDetailBytes - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// CommandOptions tunes WriteCommands.
type CommandOptions struct {
	// Elsewhere says where the annotations that exceed GitHub's limit can
	// be read; the default is "the job summary or the JUnit report".
	Elsewhere string
}

// WriteCommands writes anns as workflow commands, at most escape.CommandsPerLevel per
// level in the given order, and then one plain line per level saying how
// many more exist and where to find them.
func WriteCommands(w io.Writer, anns []Annotation, opts CommandOptions) error {
	elsewhere := opts.Elsewhere
	if elsewhere == "" {
		elsewhere = "the job summary or the JUnit report"
	}
	written := map[Level]int{}
	dropped := map[Level]int{}
	for _, a := range anns {
		if written[a.Level] >= escape.CommandsPerLevel {
			dropped[a.Level]++
			continue
		}
		written[a.Level]++
		if _, err := io.WriteString(w, command(a)+"\n"); err != nil {
			return fmt.Errorf("write workflow commands: %w", err)
		}
	}
	for _, level := range []Level{LevelFailure, LevelWarning, LevelNotice} {
		n := dropped[level]
		if n == 0 {
			continue
		}
		line := fmt.Sprintf("and %d more %s: see %s\n", n, plural(level, n), escape.LogLine(escape.OneLine(elsewhere)))
		if _, err := io.WriteString(w, line); err != nil {
			return fmt.Errorf("write workflow commands: %w", err)
		}
	}
	return nil
}

func plural(level Level, n int) string {
	word := map[Level]string{
		LevelFailure: "failure",
		LevelWarning: "warning",
		LevelNotice:  "notice",
	}[level]
	if n != 1 {
		word += "s"
	}
	return word
}

// command renders one annotation as a workflow command.
func command(a Annotation) string {
	name := "error"
	switch a.Level {
	case LevelWarning:
		name = "warning"
	case LevelNotice:
		name = "notice"
	}
	if strings.Contains(a.Path, "##[") {
		// The file property would have to break "##[" and so name another
		// file: the annotation goes on the run instead, and the message
		// says where.
		where := a.Path
		if a.StartLine > 0 {
			where += fmt.Sprintf(":%d", a.StartLine)
		}
		a.Message = where + ": " + a.Message
		a.Path, a.StartLine, a.EndLine, a.StartColumn, a.EndColumn = "", 0, 0, 0, 0
	}
	var props []string
	if a.Path != "" {
		props = append(props, "file="+escape.WorkflowProperty(a.Path))
	}
	if a.StartLine > 0 {
		props = append(props, fmt.Sprintf("line=%d", a.StartLine))
	}
	if a.EndLine > 0 {
		props = append(props, fmt.Sprintf("endLine=%d", a.EndLine))
	}
	if a.StartColumn > 0 && a.StartLine == a.EndLine {
		props = append(props, fmt.Sprintf("col=%d", a.StartColumn))
		if a.EndColumn > 0 {
			props = append(props, fmt.Sprintf("endColumn=%d", a.EndColumn))
		}
	}
	if a.Title != "" {
		props = append(props, "title="+escape.WorkflowProperty(escape.OneLine(a.Title)))
	}
	if len(props) == 0 {
		return "::" + name + "::" + commandMessage(a.Message)
	}
	return "::" + name + " " + strings.Join(props, ",") + "::" + commandMessage(a.Message)
}

// commandMessage escapes msg and cuts it, on a rune boundary and never
// inside an escape sequence, so that the escaped text stays below
// escape.CommandMessageChars characters.
func commandMessage(msg string) string {
	const ellipsis = "…"
	// Escaped whole, so that every "##[" is broken wherever it stands;
	// cutting a prefix off the result cannot make a new one.
	full := []rune(escape.WorkflowData(msg))
	if len(full) < escape.CommandMessageChars {
		return string(full)
	}
	n := escape.CommandMessageChars - utf8.RuneCountInString(ellipsis) - 1
	// Never end inside an escape sequence (%25, %0A, %0D).
	for k := 1; k <= 2 && n-k >= 0; k++ {
		if full[n-k] == '%' {
			n -= k
			break
		}
	}
	return string(full[:n]) + ellipsis
}
