package site

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

type badgeLink struct{ Level, SVG, JSON, Alt string }

// fixtureLine is one fixture of an implementation's latest report: its
// verdict as the gate told it, the expectations entry behind a known or
// flaky one (its reason, with its bug link), and its history.
type fixtureLine struct {
	Href, Path, Verdict, Class, Expected, Got string
	Entry                                     reasonText
	FirstPass, Since                          string
}

type flakyLine struct {
	Href, Path, Latest, Class, Version string
	Flips, Runs                        int
}

// changeLine is a fix or a regression of a fixture.
type changeLine struct {
	When, Href, Path, Change, Class, Why string
}

type reportLine struct{ When, Version, Corpus, L1, L1Class, L2, L3, Source, Commit, CommitURL, RunURL, Diff string }

type implView struct {
	Title, Root                                       string
	Name, Version, Repository, Device, Corpus, Latest string
	Corpora                                           string
	L1, L1Class, L2, L3, Data                         string
	Badges                                            []badgeLink
	Trend                                             template.HTML
	Diff                                              *diffView
	Flaky                                             []flakyLine
	Changes                                           []changeLine
	ChangesCut                                        int
	Fixtures                                          []fixtureLine
	Reports                                           []reportLine
	Images                                            []imageLine
}

// changesShown is how many fixes and regressions an implementation page
// lists, the latest; the data file holds them all.
const changesShown = 50

func (s *siteData) implView(se *series, d *diff) any {
	e := se.latest()
	name := clean(orDash(nameOf(e.im)))
	v := &implView{Title: name, Root: "../", Name: name, Version: clean(orDash(e.im.Version)), Repository: repositoryText(se), Device: clean(orDash(adapterText(e.im.Adapter))),
		Corpus: clean(orDash(shortDigest(e.corpus))), Corpora: corporaText(se), Latest: latestText(e), Trend: trend(se), Diff: viewDiff(d), Data: "../data/impl/" + se.slug + ".json"}
	v.L1, v.L1Class, v.L2, v.L3 = levelTexts(e.level)
	for _, l := range []string{"1", "2", "3"} {
		v.Badges = append(v.Badges, badgeLink{Level: "Level " + l, SVG: "../badges/" + se.slug + "-level" + l + ".svg",
			JSON: "../badges/" + se.slug + "-level" + l + ".json", Alt: "DRP2 Level " + l + " badge of " + name})
	}
	h := s.hist[se]
	for _, p := range h.flaky() {
		latest := lastVerdict(h.verdicts[p])
		v.Flaky = append(v.Flaky, flakyLine{Href: "../fixture/" + fixtureSlug(p) + ".html", Path: clean(p), Latest: latest, Class: verdictClass(latest),
			Flips: h.flips[p], Runs: ran(h.verdicts[p]), Version: clean(orDash(h.fixtures[p].flipVersion))})
	}
	v.Changes, v.ChangesCut = changesOf(se, h)
	v.Images = imageLines(se)
	for i := range e.im.Results {
		r := &e.im.Results[i]
		verdict := verdictOf(r)
		f := h.fixtures[r.RelPath]
		line := fixtureLine{Href: "../fixture/" + fixtureSlug(r.RelPath) + ".html", Path: clean(r.RelPath), Verdict: verdict,
			Class: verdictClass(verdict), Expected: clean(expectedText(r.Expected)), Got: clean(gotText(r.Actual)), Entry: reasonOf(listingText(r)),
			FirstPass: "never", Since: sinceText(se, f)}
		if f.firstPass >= 0 {
			line.FirstPass = clean(orDash(se.entries[f.firstPass].im.Version))
		}
		v.Fixtures = append(v.Fixtures, line)
	}
	for i := len(se.entries) - 1; i >= 0; i-- {
		x := se.entries[i]
		l1, l1c, l2, l3 := levelTexts(x.level)
		line := reportLine{When: stamp(x.started), Version: clean(x.im.Version), Corpus: shortDigest(x.corpus), L1: l1, L1Class: l1c, L2: l2, L3: l3, Source: clean(x.source)}
		line.Commit, line.CommitURL, line.RunURL, line.Diff = side(x).Commit, commitURL(x), runURL(x), diffLink(se, i)
		v.Reports = append(v.Reports, line)
	}
	return v
}

// changesOf are the latest fixes and regressions of a series, newest
// first, and how many were left out.
func changesOf(se *series, h *history) ([]changeLine, int) {
	type at struct {
		path string
		t    transition
	}
	var all []at
	for _, p := range h.paths {
		for _, t := range h.fixtures[p].transitions {
			if !t.flip {
				all = append(all, at{p, t})
			}
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].t.at > all[b].t.at })
	cut := 0
	if len(all) > changesShown {
		cut, all = len(all)-changesShown, all[:changesShown]
	}
	var out []changeLine
	for _, c := range all {
		from, to := se.entries[c.t.from], se.entries[c.t.at]
		why := "version " + orDash(from.im.Version) + " → " + orDash(to.im.Version)
		switch {
		case c.t.changed:
			why = "the fixture's commands or expectation changed"
		case from.im.Version == to.im.Version:
			why = "same version " + orDash(to.im.Version) + " and fixture (once: not a flake)"
		}
		class := "fail"
		if c.t.fixed {
			class = "pass"
		}
		out = append(out, changeLine{When: stamp(to.started), Href: "../fixture/" + fixtureSlug(c.path) + ".html", Path: clean(c.path),
			Change: c.t.kind(), Class: class, Why: clean(why)})
	}
	return out, cut
}

// sinceText says where a fixture's current history starts, when an edit
// of its commands or expectation started it anew.
func sinceText(se *series, f *fixtureHistory) string {
	if f == nil || len(f.starts) < 2 {
		return ""
	}
	return "new history since " + stamp(se.entries[f.since()].started) + ": its commands or expectation changed"
}

// corporaText counts the corpus versions a series' reports ran on.
func corporaText(se *series) string {
	changes := corpusChanges(se)
	if len(changes) == 0 {
		return "every report on this corpus"
	}
	return fmt.Sprintf("%s over these reports (%s, each a dashed line on the trend)",
		count(len(changes)+1, "corpus version", "corpus versions"), count(len(changes), "change", "changes"))
}

// shortDigest is a corpus digest as the pages show it.
func shortDigest(d string) string {
	if d == "" {
		return "not identified"
	}
	return clean(d[:min(12, len(d))])
}

// reasonText is an expectations entry's reason with its first http(s)
// link, split so that the template writes the link as a link and the rest
// as text.
type reasonText struct{ Before, URL, After string }

func reasonOf(text string) reasonText {
	text = clean(text)
	for _, word := range strings.Fields(text) {
		u, err := url.Parse(strings.TrimRight(word, ".,;:)"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		link := u.String()
		at := strings.Index(text, link)
		if at < 0 {
			continue
		}
		return reasonText{Before: text[:at], URL: link, After: text[at+len(link):]}
	}
	return reasonText{Before: text}
}

func latestText(e *entry) string {
	out := stamp(e.started) + ", " + clean(e.source)
	if e.repository != "" || e.commit != "" {
		out += ", made on " + clean(e.repository)
		if e.commit != "" {
			out += "@" + clean(e.commit[:min(12, len(e.commit))])
		}
	}
	if e.tool != "" {
		out += ", by drp2-fixtures " + clean(e.tool)
	}
	return out
}

// adapterText is the whole adapter description, as the implementation
// gave it.
func adapterText(a *model.GPUAdapter) string {
	if a == nil {
		return ""
	}
	out := ""
	for _, p := range []string{a.Vendor, a.Architecture, a.Device, a.Driver, a.Platform} {
		if p == "" {
			continue
		}
		if out != "" {
			out += " · "
		}
		out += p
	}
	return out
}

func lastVerdict(vs []string) string {
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i] != "" {
			return vs[i]
		}
	}
	return ""
}

func ran(vs []string) int {
	n := 0
	for _, v := range vs {
		if v != "" {
			n++
		}
	}
	return n
}

type cell struct{ Class, Title string }

type fixtureRowView struct {
	Href, Name, Repository, Device, Latest, Class, Got string
	Entry                                              reasonText
	FirstPass, Since                                   string
	Flips                                              int
	Cells                                              []cell
}

// fixtureView is a fixture's page: per implementation and device, its
// latest verdict and the history of the fixture as it is now (a history
// before an edit of its commands or expectation is not its own).
func (s *siteData) fixtureView(p string) any {
	v := struct {
		Title, Root, Path, Data string
		Cut                     int
		Rows                    []fixtureRowView
		Images                  []imageView
	}{Title: clean(p), Root: "../", Path: clean(p), Data: "../data/fixture/" + fixtureSlug(p) + ".json", Images: s.images[p]}
	for _, se := range ranked(s.series) {
		vs, ok := s.hist[se].verdicts[p]
		if !ok {
			continue
		}
		f := s.hist[se].fixtures[p]
		m := latestMark(se, p)
		row := fixtureRowView{Href: "../impl/" + se.slug + ".html", Name: clean(orDash(se.name)), Repository: repositoryText(se), Device: clean(orDash(se.device)),
			Flips: f.flips, Got: clean(m.got), Entry: reasonOf(m.reason), FirstPass: "never", Since: sinceText(se, f)}
		if f.firstPass >= 0 {
			row.FirstPass = clean(orDash(se.entries[f.firstPass].im.Version))
		}
		row.Latest = lastVerdict(vs)
		row.Class = verdictClass(row.Latest)
		first := f.since()
		if len(vs)-first > historyCells {
			first, v.Cut = len(vs)-historyCells, historyCells
		}
		for i := first; i < len(vs); i++ {
			class, word := "absent", "not run"
			if vs[i] != "" {
				class, word = verdictClass(vs[i]), vs[i]
			}
			row.Cells = append(row.Cells, cell{Class: class, Title: stamp(se.entries[i].started) + ", " + clean(orDash(se.entries[i].im.Version)) + ": " + word})
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// fixturesView lists every fixture with how many implementations and
// devices pass it, of those whose latest report ran it.
func (s *siteData) fixturesView() any {
	type row struct {
		Href, Path     string
		Passing, Flaky string
	}
	v := struct {
		Title, Root string
		Rows        []row
	}{Title: "Fixtures", Root: ""}
	latest := make([]map[string]string, len(s.series))
	for i, se := range s.series {
		latest[i] = map[string]string{}
		for _, m := range se.latest().marks {
			latest[i][m.path] = m.verdict
		}
	}
	for _, p := range s.fixtures {
		pass, of, flaky := 0, 0, 0
		for i, se := range s.series {
			if verdict, ok := latest[i][p]; ok {
				of++
				if passed(verdict) > 0 {
					pass++
				}
			}
			if s.hist[se].flips[p] >= flakyFlips {
				flaky++
			}
		}
		v.Rows = append(v.Rows, row{Href: "fixture/" + fixtureSlug(p) + ".html", Path: clean(p), Passing: strconv.Itoa(pass) + " of " + strconv.Itoa(of), Flaky: strconv.Itoa(flaky)})
	}
	return v
}

// badges are a series' badges, one per level: a static SVG and a
// shields.io endpoint JSON, both of its latest report.
func (s *siteData) badges(se *series) []File {
	e := se.latest()
	report := repositoryText(se) + ", " + e.source + ", " + stamp(e.started)
	l := e.level
	var out []File
	for i, m := range []struct{ passed, of int }{{l.L1Passed, l.L1Run}, {l.L2Passed, l.L2Checked}, {l.L3Agreed, l.L3Compared}} {
		n := strconv.Itoa(i + 1)
		msg := ratio(m.passed, m.of) + " · " + day(e.started)
		if m.of == 0 {
			msg = "not measured · " + day(e.started)
		}
		b := badge{Level: n, Label: "DRP2 L" + n + " " + clean(nameOf(e.im)), Message: msg, Color: colorOf(m.passed, m.of), Report: clean(report)}
		out = append(out, File{"badges/" + se.slug + "-level" + n + ".svg", badgeSVG(b)})
		out = append(out, File{"badges/" + se.slug + "-level" + n + ".json", endpoint(b)})
	}
	return out
}

// endpoint is the shields.io endpoint JSON of a badge: its schema's
// members only, the report named in the message by its date (the SVG's
// title and data/index.json name the file).
func endpoint(b badge) []byte {
	data, _ := json.MarshalIndent(struct {
		SchemaVersion int    `json:"schemaVersion"`
		Label         string `json:"label"`
		Message       string `json:"message"`
		Color         string `json:"color"`
	}{1, b.Label, b.Message, b.Color}, "", "  ")
	return append(data, '\n')
}
