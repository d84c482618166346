package site

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// Chart geometry of the trend, in SVG user units.
const (
	chartW, chartH       = 640, 200
	chartLeft, chartTop  = 44, 12
	chartRight, chartBot = 12, 28
)

// trend draws an entry's pass rate (fixtures passed of those run) report
// by report, oldest left, as an inline SVG: the tool draws it, so the page
// needs no chart library and no script. Every text in it is escaped.
func trend(se *series) template.HTML {
	n := len(se.entries)
	w, h := float64(chartW-chartLeft-chartRight), float64(chartH-chartTop-chartBot)
	x := func(i int) float64 {
		if n == 1 {
			return chartLeft + w/2
		}
		return chartLeft + w*float64(i)/float64(n-1)
	}
	y := func(rate float64) float64 { return chartTop + h*(1-rate) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="trend-title">`, chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<title id="trend-title">%s</title>`, html.EscapeString(trendTitle(se)))
	for _, g := range []float64{0, 0.5, 1} {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#d0d7de"/>`, chartLeft, chartW-chartRight, y(g), y(g))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#57606a">%d%%</text>`, chartLeft-6, y(g)+4, int(g*100))
	}
	for _, i := range corpusChanges(se) {
		// A corpus change is an event of the series, not a new one: a
		// dashed line where the reports start running the new version.
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#9a6700" stroke-dasharray="3 3"><title>%s</title></line>`, x(i), x(i), chartTop, chartH-chartBot,
			html.EscapeString(stamp(se.entries[i].started)+": corpus "+shortDigest(se.entries[i-1].corpus)+" → "+shortDigest(se.entries[i].corpus)))
	}
	var pts []string
	for i, e := range se.entries {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(rate(e.level.L1Passed, e.level.L1Run))))
	}
	fmt.Fprintf(&b, `<polyline fill="none" stroke="#0969da" stroke-width="2" points="%s"/>`, strings.Join(pts, " "))
	if n <= 60 {
		for i, e := range se.entries {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#0969da"><title>%s</title></circle>`, x(i), y(rate(e.level.L1Passed, e.level.L1Run)),
				html.EscapeString(stamp(e.started)+": "+ratio(e.level.L1Passed, e.level.L1Run)))
		}
	}
	first, last := se.entries[0], se.latest()
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#57606a">%s</text>`, chartLeft, chartH-8, html.EscapeString(day(first.started)))
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="end" fill="#57606a">%s</text>`, chartW-chartRight, chartH-8, html.EscapeString(day(last.started)))
	b.WriteString(`</svg>`)
	// Built above from numbers and escaped text only.
	return template.HTML(b.String())
}

func trendTitle(se *series) string {
	first, last := se.entries[0], se.latest()
	return fmt.Sprintf("Level 1 pass rate of %s over %d reports, %s to %s: from %s to %s; %s",
		clean(se.name), len(se.entries), day(first.started), day(last.started),
		percent(first.level.L1Passed, first.level.L1Run), percent(last.level.L1Passed, last.level.L1Run), count(len(corpusChanges(se)), "corpus change", "corpus changes"))
}

// badge is one level's badge of a series' latest report.
type badge struct {
	Level, Label, Message, Color string
	// Report names the report the badge refers to.
	Report string
}

// badgeSVG draws a flat badge of shields.io's look, its width from an
// estimate of the text's width (Verdana 11px averages about 6.5 units a
// character). The label, message and title are escaped for XML.
func badgeSVG(bd badge) []byte {
	lw, mw := textWidth(bd.Label)+10, textWidth(bd.Message)+10
	fill := badgeColors[bd.Color]
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s">`, lw+mw, html.EscapeString(bd.Label), html.EscapeString(bd.Message))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(bd.Label+": "+bd.Message+" ("+bd.Report+")"))
	fmt.Fprintf(&b, `<rect width="%d" height="20" rx="3" fill="#555"/><rect x="%d" width="%d" height="20" rx="3" fill="%s"/><rect x="%d" width="4" height="20" fill="%s"/>`, lw+mw, lw, mw, fill, lw, fill)
	fmt.Fprintf(&b, `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="5" y="14">%s</text><text x="%d" y="14">%s</text></g>`,
		html.EscapeString(bd.Label), lw+5, html.EscapeString(bd.Message))
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func textWidth(s string) int { return int(float64(len([]rune(s)))*6.5 + 0.5) }

// badgeColors are shields.io's named colours the badges use.
var badgeColors = map[string]string{
	"brightgreen": "#4c1", "green": "#97ca00", "yellow": "#dfb317", "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f",
}

// colorOf is a badge's colour for a share passed: all, most, some, none.
func colorOf(passed, of int) string {
	switch {
	case of == 0:
		return "lightgrey"
	case passed == of:
		return "brightgreen"
	case passed*10 >= of*9:
		return "green"
	case passed*2 >= of:
		return "yellow"
	case passed > 0:
		return "orange"
	}
	return "red"
}
