// Package annotation turns a run into file annotations, the one model the
// check-run reporter and the workflow-command reporter share, and writes
// them as GitHub workflow commands ("::error file=...::message").
package annotation

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/limit"
)

// Build returns one annotation per failing fixture (level failure, for a
// mismatch and for a corpus error alike) followed by one per finding (level
// warning), in the run's order. Each sits at the result's span, or on line
// 1 when the span is unknown.
func Build(run *model.Run) []model.Annotation {
	if run == nil {
		return nil
	}
	run = explain.Bound(run)
	var anns []model.Annotation
	for i := range run.Results {
		r := &run.Results[i]
		if r.Passed {
			continue
		}
		a := model.Annotation{
			Path:       slashPath(explain.DisplayPath(r)),
			Level:      model.LevelFailure,
			Title:      title(resultTitle(r)),
			Message:    clip(message(r)),
			RawDetails: clip(explain.Detail(r)),
		}
		locate(&a, r.Span)
		anns = append(anns, a)
	}
	for _, f := range run.Findings {
		a := model.Annotation{
			Path:    slashPath(f.Path),
			Level:   model.LevelWarning,
			Title:   title("DRP2 corpus finding: " + explain.FindingTitle(f.Kind)),
			Message: clip(f.Message),
		}
		locate(&a, nil)
		anns = append(anns, a)
	}
	return anns
}

func resultTitle(r *model.Result) string {
	if r.IsCorpusError() {
		return "DRP2 corpus error: " + explain.Name(r)
	}
	return "DRP2 fixture mismatch (" + r.Class.String() + "): " + explain.Name(r)
}

// message is the headline, then the fixture's own explanation of why it
// expects what it expects and how to fix a mismatch.
func message(r *model.Result) string {
	lines := []string{explain.Headline(r)}
	if r.Reason != "" {
		lines = append(lines, "Reason: "+r.Reason)
	}
	if r.Fix != "" {
		lines = append(lines, "Fix: "+r.Fix)
	}
	return strings.Join(lines, "\n")
}

// locate sets the lines and columns from a span. GitHub takes columns only
// when the annotation starts and ends on one line.
func locate(a *model.Annotation, s *model.Span) {
	if s == nil || s.Line < 1 {
		a.StartLine, a.EndLine = 1, 1
		return
	}
	a.StartLine, a.EndLine = s.Line, s.EndLine
	if a.EndLine < a.StartLine {
		a.EndLine = a.StartLine
	}
	if a.StartLine == a.EndLine && s.Column >= 1 {
		a.StartColumn = s.Column
		a.EndColumn = s.EndColumn
		if a.EndColumn < a.StartColumn {
			a.EndColumn = a.StartColumn
		}
	}
}

func slashPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	return strings.TrimPrefix(p, "./")
}

func title(s string) string {
	return escape.Clip(escape.OneLine(s), limit.AnnotationTitleChars)
}

// clip keeps s valid UTF-8 and within limit.AnnotationDetailBytes.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= limit.AnnotationDetailBytes {
		return s
	}
	const ellipsis = "…"
	cut := limit.AnnotationDetailBytes - len(ellipsis)
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

// WriteCommands writes anns as workflow commands, at most limit.CommandsPerLevel per
// level in the given order, and then one plain line per level saying how
// many more exist and where to find them.
func WriteCommands(w io.Writer, anns []model.Annotation, opts CommandOptions) error {
	elsewhere := opts.Elsewhere
	if elsewhere == "" {
		elsewhere = "the job summary or the JUnit report"
	}
	written := map[model.AnnotationLevel]int{}
	dropped := map[model.AnnotationLevel]int{}
	for _, a := range anns {
		if written[a.Level] >= limit.CommandsPerLevel {
			dropped[a.Level]++
			continue
		}
		written[a.Level]++
		if _, err := io.WriteString(w, command(a)+"\n"); err != nil {
			return fmt.Errorf("write workflow commands: %w", err)
		}
	}
	for _, level := range []model.AnnotationLevel{model.LevelFailure, model.LevelWarning, model.LevelNotice} {
		n := dropped[level]
		if n == 0 {
			continue
		}
		line := fmt.Sprintf("and %d more %s: see %s\n", n, plural(level, n), escape.OneLine(elsewhere))
		if _, err := io.WriteString(w, line); err != nil {
			return fmt.Errorf("write workflow commands: %w", err)
		}
	}
	return nil
}

func plural(level model.AnnotationLevel, n int) string {
	word := map[model.AnnotationLevel]string{
		model.LevelFailure: "failure",
		model.LevelWarning: "warning",
		model.LevelNotice:  "notice",
	}[level]
	if n != 1 {
		word += "s"
	}
	return word
}

// command renders one annotation as a workflow command.
func command(a model.Annotation) string {
	name := "error"
	switch a.Level {
	case model.LevelWarning:
		name = "warning"
	case model.LevelNotice:
		name = "notice"
	}
	props := []string{"file=" + escape.WorkflowProperty(a.Path)}
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
	return "::" + name + " " + strings.Join(props, ",") + "::" + commandMessage(a.Message)
}

// commandMessage escapes msg and cuts it, on a rune boundary and never
// inside an escape sequence, so that the escaped text stays below
// limit.CommandMessageChars characters.
func commandMessage(msg string) string {
	const ellipsis = "…"
	msg = strings.ToValidUTF8(msg, "\uFFFD")
	if full := escape.WorkflowData(msg); utf8.RuneCountInString(full) < limit.CommandMessageChars {
		return full
	}
	var b strings.Builder
	n := 0
	for _, r := range msg {
		e := escape.WorkflowData(string(r))
		k := utf8.RuneCountInString(e)
		if n+k+utf8.RuneCountInString(ellipsis) >= limit.CommandMessageChars {
			break
		}
		b.WriteString(e)
		n += k
	}
	return b.String() + ellipsis
}
