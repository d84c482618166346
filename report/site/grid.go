package site

import (
	_ "embed"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// findScript filters the grid's rows and resolves the diff index's
// chooser, in the page, over what the page holds (find.js says how).
//
//go:embed find.js
var findScript string

// vNotRun is the grid's word for a fixture an implementation's latest
// report did not run.
const vNotRun = "not run"

type gridColumn struct{ Href, Name, Device, When string }

// gridCell is a verdict as the gate told it; one an expectations entry
// covers (known, flaky, skipped) names the entry's reason in its title,
// and links the bug the reason names.
type gridCell struct{ Class, Verdict, Reason, Bug string }

type gridRow struct {
	Href, Path string
	Cells      []gridCell
}

type gridView struct {
	Title, Root, NotRun string
	// Width is the table's in rem: a fixed layout, which a browser lays
	// out from the columns' widths without measuring 10,000 rows' cells.
	Width    string
	Columns  []gridColumn
	Rows     []gridRow
	Verdicts []string
	Script   template.JS
}

// columns are the series of the grid and the diff index, in the order
// of the index: one an implementation and device, across corpus versions.
func (s *siteData) columns() []*series { return ranked(s.series) }

// gridView is every fixture against the latest report of every
// implementation and device: one row a fixture, one column a series, a
// cell that report's verdict, from its marks.
func (s *siteData) gridView() any {
	cols := s.columns()
	v := &gridView{Title: "Fixtures × implementations", NotRun: vNotRun, Script: template.JS(findScript)}
	latest := make([]map[string]*mark, len(cols))
	seen := map[string]bool{vNotRun: true}
	for i, se := range cols {
		e := se.latest()
		v.Columns = append(v.Columns, gridColumn{Href: "impl/" + se.slug + ".html", Name: clean(orDash(nameOf(e.im))), Device: clean(se.device),
			When: day(e.started)})
		latest[i] = make(map[string]*mark, len(e.marks))
		for j := range e.marks {
			m := &e.marks[j]
			latest[i][m.path] = m
			seen[m.verdict] = true
		}
	}
	v.Width = strconv.FormatFloat(15+6.5*float64(len(cols)), 'f', -1, 64)
	v.Rows = make([]gridRow, 0, len(s.fixtures))
	reasons := map[string]reasonText{}
	for _, p := range s.fixtures {
		row := gridRow{Href: "fixture/" + fixtureSlug(p) + ".html", Path: clean(p), Cells: make([]gridCell, len(cols))}
		for i := range cols {
			m, ok := latest[i][p]
			if !ok {
				row.Cells[i] = gridCell{Class: "absent", Verdict: vNotRun}
				continue
			}
			c := gridCell{Class: verdictClass(m.verdict), Verdict: m.verdict}
			if m.reason != "" {
				r, ok := reasons[m.reason]
				if !ok {
					r = reasonOf(m.reason)
					reasons[m.reason] = r
				}
				c.Reason, c.Bug = r.Before+r.URL+r.After, r.URL
			}
			row.Cells[i] = c
		}
		v.Rows = append(v.Rows, row)
	}
	for word := range seen {
		v.Verdicts = append(v.Verdicts, word)
	}
	sort.Strings(v.Verdicts)
	return v
}

// commitURL is the page of the commit a report was made on, when the
// report names both a GitHub repository and a commit of the shapes the
// gate records; "" otherwise, so that no text a report carries becomes a
// link of its own making.
func commitURL(e *entry) string {
	if !model.IsRepository(e.repository) || !model.IsCommit(e.commit) {
		return ""
	}
	return "https://github.com/" + e.repository + "/commit/" + e.commit
}

// runURL is the page of the workflow run that wrote a report, when the
// report names one of the exact shape the gate records, on GitHub (where
// commitURL links its commit) and of the report's own repository; ""
// otherwise, since anyone can publish a report and its text must not
// become a link elsewhere.
func runURL(e *entry) string {
	if !model.IsRunURL(e.runURL, e.repository) || !strings.HasPrefix(e.runURL, "https://github.com/") {
		return ""
	}
	return e.runURL
}

// shellWord quotes a report's file name for a POSIX shell, so that the
// command line the diff index shows can be pasted as it is.
func shellWord(s string) string {
	s = clean(s)
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:@%+=,-", r)) {
			plain = false
			break
		}
	}
	if plain && s[0] != '-' {
		return s
	}
	if plain {
		// Not a flag of diff's.
		return "./" + s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func itoa(n int) string { return strconv.Itoa(n) }
