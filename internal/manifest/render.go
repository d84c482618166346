package manifest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/limit"
)

// MaxMarkdownRows bounds the changes listed in Markdown: a pull request
// that adds a thousand fixtures must not push the rest of the job summary
// or the sticky comment past GitHub's size limits. Violations come first,
// so they are never the rows left out.
const MaxMarkdownRows = 50

// MaxMarkdownBytes bounds the whole Markdown section, violations included:
// a frozen manifest of 50,000 fixtures the corpus no longer has would
// otherwise list 50,000 violations and push the job summary past GitHub's
// 1 MiB, and GitHub drops such a summary whole. Half a comment leaves the
// section room in the sticky comment and the job summary alike.
const MaxMarkdownBytes = limit.CommentChars / 2

// Headline is the comparison in one line.
func (c *Comparison) Headline() string {
	state := "not frozen"
	if c.Frozen {
		state = "frozen"
	}
	version := c.DRP2Version
	if version == "" {
		version = "?"
	}
	if c.Clean() {
		return fmt.Sprintf("the corpus matches its manifest (DRP2 %s, %s, %d fixtures)", version, state, c.Unchanged)
	}
	var parts []string
	for _, k := range []Kind{Added, Removed, Renamed, Changed} {
		if n := c.Count(k); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if n := len(c.Schemas); n > 0 {
		parts = append(parts, fmt.Sprintf("%d schema%s changed", n, plural(n)))
	}
	if c.CurrentVersion != "" {
		parts = append(parts, fmt.Sprintf("DRP2 version %s → %s", version, c.CurrentVersion))
	}
	line := fmt.Sprintf("%s since the manifest (DRP2 %s, %s)", strings.Join(parts, ", "), version, state)
	if c.Frozen {
		if c.Violations > 0 {
			line += fmt.Sprintf("; %d break%s the freeze", c.Violations, pluralVerb(c.Violations))
		} else {
			line += "; the freeze holds"
		}
	}
	return line
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func pluralVerb(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// WriteText writes the comparison for a terminal: one line per change,
// then the headline.
func WriteText(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	mark := func(v bool) string {
		if v {
			return "  [breaks the freeze]"
		}
		return ""
	}
	for _, s := range c.Schemas {
		fmt.Fprintf(bw, "  schema   %s: %s → %s%s\n", s.Which, schemaText(s.Recorded), schemaText(s.Current), mark(s.Violation))
	}
	if c.CurrentVersion != "" {
		fmt.Fprintf(bw, "  version  DRP2 %s → %s%s\n", escape.OneLine(c.DRP2Version), escape.OneLine(c.CurrentVersion), mark(c.Frozen))
	}
	for i := range c.Changes {
		ch := &c.Changes[i]
		fmt.Fprintf(bw, "  %-8s %s%s%s\n", ch.Kind, escape.OneLine(ch.Path), detailText(ch), mark(ch.Violation))
	}
	fmt.Fprintf(bw, "Manifest: %s\n", c.Headline())
	return bw.Flush()
}

func schemaText(s Schema) string {
	return fmt.Sprintf("%s (sha256 %s)", escape.OneLine(s.Path), short(s.SHA256))
}

// short is the first 12 hex digits of a digest, enough to tell two apart
// in a report.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func detailText(ch *Change) string {
	switch ch.Kind {
	case Added, Removed:
		return ""
	case Renamed:
		return " (from " + escape.OneLine(ch.From) + ")"
	}
	return ": " + escape.OneLine(ch.describe())
}

// WriteMarkdown writes the comparison as a section of a job summary or
// pull-request comment. Every piece of corpus text is escaped.
func WriteMarkdown(w io.Writer, c *Comparison) error {
	var b strings.Builder
	b.WriteString("### Fixture manifest\n\n")
	verdict := ""
	switch {
	case c.Frozen && c.Violations > 0:
		verdict = "❌ "
	case c.Clean() || (c.Frozen && c.Violations == 0):
		verdict = "✅ "
	}
	fmt.Fprintf(&b, "%s%s\n", verdict, escape.Markdown(c.Headline()))
	if c.Clean() {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n| | Fixture | Change |\n|---|---|---|\n")
	// The note after the table is at most this long.
	const noteRoom = 200
	rows, full := 0, false
	row := func(violation bool, what, change string) bool {
		flag := ""
		if violation {
			flag = "❌"
		}
		line := fmt.Sprintf("| %s | %s | %s |\n", flag, what, change)
		if full || b.Len()+len(line)+noteRoom > MaxMarkdownBytes {
			full = true
			return false
		}
		b.WriteString(line)
		rows++
		return true
	}
	for _, s := range c.Schemas {
		row(s.Violation, escape.Markdown(s.Which+" schema"),
			escape.Markdown(fmt.Sprintf("%s (sha256 %s) → %s (sha256 %s)", s.Recorded.Path, short(s.Recorded.SHA256), s.Current.Path, short(s.Current.SHA256))))
	}
	if c.CurrentVersion != "" {
		row(c.Frozen, "DRP2 version", escape.Markdown(c.DRP2Version+" → "+c.CurrentVersion))
	}
	// Violations first, so that a cut hides them last.
	listed, violationsLeft := 0, 0
	for pass := 0; pass < 2; pass++ {
		for i := range c.Changes {
			ch := &c.Changes[i]
			if ch.Violation != (pass == 0) {
				continue
			}
			if rows >= MaxMarkdownRows && !ch.Violation {
				continue
			}
			if row(ch.Violation, "<code>"+escape.Markdown(ch.Path)+"</code>", escape.Markdown(ch.describe())) {
				listed++
			} else if ch.Violation {
				violationsLeft++
			}
		}
	}
	if left := len(c.Changes) - listed; left > 0 {
		fmt.Fprintf(&b, "\n… and %d more change%s", left, plural(left))
		if violationsLeft > 0 {
			fmt.Fprintf(&b, " (%d of them breaking the freeze)", violationsLeft)
		}
		b.WriteString("; run `drp2-fixtures manifest check` for all of them.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the comparison as one JSON document.
func WriteJSON(w io.Writer, c *Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// Where names the files annotations point into.
type Where struct {
	// Fixture turns a corpus-relative fixture path into a repository path.
	Fixture func(rel string) string
	// Manifest is the manifest's repository path.
	Manifest string
}

// Annotations returns one failure annotation per violation of the freeze:
// on the fixture file where it changed (its expected block or commands),
// or on the manifest's entry for a removed fixture or a changed schema.
func Annotations(c *Comparison, where Where) []annotation.Annotation {
	var out []annotation.Annotation
	add := func(path string, span *model.Span, title, msg string) {
		a := annotation.Annotation{Path: path, StartLine: 1, EndLine: 1, Level: annotation.LevelFailure,
			Title: escape.OneLine(title), Message: msg}
		if span != nil {
			a.StartLine, a.EndLine = span.Line, span.EndLine
			if span.Line == span.EndLine {
				a.StartColumn, a.EndColumn = span.Column, span.EndColumn
			}
		}
		out = append(out, a)
	}
	version := c.DRP2Version
	for _, s := range c.Schemas {
		if s.Violation {
			add(where.Manifest, s.Span, "Frozen DRP2 "+version+" schema changed",
				fmt.Sprintf("The %s schema changed (sha256 %s → %s) while the manifest declares DRP2 %s frozen: a frozen version keeps its schema and fixtures together (VERSIONING.md). Put the change in a new version.",
					s.Which, short(s.Recorded.SHA256), short(s.Current.SHA256), version))
		}
	}
	for i := range c.Changes {
		ch := &c.Changes[i]
		if !ch.Violation {
			continue
		}
		path := where.Manifest
		if !ch.InManifest && where.Fixture != nil {
			path = where.Fixture(ch.Path)
		}
		add(path, ch.Span, "Frozen fixture "+string(ch.Kind)+": "+ch.Path,
			fmt.Sprintf("%s %s: %s, but the manifest declares DRP2 %s frozen, so its existing fixtures keep their stream and expectation (VERSIONING.md: patch changes must not change semantics). Add a new fixture instead, or record the change in a new version's manifest.",
				ch.Path, ch.Kind, ch.describe(), version))
	}
	return out
}
