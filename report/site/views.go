package site

import (
	"encoding/json"
	"html/template"
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

type badgeLink struct{ Level, SVG, JSON, Alt string }

type fixtureLine struct{ Href, Path, Verdict, Class, Expected, Got string }

type flakyLine struct {
	Href, Path, Latest, Class string
	Flips, Runs               int
}

type reportLine struct{ When, Version, L1, L1Class, L2, L3, Source, Commit, CommitURL, Diff string }

type implView struct {
	Title, Root                                       string
	Name, Version, Repository, Device, Corpus, Latest string
	L1, L1Class, L2, L3, Data                         string
	Badges                                            []badgeLink
	Trend                                             template.HTML
	Diff                                              *diffView
	Flaky                                             []flakyLine
	Fixtures                                          []fixtureLine
	Reports                                           []reportLine
}

func (s *siteData) implView(se *series, d *diff) any {
	e := se.latest()
	name := clean(orDash(nameOf(e.im)))
	v := &implView{Title: name, Root: "../", Name: name, Version: clean(orDash(e.im.Version)), Repository: repositoryText(se), Device: clean(orDash(adapterText(e.im.Adapter))),
		Corpus: clean(orDash(se.corpus)), Latest: latestText(e), Trend: trend(se), Diff: viewDiff(d), Data: "../data/impl/" + se.slug + ".json"}
	v.L1, v.L1Class, v.L2, v.L3 = levelTexts(e.level)
	for _, l := range []string{"1", "2", "3"} {
		v.Badges = append(v.Badges, badgeLink{Level: "Level " + l, SVG: "../badges/" + se.slug + "-level" + l + ".svg",
			JSON: "../badges/" + se.slug + "-level" + l + ".json", Alt: "DRP2 Level " + l + " badge of " + name})
	}
	h := s.hist[se]
	for _, p := range h.flaky() {
		latest := lastVerdict(h.verdicts[p])
		v.Flaky = append(v.Flaky, flakyLine{Href: "../fixture/" + fixtureSlug(p) + ".html", Path: clean(p), Latest: latest, Class: verdictClass(latest),
			Flips: h.flips[p], Runs: ran(h.verdicts[p])})
	}
	for i := range e.im.Results {
		r := &e.im.Results[i]
		verdict := verdictOf(r)
		v.Fixtures = append(v.Fixtures, fixtureLine{Href: "../fixture/" + fixtureSlug(r.RelPath) + ".html", Path: clean(r.RelPath), Verdict: verdict,
			Class: verdictClass(verdict), Expected: clean(expectedText(r.Expected)), Got: clean(gotText(r.Actual))})
	}
	for i := len(se.entries) - 1; i >= 0; i-- {
		x := se.entries[i]
		l1, l1c, l2, l3 := levelTexts(x.level)
		line := reportLine{When: stamp(x.started), Version: clean(x.im.Version), L1: l1, L1Class: l1c, L2: l2, L3: l3, Source: clean(x.source)}
		line.Commit, line.CommitURL, line.Diff = side(x).Commit, commitURL(x), diffLink(se, i)
		v.Reports = append(v.Reports, line)
	}
	return v
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
	Flips                                              int
	Cells                                              []cell
}

func (s *siteData) fixtureView(p string) any {
	v := struct {
		Title, Root, Path, Data string
		Cut                     int
		Rows                    []fixtureRowView
	}{Title: clean(p), Root: "../", Path: clean(p), Data: "../data/fixture/" + fixtureSlug(p) + ".json"}
	for _, c := range s.corpora {
		for _, se := range c.series {
			vs, ok := s.hist[se].verdicts[p]
			if !ok {
				continue
			}
			row := fixtureRowView{Href: "../impl/" + se.slug + ".html", Name: clean(orDash(se.name)), Repository: repositoryText(se), Device: clean(orDash(se.device)),
				Flips: s.hist[se].flips[p]}
			row.Latest = lastVerdict(vs)
			row.Class = verdictClass(row.Latest)
			row.Got = gotOf(se, p)
			first := 0
			if len(vs) > historyCells {
				first, v.Cut = len(vs)-historyCells, historyCells
			}
			for i := first; i < len(vs); i++ {
				class, word := "absent", "not run"
				if vs[i] != "" {
					class, word = verdictClass(vs[i]), vs[i]
				}
				row.Cells = append(row.Cells, cell{Class: class, Title: stamp(se.entries[i].started) + ": " + word})
			}
			v.Rows = append(v.Rows, row)
		}
	}
	return v
}

// gotOf is what the latest report that ran p got on it.
func gotOf(se *series, p string) string {
	for i := len(se.entries) - 1; i >= 0; i-- {
		for j := range se.entries[i].im.Results {
			if r := &se.entries[i].im.Results[j]; r.RelPath == p {
				return clean(gotText(r.Actual))
			}
		}
	}
	return ""
}

func (s *siteData) fixturesView() any {
	type row struct {
		Href, Path     string
		Passing, Flaky string
	}
	v := struct {
		Title, Root string
		Rows        []row
	}{Title: "Fixtures", Root: ""}
	for _, p := range s.fixtures {
		pass, of, flaky := 0, 0, 0
		for _, se := range s.series {
			vs, ok := s.hist[se].verdicts[p]
			if !ok {
				continue
			}
			of++
			if lastVerdict(vs) == vPass {
				pass++
			}
			if s.hist[se].flips[p] > 0 {
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
