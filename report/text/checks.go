package text

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Manifest writes the manifest comparison for a terminal: one line per
// change, then the headline.
func Manifest(w io.Writer, m *model.ManifestCheck) error {
	bw := bufio.NewWriter(w)
	mark := func(v bool) string {
		if v {
			return "  [breaks the freeze]"
		}
		return ""
	}
	for _, s := range m.Schemas {
		fmt.Fprintf(bw, "  schema   %s: %s → %s%s\n", s.Which, schemaText(s.RecordedPath, s.RecordedSHA256),
			schemaText(s.CurrentPath, s.CurrentSHA256), mark(s.Violation))
	}
	if m.CurrentVersion != "" {
		fmt.Fprintf(bw, "  version  DRP2 %s → %s%s\n", escape.OneLine(m.DRP2Version), escape.OneLine(m.CurrentVersion), mark(m.Frozen))
	}
	for i := range m.Changes {
		ch := &m.Changes[i]
		fmt.Fprintf(bw, "  %-8s %s%s%s\n", ch.Kind, escape.OneLine(ch.Path), changeDetail(ch), mark(ch.Violation))
	}
	fmt.Fprintf(bw, "Manifest: %s\n", m.Headline)
	return bw.Flush()
}

func schemaText(path, sum string) string {
	if len(sum) > 12 {
		sum = sum[:12]
	}
	return fmt.Sprintf("%s (sha256 %s)", escape.OneLine(path), sum)
}

func changeDetail(ch *model.ManifestChange) string {
	switch ch.Kind {
	case "added", "removed":
		return ""
	case "renamed":
		return " (from " + escape.OneLine(ch.From) + ")"
	}
	return ": " + escape.OneLine(ch.Description)
}

// Coverage writes the rule coverage as aligned columns, the rules without
// a negative fixture first.
func Coverage(w io.Writer, c *model.Coverage) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Rule coverage: %s\n", explain.CoverageHeadline(c))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	group := ""
	for _, rc := range c.Rules {
		g := coverageGroupTitles[rc.Group()]
		if g != group {
			tw.Flush()
			fmt.Fprintf(bw, "\n%s\n", g)
			fmt.Fprintf(tw, "negative\tpositive\t  %s\n", "rule, code: summary")
			group = g
		}
		fmt.Fprintf(tw, "%d\t%d\t  %s\n", rc.Negative, rc.Positive, escape.OneLine(ruleLine(&rc)))
	}
	tw.Flush()
	notes := explain.CoverageNotes(c)
	for _, n := range notes {
		fmt.Fprintf(bw, "\n%s", escape.OneLine(n))
	}
	if len(notes) > 0 {
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

var coverageGroupTitles = map[model.RuleGroup]string{
	model.RulesUncovered:   "Rules without a negative fixture:",
	model.RulesCovered:     "Rules with negative fixtures:",
	model.RulesFindingOnly: "Rules that never fail a stream (findings only):",
}

func ruleLine(rc *model.RuleCoverage) string {
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
