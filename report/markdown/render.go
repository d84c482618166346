package markdown

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Caps on single untrusted values, in runes before escaping, so that no
// one fixture can fill a report by itself.
const (
	maxName    = 200
	maxPath    = 300
	maxCell    = 300
	maxMessage = 1000
	maxProse   = 2000
)

// layout says which parts a rendering has and how long its lists may be.
type layout struct {
	marker string // the sticky comment's marker line, or ""
	tables bool   // the failing-fixture tables
	// details: one block per failing fixture with the field comparison,
	// message, reason and fix.
	details bool
	fold    bool // wrap each section's details in <details>
	extras  bool // findings, evidence and notes
	// timing adds the start time and duration to the evidence. The sticky
	// comment leaves them out: they change on every run, and the comment's
	// "changes" mode must see an unchanged result as an unchanged body.
	timing bool
	// rows is the most rows in any one list (a table, the findings);
	// detailRows the most detail blocks in any one section.
	rows, detailRows int
}

// section is one group of failing fixtures.
type section struct {
	title   string
	results []*model.Result
	corpus  bool // unusable fixtures: no expected-against-actual
}

func sections(run *model.Run) []section {
	var drp, schema, corpus []*model.Result
	for i := range run.Results {
		r := &run.Results[i]
		switch {
		case r.Passed:
		case r.IsCorpusError():
			corpus = append(corpus, r)
		case r.Class == model.ClassSchemaNegative:
			schema = append(schema, r)
		default:
			drp = append(drp, r)
		}
	}
	all := []section{
		{title: "Failing fixtures", results: drp},
		{title: "Failing schema-negative fixtures", results: schema},
		{title: "Corpus errors", results: corpus, corpus: true},
	}
	var out []section
	for _, s := range all {
		if len(s.results) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// longestList is the length of the longest list a report can show.
func longestList(run *model.Run) int {
	n := len(run.Findings)
	if c := run.Comparison; c != nil && len(c.Changes) > n {
		n = len(c.Changes)
	}
	for _, s := range sections(run) {
		if len(s.results) > n {
			n = len(s.results)
		}
	}
	return n
}

func verdictText(s *model.Summary) string {
	switch {
	case s.Run == 0:
		return "DRP2 conformance: no fixtures run"
	case s.Failed > 0:
		return fmt.Sprintf("DRP2 conformance: %d of %d fixtures failed", s.Failed, s.Run)
	default:
		return fmt.Sprintf("DRP2 conformance: %d/%d fixtures passed", s.Passed, s.Run)
	}
}

func verdictIcon(s *model.Summary) string {
	switch {
	case s.Run == 0:
		return "⚠️"
	case s.Failed > 0:
		return "❌"
	default:
		return "✅"
	}
}

func render(run *model.Run, opts Options, l layout) string {
	var b strings.Builder
	s := &run.Summary
	if l.marker != "" {
		b.WriteString(l.marker + "\n")
	}
	if l.tables {
		lead(&b, run, opts, l.rows) // the delta against a baseline, first
	}
	if l.tables {
		fmt.Fprintf(&b, "### %s %s\n\n", verdictIcon(s), verdictText(s)) // our own words: no escaping
		counts(&b, s)
	}
	for _, sec := range sections(run) {
		if l.tables {
			table(&b, sec, opts, l.rows)
		}
		if l.details && !sec.corpus {
			details(&b, sec, opts, l)
		}
	}
	if l.extras {
		findings(&b, run.Findings, l.rows)
		evidence(&b, run, l.timing)
		for _, note := range opts.Skipped {
			fmt.Fprintf(&b, "*%s*\n\n", escape.Markdown(escape.OneLine(note)))
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func counts(b *strings.Builder, s *model.Summary) {
	b.WriteString("| Fixtures | Run | Passed | Failed |\n|:--|--:|--:|--:|\n")
	for _, c := range s.ByClass {
		fmt.Fprintf(b, "| %s | %d | %d | %d |\n", c.Class.Title(), c.Run, c.Passed, c.Failed)
	}
	fmt.Fprintf(b, "| **All** | **%d** | **%d** | **%d** |\n\n", s.Run, s.Passed, s.Failed)
	fmt.Fprintf(b, "%d discovered · %d %s · %d %s\n\n",
		s.Discovered, s.CorpusErrors, plural(s.CorpusErrors, "corpus error", "corpus errors"),
		s.Findings, plural(s.Findings, "finding", "findings"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func table(b *strings.Builder, sec section, opts Options, rows int) {
	fmt.Fprintf(b, "#### %s (%d)\n\n", sec.title, len(sec.results))
	if rows > 0 {
		if sec.corpus {
			b.WriteString("| Fixture | Problem |\n|:--|:--|\n")
		} else {
			b.WriteString("| Fixture | Expected | Actual |\n|:--|:--|:--|\n")
		}
	}
	for i, r := range sec.results {
		if i == rows {
			break
		}
		fixture := location(r, opts) + "<br>" + bold(explain.Name(r), maxName)
		if sec.corpus {
			fmt.Fprintf(b, "| %s | %s |\n", fixture, cell(explain.Headline(r), maxMessage))
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", fixture, cell(explain.ExpectedText(r), maxCell), cell(explain.ActualText(r), maxCell))
	}
	more(b, len(sec.results)-rows, "see the JUnit report or the job log")
	b.WriteString("\n")
}

func more(b *strings.Builder, n int, where string) {
	if n > 0 {
		fmt.Fprintf(b, "\n*… and %d more: %s.*\n", n, where)
	}
}

func details(b *strings.Builder, sec section, opts Options, l layout) {
	n := len(sec.results)
	if l.detailRows < n {
		n = l.detailRows
	}
	if n == 0 && l.fold {
		return
	}
	if l.fold {
		// "12 of 88" when the size limit folded some away, so that the
		// count does not read as the number of failures.
		count := fmt.Sprint(n)
		if n < len(sec.results) {
			count = fmt.Sprintf("%d of %d", n, len(sec.results))
		}
		fmt.Fprintf(b, "<details><summary>Details: %s (%s)</summary>\n\n", escape.HTML(strings.ToLower(sec.title[:1])+sec.title[1:]), count)
	} else {
		fmt.Fprintf(b, "### %s (%d)\n\n", sec.title, len(sec.results))
	}
	for _, r := range sec.results[:n] {
		fixture(b, r, opts)
	}
	if l.fold {
		b.WriteString("</details>\n\n")
	}
	if !l.tables {
		more(b, len(sec.results)-n, "see the job summary or the JUnit report")
		b.WriteString("\n")
	}
}

func fixture(b *strings.Builder, r *model.Result, opts Options) {
	fmt.Fprintf(b, "%s — %s\n\n", bold(explain.Name(r), maxName), location(r, opts))
	b.WriteString("| Field | Expected | Actual |\n|:--|:--|:--|\n")
	for _, f := range explain.Fields(r) {
		act := cell(f.Actual, maxCell)
		switch {
		case f.Differs:
			act = "**" + act + "** ✗"
		case !f.Compared:
			act += " (not required)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", f.Name, cell(f.Expected, maxCell), act)
	}
	b.WriteString("\n")
	item := func(label, text string, max int) {
		if text != "" {
			fmt.Fprintf(b, "- **%s:** %s\n", label, escape.Markdown(escape.Clip(escape.OneLine(text), max)))
		}
	}
	item("Message", r.Actual.Message, maxMessage)
	item("Reason", r.Reason, maxProse)
	item("Fix", r.Fix, maxProse)
	for _, d := range r.Diagnostics {
		item("Diagnostic", d.Source+": "+d.Message, maxMessage)
	}
	b.WriteString("\n")
}

func findings(b *strings.Builder, fs []model.Finding, rows int) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(b, "<details><summary>Corpus findings (%d)</summary>\n\n", len(fs))
	for i, f := range fs {
		if i == rows {
			break
		}
		fmt.Fprintf(b, "- **%s** %s: %s\n", escape.Markdown(explain.FindingTitle(f.Kind)),
			escape.MarkdownCode(escape.Clip(f.Path, maxPath)), escape.Markdown(escape.Clip(escape.OneLine(f.Message), maxMessage)))
	}
	more(b, len(fs)-rows, "see the JSON report")
	b.WriteString("\n</details>\n\n")
}

func evidence(b *strings.Builder, run *model.Run, timing bool) {
	b.WriteString("<details><summary>Evidence</summary>\n\n")
	fmt.Fprintf(b, "- Corpus: %s\n", code(run.CorpusRoot))
	schema := func(label string, s model.SchemaSource) {
		if s.Source != "" || s.SHA256 != "" {
			fmt.Fprintf(b, "- %s: %s, sha256 %s\n", label, code(s.Source), code(s.SHA256))
		}
	}
	schema("Command schema", run.CommandSchema)
	schema("Fixture schema", run.FixtureSchema)
	if timing && !run.Started.IsZero() {
		fmt.Fprintf(b, "- Started: %s, took %s\n", run.Started.UTC().Format(time.RFC3339), run.Duration.Round(time.Millisecond))
	}
	b.WriteString("\n</details>\n\n")
}

func code(s string) string {
	if s == "" {
		return explain.Absent
	}
	return escape.MarkdownCode(escape.Clip(s, maxPath))
}

// cell is a table cell: escaped, one line, clipped. Escaping covers '|'.
func cell(s string, max int) string {
	return escape.Markdown(escape.Clip(escape.OneLine(s), max))
}

func bold(s string, max int) string {
	return "**" + cell(s, max) + "**"
}

// location is the fixture's "path:line", linked to the file at the head
// commit when the options allow it.
func location(r *model.Result, opts Options) string {
	text := cell(explain.DisplayPath(r), maxPath)
	if r.Span != nil && r.Span.Line > 0 {
		text += fmt.Sprintf(":%d", r.Span.Line)
	}
	if u := fileURL(r, opts); u != "" {
		return "[" + text + "](" + u + ")"
	}
	return text
}

// fileURL links to the result's file and lines at opts.SHA, or returns ""
// when any part is missing or the path leaves the repository.
func fileURL(r *model.Result, opts Options) string {
	if opts.ServerURL == "" || opts.Repository == "" || opts.SHA == "" {
		return ""
	}
	base, err := url.Parse(strings.TrimRight(opts.ServerURL, "/"))
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" ||
		base.RawQuery != "" || base.Fragment != "" || base.User != nil {
		return ""
	}
	p := explain.DisplayPath(r)
	clean := path.Clean(strings.TrimPrefix(p, "./"))
	if p == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return ""
	}
	var segs []string
	for _, s := range strings.Split(opts.Repository, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	segs = append(segs, "blob", url.PathEscape(opts.SHA))
	for _, s := range strings.Split(clean, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	u := base.String() + "/" + strings.Join(segs, "/")
	if sp := r.Span; sp != nil && sp.Line > 0 {
		u += fmt.Sprintf("#L%d", sp.Line)
		if sp.EndLine > sp.Line {
			u += fmt.Sprintf("-L%d", sp.EndLine)
		}
	}
	// url.URL.String escapes what a Markdown link destination cannot
	// hold (spaces, '<', '>'); parentheses are escaped here because an
	// unbalanced one would end the destination.
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(u)
}
