package report

// The explore report's renderings (internal/explore makes the report).

import (
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// The report's renderings: text for a terminal, JSON for machines and
// Markdown for a job summary. Implementations' words (names, phases,
// codes, messages) are untrusted and escaped for each sink.

// writeExploreJSON writes the report as one indented JSON document.
func writeExploreJSON(w io.Writer, rep *model.Exploration) error {
	// Implementations' words and stream content are untrusted: the
	// document is written as the JSON report is, safe for an Actions log.
	return jsonout.Encode(w, exploreWire(rep))
}

// inShard names the shard of a sharded exploration (its streams are those
// whose index i has i mod N = K-1, docs/cli.md says).
func inShard(rep *model.Exploration) string {
	if rep.Shard == nil {
		return ""
	}
	return fmt.Sprintf(" in shard %d/%d", rep.Shard.Index, rep.Shard.Count)
}

// writeExploreText writes the report for people.
func writeExploreText(w io.Writer, rep *model.Exploration) error {
	var b strings.Builder
	fmt.Fprintf(&b, "explore: seed %d, %d of %d streams%s (%s), from %d corpus streams\n", rep.Seed, rep.Streams, rep.Count, inShard(rep), stopped(rep), rep.Seeds)
	fmt.Fprintf(&b, "  kinds: %s\n", kinds(rep))
	if len(rep.Implementations) == 0 {
		b.WriteString("  no implementation given: nothing to disagree with (--implementation)\n")
	}
	for _, im := range rep.Implementations {
		fmt.Fprintf(&b, "  %s: agreed %d, differed %d, no verdict %d, not claimed %d, restarts %d\n", escape.OneLine(im.Label), im.Agreed, im.Differed, im.NoVerdict, im.NotClaimed, im.Restarts)
		if im.Error != "" {
			fmt.Fprintf(&b, "    stopped: %s\n", escape.OneLine(im.Error))
		}
	}
	fmt.Fprintf(&b, "%d disagreement signatures\n", len(rep.Disagreements))
	for i, d := range rep.Disagreements {
		fmt.Fprintf(&b, "\n%d. %s (%d streams; first: stream %d, %s)\n", i+1, escape.OneLine(d.Rule), d.Streams, d.First, explain.StreamKind(d.Kind))
		fmt.Fprintf(&b, "   built-in validator: %s\n", escape.OneLine(explain.StreamVerdict(d.Builtin)))
		for _, a := range d.Answers {
			if len(a.Differs) == 0 {
				fmt.Fprintf(&b, "   %s: agrees\n", escape.OneLine(a.Implementation))
				continue
			}
			fmt.Fprintf(&b, "   %s: %s (differs in %s)\n", escape.OneLine(a.Implementation), escape.OneLine(explain.StreamVerdict(a.Verdict)), strings.Join(a.Differs, ", "))
		}
		fmt.Fprintf(&b, "   candidate: %s (%d commands, from %d)%s\n", d.Candidate.Path, d.Candidate.Commands, d.Candidate.Original, written(d.Candidate))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeExploreMarkdown writes the report as a job-summary section.
func writeExploreMarkdown(w io.Writer, rep *model.Exploration) error {
	var b strings.Builder
	b.WriteString("### DRP2 explore\n\n")
	fmt.Fprintf(&b, "Seed %d: %d of %d generated streams%s (%s; %s), from %d corpus streams.\n\n", rep.Seed, rep.Streams, rep.Count, inShard(rep), stopped(rep), kinds(rep), rep.Seeds)
	if len(rep.Implementations) == 0 {
		b.WriteString("No implementation was given: nothing to disagree with.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("| implementation | agreed | differed | no verdict | not claimed | restarts |\n|:--|--:|--:|--:|--:|--:|\n")
	for _, im := range rep.Implementations {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", escape.Markdown(im.Label), im.Agreed, im.Differed, im.NoVerdict, im.NotClaimed, im.Restarts)
	}
	if len(rep.Disagreements) == 0 {
		b.WriteString("\nEvery implementation agreed with the built-in validator on every stream.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "\n%d disagreement signatures:\n\n", len(rep.Disagreements))
	b.WriteString("| rule | built-in validator | answers | streams | candidate |\n|:--|:--|:--|--:|:--|\n")
	for _, d := range rep.Disagreements {
		var answers []string
		for _, a := range d.Answers {
			if len(a.Differs) > 0 {
				answers = append(answers, escape.Markdown(a.Implementation+": "+explain.StreamVerdict(a.Verdict)+" (differs in "+strings.Join(a.Differs, ", ")+")"))
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | <code>%s</code> (%d commands) |\n", escape.Markdown(d.Rule), escape.Markdown(explain.StreamVerdict(d.Builtin)),
			strings.Join(answers, "<br>"), d.Streams, escape.Markdown(d.Candidate.Path), d.Candidate.Commands)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func stopped(rep *model.Exploration) string {
	switch rep.StoppedBy {
	case "time":
		return "stopped by --time"
	case "interrupted":
		return "interrupted"
	}
	return "all generated"
}

func kinds(rep *model.Exploration) string {
	var parts []string
	for _, k := range rep.Kinds {
		parts = append(parts, fmt.Sprintf("%d %s", k.Streams, k.Kind))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func written(c model.CandidateFixture) string {
	if c.Written == "" {
		return ""
	}
	return "; " + c.Written
}
