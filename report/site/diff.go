package site

import (
	"html/template"
	"sort"
	"strings"
)

// The changes a pair of reports of one series can show, fixture by
// fixture, in the order the diff page lists them.
const (
	changeRegressed = "regressed"
	changeFixed     = "fixed"
	changeChanged   = "changed"
	changeAdded     = "added"
	changeRemoved   = "removed"
)

var changeOrder = []string{changeRegressed, changeFixed, changeChanged, changeAdded, changeRemoved}

// pairPath is the page of the difference between a report of a series
// and the report before it: the series' slug and a hash of the later
// report's file and start, so that a page keeps its name as reports are
// added around it.
func pairPath(se *series, i int) string {
	e := se.entries[i]
	return "diff/" + slug(se.name+" "+day(e.started), se.key+"\x00"+e.source+"\x00"+rfc3339(e.started)+"\x00"+itoa(sameSourceRank(se, i))) + ".html"
}

// sameSourceRank tells apart the entries of a series that share a file
// name and a start (one report given twice): 0 for the first of them.
func sameSourceRank(se *series, i int) int {
	n := 0
	for j := i - 1; j >= 0 && se.entries[j].started.Equal(se.entries[i].started); j-- {
		if se.entries[j].source == se.entries[i].source {
			n++
		}
	}
	return n
}

type change struct {
	Href, Path, Before, BeforeClass, After, AfterClass, Kind, Why string
	BeforeEntry, AfterEntry                                       reasonText
}

// pairChanges are the fixtures whose verdict differs between two
// reports, or that only one of them ran, by kind then path: read from the
// reports' marks, which every report keeps, and told as the series'
// history tells them (a fix or regression by the version or the fixture
// that changed; a flip of a fixture flaky at that version).
func pairChanges(base, head *entry, h *history) []change {
	before := make(map[string]*mark, len(base.marks))
	for j := range base.marks {
		before[base.marks[j].path] = &base.marks[j]
	}
	var out []change
	add := func(p string, b, a *mark, kind string) {
		c := change{Href: "../fixture/" + fixtureSlug(p) + ".html", Path: clean(p), Before: "–", BeforeClass: "none", After: "–", AfterClass: "none", Kind: kind}
		if b != nil {
			c.Before, c.BeforeClass, c.BeforeEntry = b.verdict, verdictClass(b.verdict), reasonOf(b.reason)
		}
		if a != nil {
			c.After, c.AfterClass, c.AfterEntry = a.verdict, verdictClass(a.verdict), reasonOf(a.reason)
		}
		if a != nil && b != nil {
			c.Why = clean(pairWhy(a, b, h.flips[p]))
		}
		out = append(out, c)
	}
	for j := range head.marks {
		a := &head.marks[j]
		b, ok := before[a.path]
		delete(before, a.path)
		switch {
		case !ok:
			add(a.path, nil, a, changeAdded)
		case a.verdict == b.verdict:
		case passed(a.verdict) > 0 && passed(b.verdict) < 0:
			add(a.path, b, a, changeFixed)
		case passed(b.verdict) > 0 && passed(a.verdict) < 0:
			add(a.path, b, a, changeRegressed)
		default:
			add(a.path, b, a, changeChanged)
		}
	}
	for p, b := range before {
		add(p, b, nil, changeRemoved)
	}
	rank := map[string]int{}
	for i, k := range changeOrder {
		rank[k] = i
	}
	sortChanges(out, rank)
	return out
}

// pairWhy is what a fixture's change of verdict comes with, beside the
// implementation's version the pair page names once: an edit of the
// fixture, or flips at one version that make it flaky.
func pairWhy(a, b *mark, flips int) string {
	switch {
	case a.digest != b.digest:
		return "the fixture's commands or expectation changed"
	case flips >= flakyFlips:
		return "flaky: " + count(flips, "flip", "flips") + " at one version"
	}
	return ""
}

// pairBetween says in words what changed of the implementation between
// two reports.
func pairBetween(base, head *entry) string {
	if base.im.Version != head.im.Version {
		return "Version " + orDash(base.im.Version) + " → " + orDash(head.im.Version) + ": a change of verdict is a fix or a regression of it, or of the fixture where it changed."
	}
	return "Same version " + orDash(head.im.Version) + ": a change of verdict is of the fixture where it changed, else of the machine, or a flake."
}

func sortChanges(out []change, rank map[string]int) {
	sort.Slice(out, func(a, b int) bool {
		if out[a].Kind != out[b].Kind {
			return rank[out[a].Kind] < rank[out[b].Kind]
		}
		return out[a].Path < out[b].Path
	})
}

type pairSide struct {
	When, Version, Source, Commit, CommitURL, RunURL, Tool string
}

func side(e *entry) pairSide {
	c := ""
	if e.commit != "" {
		c = clean(e.commit[:min(12, len(e.commit))])
	}
	return pairSide{When: stamp(e.started), Version: clean(orDash(e.im.Version)), Source: clean(e.source), Commit: c, CommitURL: commitURL(e), RunURL: runURL(e),
		Tool: clean(orDash(e.tool))}
}

type pairView struct {
	Title, Root, Name, Repository, Device, Impl string
	Base, Head                                  pairSide
	Counts, Between                             string
	Changes                                     []change
	Prev, Next                                  string
}

func (s *siteData) pairView(se *series, i int) any {
	base, head := se.entries[i-1], se.entries[i]
	name := clean(orDash(nameOf(head.im)))
	v := &pairView{Title: name + ": " + day(base.started) + " → " + day(head.started), Root: "../", Name: name, Repository: repositoryText(se),
		Device: clean(orDash(se.device)), Impl: "../impl/" + se.slug + ".html", Base: side(base), Head: side(head)}
	v.Changes, v.Between = pairChanges(base, head, s.hist[se]), clean(pairBetween(base, head))
	counts := map[string]int{}
	for _, c := range v.Changes {
		counts[c.Kind]++
	}
	var words []string
	for _, k := range changeOrder {
		if counts[k] > 0 {
			words = append(words, itoa(counts[k])+" "+k)
		}
	}
	v.Counts = "No fixture changed its verdict."
	if len(words) > 0 {
		v.Counts = strings.Join(words, ", ") + "."
	}
	if i > 1 {
		v.Prev = "../" + pairPath(se, i-1)
	}
	if i+1 < len(se.entries) {
		v.Next = "../" + pairPath(se, i+1)
	}
	return v
}

// pairPages are the diff pages: each report of a series against the one
// before it.
func (s *siteData) pairPages() []File {
	var out []File
	for _, se := range s.series {
		for i := 1; i < len(se.entries); i++ {
			out = append(out, File{pairPath(se, i), page("pair", s.pairView(se, i))})
		}
	}
	return out
}

type diffOption struct {
	ID, Prev, Page, Arg, Label, Short string
}

type diffSeries struct {
	Href, Name, Repository, Device string
	Reports                        []diffOption
}

// diffsView is the diff index: every report of every series, newest
// first, linked to its difference from the one before it, and a chooser
// of any two reports (resolved in the page by find.js: the page of the
// pair when they follow one another, else the command line that compares
// them).
func (s *siteData) diffsView() any {
	v := struct {
		Title, Root string
		Series      []diffSeries
		Options     []diffOption
		Script      template.JS
	}{Title: "Differences", Script: template.JS(findScript)}
	id := 0
	for _, se := range s.columns() {
		ds := diffSeries{Href: "impl/" + se.slug + ".html", Name: clean(orDash(se.name)), Repository: repositoryText(se), Device: clean(orDash(se.device))}
		first := id
		for i := len(se.entries) - 1; i >= 0; i-- {
			e := se.entries[i]
			o := diffOption{ID: "r" + itoa(first+i), Arg: shellWord(e.source), Label: label(ds, e),
				Short: stamp(e.started) + " · " + clean(e.source)}
			if i > 0 {
				o.Prev, o.Page = "r"+itoa(first+i-1), pairPath(se, i)
			}
			ds.Reports = append(ds.Reports, o)
			v.Options = append(v.Options, o)
		}
		id += len(se.entries)
		v.Series = append(v.Series, ds)
	}
	return v
}

// diffLink is, for an implementation page, the page of the difference
// between its report i and the one before ("" for the first).
func diffLink(se *series, i int) string {
	if i == 0 {
		return ""
	}
	return "../" + pairPath(se, i)
}

func label(ds diffSeries, e *entry) string {
	out := ds.Name
	if ds.Device != "–" {
		out += " · " + ds.Device
	}
	return out + " · " + stamp(e.started) + " · " + clean(e.source)
}
