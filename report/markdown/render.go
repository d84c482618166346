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
}

// section is one group of failing fixtures.
type section struct {
	title   string
	results []*model.Result
	corpus  bool // unusable fixtures: no expected-against-actual
}

// sections are the failing fixtures by kind, corpus errors first: a file
// the change broke is the likeliest cause of red.
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
		{title: "Corpus errors", results: corpus, corpus: true},
		{title: "Failing fixtures", results: drp},
		{title: "Failing schema-negative fixtures", results: schema},
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

func verdictIcon(run *model.Run) string {
	s := &run.Summary
	if j := run.Judgement; j != nil {
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
	s := &run.Summary
	if l.marker != "" {
		b.WriteString(l.marker + "\n")
	}
	if l.tables {
		lead(&b, run, opts, l) // the delta against a baseline, first
		if !l.selfLink {
			// The check run shows its title above its summary already.
			fmt.Fprintf(&b, "### %s %s\n\n", verdictIcon(run), verdictText(run))
		}
		if line := provenance(opts, l.selfLink); line != "" {
			b.WriteString(line + "\n\n")
		}
		if l.compact {
			breakdown(&b, s)
		} else {
			counts(&b, s)
		}
	}
	for _, sec := range sections(run) {
		if l.tables {
			table(&b, run, sec, opts, l)
		}
		if l.details && !sec.corpus {
			details(&b, sec, opts, l)
		}
	}
	if l.compact {
		elsewhere(&b, run, opts)
	}
	if l.findings {
		findings(&b, run.Findings, l.findingRows)
	} else if n := len(run.Findings); n > 0 && l.tables && !l.compact {
		fmt.Fprintf(&b, "*%d corpus %s: %s.*\n\n", n, explain.Plural(n, "finding", "findings"), restWhere(opts, l, "the JSON report"))
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

func counts(b *strings.Builder, s *model.Summary) {
	b.WriteString("| Fixtures | Run | Passed | Failed |\n|:--|--:|--:|--:|\n")
	for _, c := range s.ByClass {
		fmt.Fprintf(b, "| %s | %d | %d | %d |\n", explain.ClassTitle(c.Class), c.Run, c.Passed, c.Failed)
	}
	fmt.Fprintf(b, "| **All** | **%d** | **%d** | **%d** |\n\n", s.Run, s.Passed, s.Failed)
	breakdown(b, s)
}

// breakdown is the one line under the counts: what the failures are, how
// many fixtures there are and how many findings.
func breakdown(b *strings.Builder, s *model.Summary) {
	var parts []string
	if bd := explain.Breakdown(s); bd != "" {
		parts = append(parts, "Failed: "+bd)
	}
	parts = append(parts, fmt.Sprintf("%d discovered", s.Discovered),
		fmt.Sprintf("%d %s", s.Findings, explain.Plural(s.Findings, "finding", "findings")))
	b.WriteString(strings.Join(parts, " · ") + "\n\n")
}

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
func restWhere(opts Options, l layout, fallback string) string {
	var links []string
	if u := linkURL(opts.CheckRunURL); u != "" && !l.selfLink {
		links = append(links, "[the check run]("+u+")")
	}
	if u := linkURL(opts.WorkflowRunURL); u != "" && !opts.NoJobSummary {
		links = append(links, "[the job summary]("+u+")")
	}
	links = append(links, fallback)
	return "see " + strings.Join(links, ", ")
}

// table lists a section's fixtures, one row per cause: a fixture alone,
// or the fixtures that fail by one rule with one wrong result, listed in
// one cell. The path is linked at its line (with the name, when it is not
// the file name), then only what differs, the tool's reason and the one
// command that reproduces the row. Two columns whose text wraps keep the
// table within the width of a pull-request comment.
func table(b *strings.Builder, run *model.Run, sec section, opts Options, l layout) {
	fmt.Fprintf(b, "#### %s (%d)\n\n", sec.title, len(sec.results))
	groups := explain.Groups(sec.results)
	if l.rows > 0 {
		if sec.corpus {
			b.WriteString("| Fixture | Problem |\n|:--|:--|\n")
		} else {
			b.WriteString("| Fixture | Mismatch |\n|:--|:--|\n")
		}
	}
	shown := 0
	for i, g := range groups {
		if i == l.rows {
			break
		}
		shown += len(g.Results)
		if len(g.Results) > 1 {
			groupRow(b, run, g, opts, l)
			continue
		}
		r := g.Results[0]
		fixture := location(r, opts)
		if n := explain.ShownName(r); n != "" {
			fixture += "<br>" + cell(n)
		}
		var what string
		if sec.corpus {
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
	more(b, len(sec.results)-shown, restWhere(opts, l, "the JUnit report"))
	b.WriteString("\n")
}

// maxGroupListed is the most fixtures one group's cell lists; the JUnit
// report and the job summary have every one.
const maxGroupListed = 20

func groupRow(b *strings.Builder, run *model.Run, g explain.Group, opts Options, l layout) {
	// The fixtures are listed under the cause, in the wide column, so that
	// a long group does not make a tall narrow one.
	var locs []string
	for i, r := range g.Results {
		if i == maxGroupListed {
			locs = append(locs, fmt.Sprintf("*… and %d more*", len(g.Results)-i))
			break
		}
		locs = append(locs, location(r, opts))
	}
	fixture := fmt.Sprintf("**%d fixtures**", len(g.Results))
	what := bold(g.Cause()) + knownCell(g.Results[0]) + "<br>" + strings.Join(locs, " · ") + "<br>" + reproduce(run, g)
	fmt.Fprintf(b, "| %s | %s |\n", fixture, what)
}

// knownCell marks a known failure in a table cell, with its reason.
func knownCell(r *model.Result) string {
	if r.KnownFailure == "" {
		return ""
	}
	return "<br>*Known failure:* " + cell(escape.Cap(r.KnownFailure, maxWhy))
}

// maxReproduced is the most fixtures a row's command reruns: one cause
// shows in any of them, and a command stays short enough to paste.
const maxReproduced = 3

// reproduce is the command that reruns a row's fixtures, in a cell.
func reproduce(run *model.Run, g explain.Group) string {
	paths := g.Paths()
	label := "Reproduce: "
	if len(paths) > maxReproduced {
		paths = paths[:maxReproduced]
		label = fmt.Sprintf("Reproduce (the first %d): ", maxReproduced)
	}
	return label + codeCell(explain.Reproduce(run.ToolVersion, paths))
}

// codeCell is s as a code span in a table cell, to be copied as it is: a
// code span keeps its text literal (no zero-width space breaks a mention
// there, since GitHub links none in code), and GFM takes "\|" inside it
// as a '|' that does not end the cell.
func codeCell(s string) string {
	return strings.ReplaceAll(escape.MarkdownCode(s), "|", `\|`)
}

// maxWhy keeps the tool's reason in a table row to a few lines; the whole
// message is in the fixture's details.
const maxWhy = 300

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
	if run.ToolVersion != "" {
		fmt.Fprintf(b, "- drp2-fixtures %s\n", code(run.ToolVersion))
	}
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
// commit when the options allow it.
func location(r *model.Result, opts Options) string {
	text := wrap(explain.DisplayPath(r))
	if r.Span != nil && r.Span.Line > 0 {
		text += fmt.Sprintf(":%d", r.Span.Line)
	}
	if u := fileURL(r, opts); u != "" {
		return "[" + text + "](" + u + ")"
	}
	return text
}

// wrapRun is the most characters a path shows without a place to break.
const wrapRun = 16

// wrap escapes a path for a table cell with a <wbr> wherever it may break
// (after a slash, an underscore or a dot, and within any longer run of
// characters), so that a long path wraps in a narrow column instead of
// pushing the next one off a pull-request comment, whatever its length.
// Each piece is escaped on its own; no break falls after a '-' or a '#',
// which could leave an issue reference whole across it.
func wrap(p string) string {
	var pieces []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			pieces = append(pieces, escape.Markdown(string(cur)))
			cur = cur[:0]
		}
	}
	run := 0
	for _, c := range escape.OneLine(p) {
		cur = append(cur, c)
		run++
		switch {
		case c == '/' || c == '_' || c == '.':
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
