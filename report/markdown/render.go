package markdown

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// layout says which parts a rendering has and how long its lists may be.
type layout struct {
	marker string // the sticky comment's marker line, or ""
	tables bool   // the failing-fixture tables
	// details: one block per failing fixture with the field comparison,
	// message, reason and fix.
	details bool
	fold    bool // wrap each section's details in <details>
	// findings and evidence are the least important parts: the first to
	// go when a report is too large. notes are what was not done and why.
	findings, evidence, notes bool
	// still: the folded tables of the fixtures whose verdict did not move
	// (still failing, passing with a changed file).
	still bool
	// compact is the comment that says what changed and what fails, one
	// row per cause, and leaves the detail to the check run and the job
	// summary, which it links.
	compact bool
	// timing adds the start time and duration to the evidence. The sticky
	// comment leaves them out: they change on every run, and the comment's
	// "changes" mode must see an unchanged result as an unchanged body.
	timing bool
	// selfLink: the rendering is the check run's own output, which need
	// not link to itself, nor repeat its title as a heading.
	selfLink bool
	// rows is the most rows in a failing-fixture table, changeRows in a
	// table of the comparison, findingRows in the findings; detailRows the
	// most detail blocks in any one section.
	rows, changeRows, findingRows, detailRows int
	// memo holds what fit renders once for every layout it tries; nil
	// renders everything afresh.
	memo *pieces
}

// pieces are the parts of a report whose text does not depend on how
// much of the report fits: the failing fixtures by section and cause, and
// each fixture's detail block and each cause's table row.
type pieces struct {
	sections map[bool][]section // by whether listedAbove applies
	blocks   map[*model.Result]string
	rows     map[*model.Result]string // by the cause's first fixture
}

// sectionsOf are sections(run, listedAbove(run, l)) (listed) or
// sections(run, nil), computed once per memo.
func sectionsOf(run *model.Run, l layout, listed bool) []section {
	skip := map[string]bool(nil)
	if listed {
		skip = listedAbove(run, l)
	}
	if l.memo == nil {
		return sections(run, skip)
	}
	if l.memo.sections == nil {
		l.memo.sections = map[bool][]section{}
	}
	secs, ok := l.memo.sections[listed]
	if !ok {
		secs = sections(run, skip)
		l.memo.sections[listed] = secs
	}
	return secs
}

func rowsOf(l layout) *map[*model.Result]string {
	if l.memo == nil {
		return nil
	}
	return &l.memo.rows
}

func blocksOf(l layout) *map[*model.Result]string {
	if l.memo == nil {
		return nil
	}
	return &l.memo.blocks
}

// once renders a piece keyed by r in *m, or afresh when m is nil (no
// memo).
func once(m *map[*model.Result]string, r *model.Result, write func(*strings.Builder)) string {
	if m != nil {
		if s, ok := (*m)[r]; ok {
			return s
		}
	}
	var b strings.Builder
	write(&b)
	if m != nil {
		if *m == nil {
			*m = map[*model.Result]string{}
		}
		(*m)[r] = b.String()
	}
	return b.String()
}

// section is one kind of failing fixtures.
type section struct {
	title   string
	results []*model.Result // in corpus order
	groups  []explain.Group // the results by cause, the largest first
	corpus  bool            // unusable fixtures: no expected-against-actual
}

// sections are the failing fixtures by kind, corpus errors first: a file
// the change broke is the likeliest cause of red. A cause is kept whole:
// schema negatives are apart unless they fail for a cause other fixtures
// share, which then reads as the one decision it is. The results in skip
// (by corpus path) are left out: the comparison lists them already.
func sections(run *model.Run, skip map[string]bool) []section {
	var failing, corpus []*model.Result
	for i := range run.Results {
		r := &run.Results[i]
		switch {
		case r.Passed || skip[r.RelPath] || r.DetailLeftOut:
			// A failure without its detail is counted (leftOut), not
			// listed: it cannot say its cause.
		case r.IsCorpusError():
			corpus = append(corpus, r)
		default:
			failing = append(failing, r)
		}
	}
	drp := section{title: "Failing fixtures"}
	schema := section{title: "Failing schema-negative fixtures"}
	in := map[*model.Result]*section{}
	for _, g := range explain.Groups(failing) {
		sec := &schema
		for _, r := range g.Results {
			if r.Class != model.ClassSchemaNegative {
				sec = &drp
			}
		}
		sec.groups = append(sec.groups, g)
		for _, r := range g.Results {
			in[r] = sec
		}
	}
	for _, r := range failing {
		in[r].results = append(in[r].results, r)
	}
	all := []section{{title: "Corpus errors", results: corpus, groups: explain.Groups(corpus), corpus: true}, drp, schema}
	var out []section
	for _, s := range all {
		if len(s.results) > 0 {
			if len(skip) > 0 {
				s.title += " not listed above"
			}
			out = append(out, s)
		}
	}
	return out
}

// listedAbove are the fixtures the compact comment's comparison lists
// (regressed, added and failing), by corpus path, so that no failure is
// listed twice; nil for any other rendering.
func listedAbove(run *model.Run, l layout) map[string]bool {
	c := run.Comparison
	if !l.compact || c == nil || c.Unavailable != "" {
		return nil
	}
	out := map[string]bool{}
	for _, ch := range c.Changes {
		if !folded[ch.Verdict] && ch.Head != nil && !ch.Head.Passed {
			out[ch.RelPath] = true
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
	for _, s := range sectionsOf(run, layout{}, false) {
		if len(s.results) > n {
			n = len(s.results)
		}
	}
	return n
}

// verdictText is the headline: the gate's verdict when the run was
// judged (it names implementations, manifests and bases, so it is
// escaped, as a sentence that stays readable in the raw Markdown), else
// the counts.
func verdictText(run *model.Run) string {
	if run.Judgement != nil {
		return "DRP2 conformance: " + escape.MarkdownText(explain.Judgement(run).Headline)
	}
	return "DRP2 conformance: " + explain.Verdict(&run.Summary)
}

// verdictIcon is the headline's icon: the judgement's, else the counts'.
func verdictIcon(j *model.Judgement, s *model.Summary) string {
	if j != nil {
		switch {
		case j.Failed:
			return "❌"
		case s.Run == 0:
			return "⚠️"
		}
		return "✅"
	}
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
	if l.marker != "" {
		b.WriteString(l.marker + "\n")
	}
	if l.tables {
		lead(&b, run, opts, l) // the delta against a baseline, first
		if !l.selfLink {
			// The check run shows its title above its summary already.
			fmt.Fprintf(&b, "### %s %s\n\n", verdictIcon(run.Judgement, &run.Summary), verdictText(run))
		}
		if line := provenance(opts, l.selfLink); line != "" {
			b.WriteString(line + "\n\n")
		}
		if l.compact {
			breakdown(&b, run, l)
		} else {
			counts(&b, run, l)
		}
	}
	for _, sec := range sectionsOf(run, l, true) {
		if l.tables {
			table(&b, run, sec, opts, l)
		}
		if l.details && !sec.corpus {
			details(&b, run, sec, opts, l)
		}
	}
	if n := run.Bounds.LeftOut; n > 0 {
		fmt.Fprintf(&b, "*… and %s.*\n\n", explain.MoreLeftOut(n, run.Summary.Failed-n))
	}
	if l.compact {
		elsewhere(&b, run, opts)
	}
	if l.findings {
		expectations(&b, run)
		findings(&b, run.Findings, l.findingRows)
	} else if n := len(run.Findings); n > 0 && l.tables && !l.compact {
		fmt.Fprintf(&b, "*%d corpus %s: %s.*\n\n", n, explain.Plural(n, "finding", "findings"), restWhere(opts, l.selfLink, "the JSON report"))
	}
	if l.evidence {
		evidence(&b, run, l.timing)
	}
	if l.notes {
		for _, note := range opts.Skipped {
			fmt.Fprintf(&b, "*%s*\n\n", escape.Markdown(escape.OneLine(note)))
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func counts(b *strings.Builder, run *model.Run, l layout) {
	s := &run.Summary
	b.WriteString("| Fixtures | Run | Passed | Failed |\n|:--|--:|--:|--:|\n")
	for _, c := range s.ByClass {
		fmt.Fprintf(b, "| %s | %d | %d | %d |\n", explain.ClassTitle(c.Class), c.Run, c.Passed, c.Failed)
	}
	fmt.Fprintf(b, "| **All** | **%d** | **%d** | **%d** |\n\n", s.Run, s.Passed, s.Failed)
	breakdown(b, run, l)
}

// breakdown is the one line under the counts: what the failures are, how
// many causes they have (one or many is the first thing a reviewer asks),
// how many fixtures there are and how many findings.
func breakdown(b *strings.Builder, run *model.Run, l layout) {
	s := &run.Summary
	var parts []string
	if bd := explain.Breakdown(s); bd != "" {
		parts = append(parts, "Failed: "+bd)
	}
	if s.Failed > 1 {
		n := 0
		for _, sec := range sectionsOf(run, l, false) {
			n += len(sec.groups)
		}
		causes := explain.Count(n, "cause", "causes")
		if left := run.Bounds.LeftOut; left > 0 {
			causes += fmt.Sprintf(" in the first %d", s.Failed-left)
		}
		parts = append(parts, causes)
	}
	if e := explain.Expectations(s); e != "" {
		parts = append(parts, e)
	}
	parts = append(parts, fmt.Sprintf("%d discovered", s.Discovered),
		fmt.Sprintf("%d %s", s.Findings, explain.Plural(s.Findings, "finding", "findings")))
	b.WriteString(strings.Join(parts, " · ") + "\n\n")
}

// expectations is the job summary's section on the expectations: the
// built-in validator's stale entries, and the expectations file the run
// wrote with its change as a diff.
func expectations(b *strings.Builder, run *model.Run) {
	var stale []string
	for i := range run.Results {
		if r := &run.Results[i]; r.Kind() == model.KindUnexpectedPass && len(stale) < maxStaleListed {
			stale = append(stale, "- "+code(r.RelPath)+": "+escape.Markdown(explain.StaleEntry(r)))
		}
	}
	u := run.ExpectationsUpdate
	if len(stale) == 0 && u == nil {
		return
	}
	b.WriteString("### Expectations\n\n")
	if n := run.Summary.UnexpectedPasses; n > 0 {
		fmt.Fprintf(b, "The built-in validator passed %d %s expected to fail:\n\n%s\n", n, explain.Plural(n, "fixture", "fixtures"), strings.Join(stale, "\n"))
		if n > len(stale) {
			fmt.Fprintf(b, "- …and %d more: the JSON report lists every one.\n", n-len(stale))
		}
		b.WriteString("\n")
	}
	if u == nil {
		return
	}
	if u.Diff == "" {
		fmt.Fprintf(b, "The expectations written to %s are unchanged.\n\n", code(u.File))
		return
	}
	fmt.Fprintf(b, "The expectations written to %s, as they should be after this run:\n\n%s\n", code(u.File),
		escape.MarkdownFenceLang("diff", escape.Clip(u.Diff, maxDiffChars)))
}

// Bounds of the expectations section: the JSON report and the written
// file hold the rest.
const (
	maxStaleListed = 20
	maxDiffChars   = 20000
)

// elsewhere closes the compact comment: where the detail is.
func elsewhere(b *strings.Builder, run *model.Run, opts Options) {
	var links []string
	if u := linkURL(opts.CheckRunURL); u != "" {
		links = append(links, "[the check run]("+u+")")
	}
	if u := linkURL(opts.WorkflowRunURL); u != "" && !opts.NoJobSummary {
		links = append(links, "[the job summary]("+u+")")
	}
	where := "the job summary and the JUnit report"
	if opts.NoJobSummary {
		where = "the check run and the JUnit report"
	}
	if len(links) > 0 {
		where = strings.Join(links, " and ")
	}
	var parts []string
	if run.Summary.Failed > 0 {
		parts = append(parts, "Each failing fixture's detail")
	}
	if n := run.Summary.Findings; n > 0 {
		parts = append(parts, fmt.Sprintf("the %d corpus %s", n, explain.Plural(n, "finding", "findings")))
	}
	if len(parts) == 0 {
		return // nothing failed, nothing to look at elsewhere
	}
	what := strings.Join(parts, " and ")
	what = strings.ToUpper(what[:1]) + what[1:]
	fmt.Fprintf(b, "%s: %s.\n\n", what, where)
}

// restWhere names where a part left out of a rendering can be read,
// linked when the options allow.
func restWhere(opts Options, selfLink bool, fallback string) string {
	var links []string
	if u := linkURL(opts.CheckRunURL); u != "" && !selfLink {
		links = append(links, "[the check run]("+u+")")
	}
	if u := linkURL(opts.WorkflowRunURL); u != "" && !opts.NoJobSummary {
		links = append(links, "[the job summary]("+u+")")
	}
	links = append(links, fallback)
	return "see " + strings.Join(links, ", ")
}

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
			escape.MarkdownCode(f.Path), escape.Markdown(escape.OneLine(f.Message)))
	}
	more(b, len(fs)-rows, "see the JSON report")
	b.WriteString("\n</details>\n\n")
}

func evidence(b *strings.Builder, run *model.Run, timing bool) {
	b.WriteString("<details><summary>Evidence</summary>\n\n")
	fmt.Fprintf(b, "- Corpus: %s\n", code(run.CorpusRoot))
	if run.CorpusDigest != "" {
		fmt.Fprintf(b, "- Corpus sha256: %s\n", code(run.CorpusDigest))
	}
	if sh := explain.Shard(run.Shard); sh != "" {
		// Words and numbers of the tool's own: nothing to escape.
		fmt.Fprintf(b, "- Shard: %s\n", sh)
	}
	if run.ToolVersion != "" {
		fmt.Fprintf(b, "- drp2-fixtures %s\n", code(run.ToolVersion))
	}
	schema := func(label string, s model.SchemaSource) {
		if s.Source != "" || s.SHA256 != "" {
			fmt.Fprintf(b, "- %s: %s, sha256 %s", label, code(s.Source), code(s.SHA256))
			if s.Closure != "" {
				// What the schema is: every file its compilation read.
				fmt.Fprintf(b, ", closure sha256 %s (%s)", code(s.Closure), explain.Count(len(s.Files), "file", "files"))
			}
			b.WriteString("\n")
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
	return escape.MarkdownCode(s)
}

// cell is a table cell: escaped, one line, clipped. Escaping covers '|'.
func cell(s string) string {
	return escape.Markdown(escape.OneLine(s))
}

func bold(s string) string {
	return "**" + cell(s) + "**"
}

// location is the fixture's "path:line", linked to the file at the head
// commit when the options allow it. The text is the path in the corpus:
// the corpus root, the same for every fixture, would only widen the
// column (the link and the reproduce line hold the whole path).
func location(r *model.Result, opts Options) string {
	text := wrap(corpusPath(r))
	if r.Span != nil && r.Span.Line > 0 {
		text += fmt.Sprintf(":%d", r.Span.Line)
	}
	if u := fileURL(r, opts); u != "" {
		return "[" + text + "](" + u + ")"
	}
	return text
}

// corpusPath is the result's path in the corpus, falling back to its
// display path.
func corpusPath(r *model.Result) string {
	if r.RelPath != "" {
		return strings.ReplaceAll(r.RelPath, `\`, "/")
	}
	return explain.DisplayPath(r)
}

// wrapRun is the most characters a path shows without a place to break.
const wrapRun = 16

// wrap escapes a path for a table cell with a <wbr> wherever it may break
// (after a slash, an underscore or a dot, and within any longer run of
// characters), so that a long path wraps in a narrow column instead of
// pushing the next one off a pull-request comment, whatever its length.
// Each piece is escaped on its own; no break falls after a '-' or a '#',
// which could leave an issue reference whole across it.
func wrap(p string) string { return breakable(p, "/_.", escape.Markdown) }

// breakable is s escaped piece by piece with esc, a <wbr> after each of
// the characters in after and within any longer run, as wrap says.
func breakable(s, after string, esc func(string) string) string {
	var pieces []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			pieces = append(pieces, esc(string(cur)))
			cur = cur[:0]
		}
	}
	run := 0
	runes := []rune(escape.OneLine(s))
	for i, c := range runes {
		cur = append(cur, c)
		run++
		switch {
		case c == ' ' || c == '@' || c == '-' && i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			// A space breaks a line already, and so does a hyphen
			// before a letter, and what either escaping puts after a
			// '@' (a zero-width space, a <wbr>).
			run = 0
		case strings.ContainsRune(after, c):
			flush()
			run = 0
		case run >= wrapRun && c != '-' && c != '#' && c != '@':
			flush()
			run = 0
		}
	}
	flush()
	return strings.Join(pieces, "<wbr>")
}

// fileURL links to the result's file and lines at opts.SHA, or returns ""
// when any part is missing or the path leaves the repository.
func fileURL(r *model.Result, opts Options) string {
	if opts.ServerURL == "" || opts.Repository == "" || opts.SHA == "" {
		return ""
	}
	base := serverBase(opts.ServerURL)
	if base == "" {
		return ""
	}
	p := explain.DisplayPath(r)
	clean := path.Clean(strings.TrimPrefix(p, "./"))
	if p == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return ""
	}
	segs := []string{repoPath(opts.Repository), "blob", url.PathEscape(opts.SHA)}
	for _, s := range strings.Split(clean, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	u := base + "/" + strings.Join(segs, "/")
	if sp := r.Span; sp != nil && sp.Line > 0 {
		u += fmt.Sprintf("#L%d", sp.Line)
		if sp.EndLine > sp.Line {
			u += fmt.Sprintf("-L%d", sp.EndLine)
		}
	}
	return destination(u)
}

// provenance is the line under the verdict that says which commit the
// report describes and links the check run and the workflow run; "" when
// the options name none of them.
func provenance(opts Options, self bool) string {
	var parts []string
	if sha := commitSHA(opts.SHA); sha != "" {
		short := "`" + sha[:7] + "`" // hex only: nothing to escape
		if base := serverBase(opts.ServerURL); base != "" && opts.Repository != "" {
			short = "[" + short + "](" + base + "/" + repoPath(opts.Repository) + "/commit/" + sha + ")"
		}
		parts = append(parts, "Commit "+short)
	}
	if u := linkURL(opts.CheckRunURL); u != "" && !self {
		parts = append(parts, "[Check run]("+u+")")
	}
	if u := linkURL(opts.WorkflowRunURL); u != "" {
		parts = append(parts, "[Workflow run]("+u+")")
	}
	return strings.Join(parts, " · ")
}

// commitSHA returns sha when it is a commit hash (7 to 64 hex digits), so
// that it can be shown and linked without escaping, and "" otherwise.
func commitSHA(sha string) string {
	if len(sha) < 7 || len(sha) > 64 {
		return ""
	}
	for _, c := range sha {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return ""
		}
	}
	return sha
}

// serverBase is ServerURL without a trailing slash when it is a plain
// http(s) origin or path, and "" otherwise.
func serverBase(server string) string {
	base, err := url.Parse(strings.TrimRight(server, "/"))
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" ||
		base.RawQuery != "" || base.Fragment != "" || base.User != nil {
		return ""
	}
	return base.String()
}

func repoPath(repo string) string {
	var segs []string
	for _, s := range strings.Split(repo, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	return strings.Join(segs, "/")
}

// linkURL returns u fit for a Markdown link destination when it is an
// absolute http(s) URL without credentials, and "" otherwise.
func linkURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.User != nil {
		return ""
	}
	return destination(p.String())
}

// destination escapes what url.URL.String leaves and a Markdown link
// destination cannot hold: an unbalanced parenthesis would end it.
func destination(u string) string { return destinationEscapes.Replace(u) }

// destinationEscapes is built once: a Replacer builds its tables on first
// use, and a report of thousands of fixtures links each of them.
var destinationEscapes = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E")
