package site

import (
	"fmt"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// historyCells is how many reports a fixture page draws per row; the
// data file holds them all.
const historyCells = 60

// siteData is everything the pages are made of.
type siteData struct {
	series   []*series
	corpora  []*corpus
	problems []string
	notes    []string
	pending  []string
	fixtures []string
	diffs    []*diff
	hist     map[*series]*history
	// images are the failing Level 3 images of the latest reports, by
	// fixture path; imageFiles the PNGs they show.
	images     map[string][]imageView
	imageFiles []File
}

func (s *siteData) render() []File {
	s.hist = map[*series]*history{}
	for _, se := range s.series {
		s.hist[se] = historyOf(se)
	}
	files := []File{{"index.html", page("index", s.indexView())}, {"fixtures.html", page("fixtures", s.fixturesView())},
		{"grid.html", page("grid", s.gridView())}, {"diffs.html", page("diffs", s.diffsView())}}
	files = append(files, s.pairPages()...)
	for i, se := range s.series {
		files = append(files, File{"impl/" + se.slug + ".html", page("impl", s.implView(se, s.diffs[i]))})
		files = append(files, s.badges(se)...)
	}
	for _, p := range s.fixtures {
		files = append(files, File{"fixture/" + fixtureSlug(p) + ".html", page("fixture", s.fixtureView(p))})
	}
	files = append(files, s.imageFiles...)
	return append(files, s.data()...)
}

func fixtureSlug(p string) string { return slug(p, p) }

// clean makes a text a report carries fit for one line of a page: control
// and invisible characters named, at most 200 characters. The sinks
// escape it for their syntax.
func clean(s string) string { return escape.OneLine(escape.Clip(s, 200)) }

func stamp(t time.Time) string {
	if t.IsZero() {
		return "unknown time"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func day(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02")
}

func rate(passed, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(passed) / float64(of)
}

func percent(passed, of int) string {
	if of == 0 {
		return "–"
	}
	// Floor, so that 99.6% never reads as 100%.
	return fmt.Sprintf("%d%%", passed*100/of)
}

func ratio(passed, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%s)", passed, of, percent(passed, of))
}

func levelTexts(l levels) (l1, l1class, l2, l3 string) {
	l1, l1class = ratio(l.L1Passed, l.L1Run), "fail"
	if l.L1 {
		l1, l1class = "meets · "+l1, "pass"
	}
	return l1, l1class, ratio(l.L2Passed, l.L2Checked), ratio(l.L3Agreed, l.L3Compared)
}

func verdictClass(v string) string {
	switch v {
	case vPass, vUnexpectedPass:
		return "pass"
	case vFail, vCorpusError:
		return "fail"
	case vKnown:
		return "known"
	case vFlakyPassed, vFlakyFailed:
		return "flaky"
	}
	return "none"
}

// corpusLine is one corpus version in the index.
type corpusLine struct {
	Digest, Full, Root, DRP2, First, Latest string
	Fixtures, Reports, LatestOf             int
}

func corpusLineOf(c *corpus) corpusLine {
	return corpusLine{Digest: shortDigest(c.digest), Full: orDash(c.digest), Root: clean(orDash(c.root)), DRP2: orDash(joinClean(c.drp2)),
		First: stamp(c.first), Latest: stamp(c.latest), Fixtures: c.fixtures, Reports: c.reports, LatestOf: len(c.series)}
}

// repositoryText is the repository a series belongs to, in words.
func repositoryText(se *series) string {
	if se.repository == "" {
		return "repository not recorded"
	}
	return clean(se.repository)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func joinClean(list []string) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += ", "
		}
		out += clean(s)
	}
	return out
}

type indexRow struct {
	Href, Name, Version, Repository, Device, Corpus, CorpusNote, L1, L1Class, L2, L3, When string
	Reports                                                                                int
}

// indexView is the index: the latest report of each implementation and
// device, whatever corpus it ran on (named in its row), and the corpus
// versions the reports ran on.
func (s *siteData) indexView() any {
	v := struct {
		Title, Lead, Root string
		Problems, Notes   []string
		Pending           []string
		Rows              []indexRow
		Corpora           []corpusLine
	}{Title: "DRP2 conformance", Root: "", Notes: cleanAll(s.notes), Problems: cleanAll(s.problems), Pending: cleanAll(s.pending)}
	reports := map[string]bool{}
	for _, se := range s.series {
		for _, e := range se.entries {
			reports[e.source] = true
		}
	}
	v.Lead = fmt.Sprintf("%s, from %s on %s.", count(len(s.series), "implementation and device", "implementations and devices"),
		count(len(reports), "report", "reports"), count(len(s.corpora), "corpus version", "corpus versions"))
	newest := ""
	if len(s.corpora) > 0 {
		newest = s.corpora[0].digest
	}
	for _, se := range ranked(s.series) {
		e := se.latest()
		l1, l1c, l2, l3 := levelTexts(e.level)
		row := indexRow{Href: "impl/" + se.slug + ".html", Name: clean(orDash(nameOf(e.im))), Version: clean(e.im.Version),
			Repository: repositoryText(se), Device: clean(orDash(se.device)), Corpus: shortDigest(e.corpus), L1: l1, L1Class: l1c, L2: l2, L3: l3, When: stamp(e.started), Reports: len(se.entries)}
		if e.corpus != newest {
			row.CorpusNote = "not the latest corpus"
		}
		v.Rows = append(v.Rows, row)
	}
	for _, c := range s.corpora {
		v.Corpora = append(v.Corpora, corpusLineOf(c))
	}
	return v
}

func nameOf(im *model.Implementation) string {
	if im.Name == "" {
		return im.Command
	}
	return im.Name
}

func cleanAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = escape.OneLine(escape.Clip(s, 400))
	}
	return out
}

// diffView is the difference between the last two reports, as diff words
// it (report/explain).
type diffView struct {
	Headline, Base, Head string
	Rows                 []struct{ Href, Path, Transition, Now string }
}

func viewDiff(d *diff) *diffView {
	if d == nil || d.c == nil {
		return nil
	}
	v := &diffView{Headline: clean(explain.ComparisonHeadline(d.c)), Base: stamp(d.base.started), Head: stamp(d.head.started)}
	for i := range d.c.Changes {
		ch := &d.c.Changes[i]
		if ch.Transition == model.StillFailing || ch.Transition == model.StillPassing {
			continue
		}
		now := ""
		if ch.Head != nil {
			now = sideText(ch.Head)
		}
		v.Rows = append(v.Rows, struct{ Href, Path, Transition, Now string }{"../fixture/" + fixtureSlug(ch.RelPath) + ".html", clean(ch.RelPath), clean(explain.TransitionTitle(ch.Transition)), now})
	}
	return v
}

// sideText is what a result got: its outcome, phase and code.
func sideText(s *model.Side) string {
	return clean(gotText(s.Actual))
}

func gotText(a model.Actual) string {
	out := string(a.Outcome)
	if a.Phase != "" {
		out += " · " + string(a.Phase)
	}
	if a.Code != "" {
		out += " · " + a.Code
	}
	if a.CommandIndex != nil {
		out += fmt.Sprintf(" @%d", *a.CommandIndex)
	}
	return out
}

func expectedText(e model.Expected) string {
	out := e.Outcome
	if e.Phase != "" {
		out += " · " + e.Phase
	}
	if e.Code != "" {
		out += " · " + e.Code
	}
	if e.CommandIndex != nil {
		if e.BigCommandIndex != "" {
			out += " @" + e.BigCommandIndex
		} else {
			out += fmt.Sprintf(" @%d", *e.CommandIndex)
		}
	}
	return out
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
