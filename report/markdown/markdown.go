// Package markdown renders a run as GitHub Flavored Markdown for the three
// places people read it on GitHub: the job summary, the sticky pull-request
// comment and the check-run output. All three open with a one-line verdict
// and a counts table, then list the failing fixtures, schema negatives
// apart, with details folded under <details>.
//
// Each output has a hard size limit. When a report would exceed it, the
// renderer drops whole parts, least important first (findings, evidence,
// per-fixture details, unchanged verdicts, then rows), and says where the
// rest is; it never cuts inside an element.
//
// testdata/comment.html is the sample comment as cmark-gfm renders it, to
// look at in a browser; "go test ./report/markdown -update" regenerates it
// (and every golden file) when cmark-gfm is installed.
package markdown

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// maxSummaryBytes: half of GitHub's job summary limit, which leaves room
// for anything else the step appends.
const maxSummaryBytes = escape.StepSummaryBytes / 2

// Options carries what the renderers cannot know from the run.
type Options struct {
	// Attempt is the workflow run's attempt (GITHUB_RUN_ATTEMPT), which a
	// re-run of what failed names; 0 outside Actions.
	Attempt int
	// ServerURL, Repository and SHA link file paths to the file at the PR
	// head commit, when all three are set ("https://github.com",
	// "owner/repo", the head SHA). SHA is also the commit the report says
	// it describes, under the verdict.
	ServerURL, Repository, SHA string
	// CheckRunURL and WorkflowRunURL are linked under the verdict when set
	// (the check run's html_url; $GITHUB_SERVER_URL/$GITHUB_REPOSITORY/
	// actions/runs/$GITHUB_RUN_ID). The check run's own output leaves out
	// the link to itself. Anything but an http(s) URL is ignored.
	CheckRunURL, WorkflowRunURL string
	// CorpusKey identifies the corpus in the sticky comment's marker, so
	// that two corpora checked in one pull request keep two comments.
	CorpusKey string
	// Skipped are notes about what was not done and why, such as "PR
	// comment skipped: fork pull request, token is read-only".
	Skipped []string
	// FullComment makes the sticky comment the whole report instead of
	// the compact one (see Comment).
	FullComment bool
	// NoJobSummary: the run writes no job summary, so no report sends
	// readers there.
	NoJobSummary bool
	// WholeReport is where the whole report can be read (the JSON report
	// file), named by a Report too large for the job summary.
	WholeReport string
	// ImagesFolder is the folder the run wrote its Level 3 actual and
	// diff images below (--images-out), as the user named it; the
	// reports name each image by its path there.
	ImagesFolder string
}

// WriteSummary writes the job summary: the full report, at most
// maxSummaryBytes long.
func WriteSummary(w io.Writer, run *model.Run, opts Options) error {
	if run == nil {
		return fmt.Errorf("write job summary: no run")
	}
	if _, err := io.WriteString(w, Summary(run, opts)); err != nil {
		return fmt.Errorf("write job summary: %w", err)
	}
	return nil
}

// Summary is the job summary's Markdown: the full report, at most
// maxSummaryBytes long. It is also what a user who posts the report
// somewhere else takes (a step output, a file).
func Summary(run *model.Run, opts Options) string {
	if run == nil {
		run = &model.Run{}
	}
	l := full()
	l.timing, l.slowest = true, true
	return fit(run, opts, l, func(s string) bool { return len(s) <= maxSummaryBytes })
}

// full is the layout of a whole report: every part there is.
func full() layout {
	return layout{tables: true, details: true, fold: true, findings: true, evidence: true, notes: true, still: true}
}

// Comment returns the body of the sticky pull-request comment: Marker
// first, then the report, at most escape.CommentChars characters. The body
// depends on the results alone, not on when the run happened, so that two
// runs with the same results give the same comment.
//
// The comment is compact unless opts.FullComment: the verdict, the delta
// against the base, one row per failing cause with the command that
// reproduces it, and links to the check run and the job summary, which
// hold each fixture's detail, the findings and the evidence.
func Comment(run *model.Run, opts Options) string {
	if run == nil {
		run = &model.Run{}
	}
	l := full()
	l.marker = Marker(opts.CorpusKey)
	if !opts.FullComment {
		l.compact, l.details, l.findings, l.evidence, l.still = true, false, false, false, false
	}
	return withManifest(fit(run, opts, l, func(s string) bool { return fitsComment(s) }), run.Manifest)
}

// fitsComment reports whether parts, one after the other, fit in a comment:
// at most escape.CommentChars characters.
func fitsComment(parts ...string) bool {
	n := 0
	for _, p := range parts {
		n += utf8.RuneCountInString(p)
	}
	return n <= escape.CommentChars
}

// CheckOutput returns the check-run output: a title (the verdict), a
// summary (counts, the failing fixtures, findings and evidence) and a text
// (each failing fixture in detail). Summary and text are each at most
// escape.CheckOutputBytes bytes. GitHub shows the title above the summary,
// so the summary does not repeat it.
func CheckOutput(run *model.Run, opts Options) (title, summary, text string) {
	if run == nil {
		run = &model.Run{}
	}
	title = "DRP2 conformance: " + explain.Verdict(&run.Summary)
	if run.Judgement != nil {
		title = "DRP2 conformance: " + explain.Judgement(run).Headline // plain text: OneLine below
	}
	if h := explain.ComparisonHeadline(run.Comparison); h != "" && (run.Judgement == nil || !explain.ComparedInHeadline(run.Judgement)) {
		// What this pull request changed is what a reviewer scans for,
		// unless the verdict's headline names it already.
		title += "; " + h
	}
	title = escape.Clip(escape.OneLine(title), escape.CheckTitleChars)
	fits := func(s string) bool { return len(s) <= escape.CheckOutputBytes }
	l := full()
	l.details, l.timing, l.selfLink = false, true, true
	summary = fit(run, opts, l, fits)
	// A broken freeze (or any difference under --check-clean) that fails
	// the run is shown where the failures are
	// read in detail; the fixtures' details make room for it.
	section := ""
	if m := run.Manifest; m != nil && m.Fails() && (run.Judgement == nil || run.Judgement.Failed) {
		var b strings.Builder
		Manifest(&b, m) // into memory: cannot fail
		section = b.String()
	}
	if run.Summary.Failed > 0 {
		text = fit(run, opts, layout{details: true}, func(s string) bool { return len(s)+1+len(section) <= escape.CheckOutputBytes })
	}
	if section != "" {
		if text != "" {
			text += "\n"
		}
		text += section
	}
	return title, summary, text
}

// Marker is the hidden first line that identifies the sticky comment for
// corpusKey. The key is reduced to characters that cannot end an HTML
// comment or hide anything; the rest are percent-encoded.
func Marker(corpusKey string) string {
	if corpusKey == "" {
		corpusKey = "default"
	}
	var b strings.Builder
	for i := 0; i < len(corpusKey); i++ {
		c := corpusKey[i]
		safe := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '/' ||
			// A single '-' is safe; "--" could end the comment.
			c == '-' && (i == 0 || corpusKey[i-1] != '-')
		if safe {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return "<!-- drp2-fixtures:comment:" + b.String() + " -->"
}

// fit renders with the fullest layout that passes ok, dropping whole parts
// from the least important: the findings, then the evidence, then each
// fixture's detail (fewer blocks, then none), then the tables of fixtures
// whose verdict did not move, and only then rows of the tables. Every part left out says where
// it can be read. The last resort, a report whose fixed parts alone are too
// large, is cut between lines with every open element closed.
func fit(run *model.Run, opts Options, full layout, ok func(string) bool) string {
	// No list is longer than the failures the reports give in full: the
	// search below then costs the same at 50,000 fixtures as at 1,000.
	total := min(longestList(run), escape.FullFailures)
	l := full
	l.rows, l.changeRows, l.findingRows, l.detailRows = total, total, total, total
	// Each fixture's block and row is rendered once (pieces), and each
	// layout tried is assembled once: the search measures what it tried,
	// and the layout it settles on is the one it measured.
	l.memo = &pieces{}
	tried := map[layout]string{}
	render := func(run *model.Run, opts Options, l layout) string {
		if s, ok := tried[l]; ok {
			return s
		}
		s := render(run, opts, l)
		tried[l] = s
		return s
	}
	try := func(l layout) bool { return ok(render(run, opts, l)) }
	if try(l) {
		return render(run, opts, l)
	}
	for _, drop := range []func(*layout){
		func(l *layout) { l.findings = false },
		func(l *layout) { l.evidence = false },
	} {
		drop(&l)
		if try(l) {
			return render(run, opts, l)
		}
	}
	if l.tables && l.details {
		// Fold detail: every table row stays, fewer fixtures keep
		// their detail block.
		n := search(total, func(n int) bool { l.detailRows = n; return try(l) })
		if n >= 0 {
			l.detailRows = n
			return render(run, opts, l)
		}
		l.detailRows, l.details = 0, false
	}
	if l.still {
		l.still = false
		if try(l) {
			return render(run, opts, l)
		}
	}
	// Then list fewer fixtures, in the comparison's tables and the
	// failing ones alike. A layout without tables (the check-run text)
	// lists fixtures by their details alone.
	limit := func(n int) {
		l.rows, l.changeRows = n, n
		if !l.tables {
			l.detailRows = n
		}
	}
	if n := search(total, func(n int) bool { limit(n); return try(l) }); n >= 0 {
		limit(n)
		return render(run, opts, l)
	}
	limit(0)
	return cut(render(run, opts, l), ok)
}

// search returns the largest n in [0, max] for which fits holds, assuming
// fits is monotone (true up to some n, false after), or -1 when it holds
// for none.
func search(max int, fits func(int) bool) int {
	if !fits(0) {
		return -1
	}
	lo, hi := 0, max // fits(lo) holds
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// cut shortens s at a line boundary until ok holds, closing any open
// <details> and ending with a note. It is reached only when the fixed
// parts (paths, schema sources, notes) are themselves enormous.
func cut(s string, ok func(string) bool) string {
	const note = "\n\n*Report cut to fit GitHub's size limit.*\n"
	close := func(s string) string {
		if n := strings.Count(s, "<details>") - strings.Count(s, "</details>"); n > 0 {
			s += strings.Repeat("\n</details>\n", n)
		}
		return s
	}
	for len(s) > 0 && !ok(close(s)+note) {
		i := strings.LastIndexByte(s[:len(s)-1], '\n')
		if i < 0 {
			s = ""
			break
		}
		s = s[:i]
	}
	return close(s) + note
}
