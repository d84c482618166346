package markdown

import (
	"fmt"
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
	// slowest adds the slowest fixtures of the validator and of each
	// implementation (the job summary's, when the fixtures took time).
	slowest bool
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
		if rr := run.Rerun; rr != nil {
			// What the counts above hold of the earlier report.
			fmt.Fprintf(&b, "*%s.*\n\n", explain.Rerun(rr, code(rr.From), opts.Attempt))
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
	if l.slowest && l.evidence {
		slowest(&b, run)
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

// slowest is a folded table of the slowest fixtures of the validator and
// of each implementation, as gotestsum's slowest tool lists tests; none
// when the fixtures took no time (SOURCE_DATE_EPOCH stops the clock).
func slowest(b *strings.Builder, run *model.Run) {
	slow := explain.Slowest(run, explain.SlowestShown)
	if len(slow) == 0 {
		return
	}
	b.WriteString("<details><summary>Slowest fixtures</summary>\n\n")
	for _, s := range slow {
		fmt.Fprintf(b, "%s%s:\n\n| Fixture | Took |\n|---|---:|\n", escape.Markdown(escape.OneLine(s.Who)), explain.InAll(s.Total))
		for _, r := range s.Results {
			fmt.Fprintf(b, "| %s | %s |\n", codeCell(explain.DisplayPath(r)), explain.Took(r.Duration))
		}
		b.WriteString("\n")
	}
	b.WriteString("</details>\n\n")
}
