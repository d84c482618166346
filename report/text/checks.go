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
		what, rec, cur := "sha256", s.RecordedSHA256, s.CurrentSHA256
		if s.RecordedClosure != "" && s.CurrentClosure != "" {
			what, rec, cur = "closure sha256", s.RecordedClosure, s.CurrentClosure
		}
		fmt.Fprintf(bw, "  schema   %s: %s → %s%s\n", s.Which, schemaText(s.RecordedPath, what, rec),
			schemaText(s.CurrentPath, what, cur), mark(s.Violation))
		if len(s.Files) > 0 {
			fmt.Fprintf(bw, "           files changed: %s\n", explain.SchemaFiles(s.Files, escape.OneLine))
		}
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

func schemaText(path, what, sum string) string {
	if len(sum) > 12 {
		sum = sum[:12]
	}
	return fmt.Sprintf("%s (%s %s)", escape.OneLine(path), what, sum)
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
