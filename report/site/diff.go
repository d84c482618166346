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
	Href, Path, Before, BeforeClass, After, AfterClass, Kind string
}

// pairChanges are the fixtures whose verdict differs between two
// reports, or that only one of them ran, by kind then path.
func pairChanges(base, head *entry) []change {
	before := make(map[string]string, len(base.im.Results))
	for j := range base.im.Results {
		before[base.im.Results[j].RelPath] = verdictOf(&base.im.Results[j])
	}
	var out []change
	add := func(p, b, a, kind string) {
		out = append(out, change{Href: "../fixture/" + fixtureSlug(p) + ".html", Path: clean(p), Before: orDash(b), BeforeClass: verdictClass(b),
			After: orDash(a), AfterClass: verdictClass(a), Kind: kind})
	}
	for j := range head.im.Results {
		r := &head.im.Results[j]
		a := verdictOf(r)
		b, ok := before[r.RelPath]
		delete(before, r.RelPath)
		switch {
		case !ok:
			add(r.RelPath, "", a, changeAdded)
		case a == b:
		case a == vPass:
			add(r.RelPath, b, a, changeFixed)
		case b == vPass:
			add(r.RelPath, b, a, changeRegressed)
		default:
			add(r.RelPath, b, a, changeChanged)
		}
	}
	for p, b := range before {
		add(p, b, "", changeRemoved)
	}
	rank := map[string]int{}
	for i, k := range changeOrder {
		rank[k] = i
	}
	sortChanges(out, rank)
	return out
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
	When, Version, Source, Commit, CommitURL, Tool string
}

func side(e *entry) pairSide {
	c := ""
	if e.commit != "" {
		c = clean(e.commit[:min(12, len(e.commit))])
	}
	return pairSide{When: stamp(e.started), Version: clean(orDash(e.im.Version)), Source: clean(e.source), Commit: c, CommitURL: commitURL(e),
		Tool: clean(orDash(e.tool))}
}

type pairView struct {
	Title, Root, Name, Repository, Device, Impl string
	Base, Head                                  pairSide
	Counts                                      string
	Changes                                     []change
	Prev, Next                                  string
}

func (s *siteData) pairView(se *series, i int) any {
	base, head := se.entries[i-1], se.entries[i]
	name := clean(orDash(nameOf(head.im)))
	v := &pairView{Title: name + ": " + day(base.started) + " → " + day(head.started), Root: "../", Name: name, Repository: repositoryText(se),
		Device: clean(orDash(se.device)), Impl: "../impl/" + se.slug + ".html", Base: side(base), Head: side(head)}
	v.Changes = pairChanges(base, head)
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
