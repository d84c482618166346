package markdown

// The failing fixtures in a report: a table row per cause, each fixture
// in detail, and the cells they are made of.

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// table lists a section's fixtures, one row per cause: a fixture alone,
// or the fixtures that fail alike, counted, with their one message and a
// few of them linked. The path is linked at its line (with the name, when
// it is not the file name), then only what differs, the tool's reason and
// the one command that reproduces the row. Two columns whose text wraps
// keep the table within the width of a pull-request comment.
func table(b *strings.Builder, run *model.Run, sec section, opts Options, l layout) {
	fmt.Fprintf(b, "#### %s (%s)\n\n", sec.title, sectionCount(run, sec))
	rows := l.rows
	if l.compact {
		rows = min(rows, maxCompactCauses)
	}
	if rows > 0 {
		if sec.corpus {
			b.WriteString("| Fixture | Problem |\n|:--|:--|\n")
		} else {
			b.WriteString("| Fixture | Mismatch |\n|:--|:--|\n")
		}
	}
	shown := 0
	for i, g := range sec.groups {
		if i == rows {
			break
		}
		shown += len(g.Results)
		b.WriteString(once(rowsOf(l), g.Results[0], func(b *strings.Builder) {
			if len(g.Results) > 1 {
				groupRow(b, run, g, opts, l)
			} else {
				singleRow(b, run, g, sec.corpus, opts)
			}
		}))
	}
	rest := len(sec.results) - shown
	if causes := len(sec.groups) - rows; rest > 0 && causes > 1 {
		fmt.Fprintf(b, "\n*… and %d more, of %d other causes: %s.*\n", rest, causes, restWhere(opts, l.selfLink, "the JUnit report"))
	} else {
		more(b, rest, restWhere(opts, l.selfLink, "the JUnit report"))
	}
	b.WriteString("\n")
}

// sectionCount is how many fixtures a section lists, and when failures
// were counted without their detail, of how many given in full.
func sectionCount(run *model.Run, sec section) string {
	if left := run.Bounds.LeftOut; left > 0 {
		return fmt.Sprintf("%d of the first %d", len(sec.results), run.Summary.Failed-left)
	}
	return fmt.Sprint(len(sec.results))
}

// maxCompactCauses is the most rows a table of the compact comment has:
// whatever the number of failures, a reviewer sees at a glance whether
// there is one cause or many, and the check run lists the rest.
const maxCompactCauses = 8

// singleRow is one failing fixture's row.
func singleRow(b *strings.Builder, run *model.Run, g explain.Group, corpus bool, opts Options) {
	r := g.Results[0]
	fixture := location(r, opts)
	if n := explain.ShownName(r); n != "" {
		fixture += "<br>" + cell(n)
	}
	var what string
	if corpus {
		// The section says it is a corpus error; the cell says which.
		what = cell(r.Actual.Message)
	} else {
		// What differs in bold, the tool's reason plain below it.
		var diffs []string
		for _, d := range explain.Differences(r) {
			diffs = append(diffs, bold(d))
		}
		what = strings.Join(diffs, "<br>")
		if why := explain.Why(r); why != "" {
			what += "<br>" + cell(escape.Cap(why, maxWhy))
		}
		what += knownCell(r) + "<br>" + reproduce(run, g)
	}
	fmt.Fprintf(b, "| %s | %s |\n", fixture, what)
}

// maxGroupListed is the most fixtures one group's cell lists; the JUnit
// report and the job summary have every one. The compact comment links
// maxCompactListed, enough to open one or two.
const (
	maxGroupListed   = 20
	maxCompactListed = 3
)

// firstOf shows the first max of n items, then how many more there are.
func firstOf(n, max int, show func(i int) string) []string {
	out := make([]string, 0, min(n, max+1))
	for i := 0; i < n; i++ {
		if i == max {
			return append(out, fmt.Sprintf("*and %d more*", n-i))
		}
		out = append(out, show(i))
	}
	return out
}

// groupRow is the row of fixtures that fail for one cause: their number,
// what differs, their one message, some of them linked and the command
// that reproduces the first.
func groupRow(b *strings.Builder, run *model.Run, g explain.Group, opts Options, l layout) {
	// The fixtures are listed under the cause, in the wide column, so that
	// a long group does not make a tall narrow one.
	listed := maxGroupListed
	if l.compact {
		listed = maxCompactListed
	}
	locs := firstOf(len(g.Results), listed, func(i int) string { return location(g.Results[i], opts) })
	fixture := fmt.Sprintf("**%d fixtures**", len(g.Results))
	what := bold(g.Cause())
	if why := g.Why(); why != "" {
		what += "<br>" + cell(escape.Cap(why, maxWhy))
	}
	what += knownCell(g.Results[0]) + "<br>" + strings.Join(locs, " · ") + "<br>" + reproduce(run, g)
	fmt.Fprintf(b, "| %s | %s |\n", fixture, what)
}

// knownCell marks a known failure in a table cell, with its reason.
func knownCell(r *model.Result) string {
	if r.KnownFailure == "" {
		return ""
	}
	return "<br>*Known failure:* " + cell(escape.Cap(r.KnownFailure, maxWhy))
}

// reproduce is the command that reruns a row's fixtures, in a cell: the
// first fixture alone when the row has more, since one cause shows in any
// of them and a command stays short enough to paste.
func reproduce(run *model.Run, g explain.Group) string {
	paths := g.Paths()
	label := "Reproduce: "
	if len(paths) > 1 {
		paths = paths[:1]
		label = "Reproduce (the first): "
	}
	return label + codeCell(explain.Reproduce(run.ToolVersion, paths))
}

// codeCell is s as code that may wrap, in a table cell or anywhere: a
// <code> element, since a code span cannot hold the <wbr> that lets a
// long path break, with its text escaped to copy as it is.
func codeCell(s string) string {
	// Not after a dot: "v1.2.3" reads better whole.
	return "<code>" + breakable(s, "/_", escape.CodeText) + "</code>"
}

// maxWhy keeps the tool's reason in a table row to a few lines; the whole
// message is in the fixture's details.
const maxWhy = 300

func more(b *strings.Builder, n int, where string) {
	if n > 0 {
		fmt.Fprintf(b, "\n*… and %d more: %s.*\n", n, where)
	}
}

func details(b *strings.Builder, run *model.Run, sec section, opts Options, l layout) {
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
		fmt.Fprintf(b, "### %s (%s)\n\n", sec.title, sectionCount(run, sec))
	}
	for _, r := range sec.results[:n] {
		b.WriteString(once(blocksOf(l), r, func(b *strings.Builder) { fixture(b, r, opts) }))
	}
	if l.fold {
		b.WriteString("</details>\n\n")
	}
	if !l.tables {
		more(b, len(sec.results)-n, "see the job summary or the JUnit report")
		b.WriteString("\n")
	}
}

// fixture is one failing fixture in detail: the head line, then the whole
// expected and actual results, the tool's reason and rule, and the
// fixture's own reason and fix, labelled as the fixture's.
func fixture(b *strings.Builder, r *model.Result, opts Options) {
	head := location(r, opts)
	if n := explain.ShownName(r); n != "" {
		head = bold(n) + " — " + head
	}
	b.WriteString(head + "\n\n")
	item := func(label, text string) {
		if text != "" {
			fmt.Fprintf(b, "- **%s:** %s\n", label, cell(text))
		}
	}
	item("Expected", explain.ExpectedText(r))
	item("Got", explain.ActualText(r))
	item("Message", explain.Message(r))
	item("Rule", r.Actual.Rule)
	item("Known failure", r.KnownFailure)
	item("Fixture's reason", r.Reason)
	item("Fixture's fix", r.Fix)
	for _, d := range r.Diagnostics {
		item("Diagnostic", d.Source+": "+d.Message)
	}
	b.WriteString("\n")
}

func code(s string) string {
	if s == "" {
		return explain.Absent
	}
	return escape.MarkdownCode(s)
}

// cell is a table cell: escaped, one line, clipped. Escaping covers '|'.
func cell(s string) string {
	return escape.Markdown(escape.OneLine(s))
}

func bold(s string) string {
	return "**" + cell(s) + "**"
}
