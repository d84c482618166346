package coverage

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// Headline is the report in one line.
func (r *Report) Headline() string {
	failing := 0
	for i := range r.Rules {
		if r.Rules[i].group() != groupFindingOnly {
			failing++
		}
	}
	return fmt.Sprintf("%d of %d rules that fail a stream have no negative fixture (from %d passing positive and %d passing negative fixtures)",
		r.Uncovered, failing, r.PositiveFixtures, r.NegativeFixtures)
}

// notes are the caveats of a report, in words.
func (r *Report) notes() []string {
	var out []string
	if r.NotCounted > 0 {
		out = append(out, fmt.Sprintf("%d fixture%s that did not pass %s not counted.", r.NotCounted, plural(r.NotCounted), were(r.NotCounted)))
	}
	if n := len(r.NoRule); n > 0 {
		out = append(out, fmt.Sprintf("%d negative fixture%s fail%s by a verdict that names no rule: %s.", n, plural(n), verbS(n), strings.Join(r.NoRule, ", ")))
	}
	unlisted := 0
	for _, rc := range r.Rules {
		if rc.Unlisted {
			unlisted++
		}
	}
	if unlisted > 0 {
		out = append(out, fmt.Sprintf("%d rule%s marked * %s named by verdicts or traces but missing from the checker's rule list.", unlisted, plural(unlisted), were(unlisted)))
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// WriteText writes the report as aligned columns, the rules without a
// negative fixture first.
func WriteText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Rule coverage: %s\n", r.Headline())
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	group := ""
	for _, rc := range r.Rules {
		g := groupTitles[rc.group()]
		if g != group {
			tw.Flush()
			fmt.Fprintf(bw, "\n%s\n", g)
			fmt.Fprintf(tw, "negative\tpositive\t  %s\n", "rule, code: summary")
			group = g
		}
		fmt.Fprintf(tw, "%d\t%d\t  %s\n", rc.Negative, rc.Positive, escape.OneLine(ruleLine(rc)))
	}
	tw.Flush()
	for _, n := range r.notes() {
		fmt.Fprintf(bw, "\n%s", escape.OneLine(n))
	}
	if len(r.notes()) > 0 {
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

var groupTitles = map[int]string{
	groupUncovered:   "Rules without a negative fixture:",
	groupCovered:     "Rules with negative fixtures:",
	groupFindingOnly: "Rules that never fail a stream (findings only):",
}

func ruleLine(rc RuleCoverage) string {
	s := rc.ID
	if rc.Unlisted {
		s += " *"
	}
	if rc.Code != "" {
		s += ", " + rc.Code
	}
	if rc.Summary != "" {
		s += ": " + rc.Summary
	}
	return s
}

// WriteJSON writes the report as one JSON document.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteMarkdown writes the report as a job-summary section: the rules
// without a negative fixture in the open, the rest folded.
func WriteMarkdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### Rule coverage\n\n%s\n", escape.Markdown(r.Headline()))
	table := func(rows []RuleCoverage) {
		fmt.Fprintf(bw, "\n| Rule | Code | Negative | Positive | Summary |\n|---|---|--:|--:|---|\n")
		for _, rc := range rows {
			id := escape.Markdown(rc.ID)
			if rc.Unlisted {
				id += " \\*"
			}
			fmt.Fprintf(bw, "| %s | <code>%s</code> | %d | %d | %s |\n", id, escape.Markdown(rc.Code), rc.Negative, rc.Positive, escape.Markdown(rc.Summary))
		}
	}
	groups := map[int][]RuleCoverage{}
	for _, rc := range r.Rules {
		groups[rc.group()] = append(groups[rc.group()], rc)
	}
	if rows := groups[groupUncovered]; len(rows) > 0 {
		fmt.Fprintf(bw, "\n**Rules without a negative fixture**\n")
		table(rows)
	}
	if rows := groups[groupCovered]; len(rows) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%d rule%s with negative fixtures</summary>\n", len(rows), plural(len(rows)))
		table(rows)
		fmt.Fprintf(bw, "\n</details>\n")
	}
	if rows := groups[groupFindingOnly]; len(rows) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%d rule%s that never fail a stream (findings only)</summary>\n", len(rows), plural(len(rows)))
		table(rows)
		fmt.Fprintf(bw, "\n</details>\n")
	}
	if notes := r.notes(); len(notes) > 0 {
		fmt.Fprintln(bw)
		for _, n := range notes {
			fmt.Fprintf(bw, "- %s\n", escape.Markdown(n))
		}
	}
	return bw.Flush()
}
