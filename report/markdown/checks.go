package markdown

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// MaxManifestRows bounds the manifest changes listed: a pull request that
// adds a thousand fixtures must not push the rest of the job summary or
// the sticky comment past GitHub's size limits. Violations come first, so
// they are never the rows left out.
const MaxManifestRows = 50

// MaxManifestBytes bounds the whole manifest section, violations
// included: a frozen manifest of 50,000 fixtures the corpus no longer has
// would otherwise list 50,000 violations and push the job summary past
// GitHub's 1 MiB, and GitHub drops such a summary whole. Half a comment
// leaves the section room in the sticky comment and the job summary alike.
const MaxManifestBytes = escape.CommentChars / 2

// Manifest writes the manifest comparison as a section of a job summary
// or pull-request comment. Every piece of corpus text is escaped.
func Manifest(w io.Writer, m *model.ManifestCheck) error {
	var b strings.Builder
	b.WriteString("### Fixture manifest\n\n")
	verdict := ""
	switch {
	case m.Fails():
		verdict = "❌ "
	case m.Clean() || (m.Frozen && m.Violations == 0):
		verdict = "✅ "
	}
	fmt.Fprintf(&b, "%s%s\n", verdict, escape.MarkdownText(m.Headline))
	if m.Clean() {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n| | Fixture | Change |\n|---|---|---|\n")
	// The note after the table is at most this long.
	const noteRoom = 200
	rows, full := 0, false
	row := func(violation bool, what, change string) bool {
		flag := ""
		// Under --check-clean every difference fails the run.
		if violation || m.CheckClean {
			flag = "❌"
		}
		line := fmt.Sprintf("| %s | %s | %s |\n", flag, what, change)
		if full || b.Len()+len(line)+noteRoom > MaxManifestBytes {
			full = true
			return false
		}
		b.WriteString(line)
		rows++
		return true
	}
	for _, s := range m.Schemas {
		row(s.Violation, escape.Markdown(s.Which+" schema"),
			escape.Markdown(fmt.Sprintf("%s (sha256 %s) → %s (sha256 %s)", s.RecordedPath, model.ShortSum(s.RecordedSHA256), s.CurrentPath, model.ShortSum(s.CurrentSHA256))))
	}
	if m.CurrentVersion != "" {
		row(m.Frozen, "DRP2 version", escape.Markdown(m.DRP2Version+" → "+m.CurrentVersion))
	}
	// Violations first, so that a cut hides them last.
	listed, violationsLeft := 0, 0
	for pass := 0; pass < 2; pass++ {
		for i := range m.Changes {
			ch := &m.Changes[i]
			if ch.Violation != (pass == 0) {
				continue
			}
			if rows >= MaxManifestRows && !ch.Violation {
				continue
			}
			if row(ch.Violation, "<code>"+escape.Markdown(ch.Path)+"</code>", escape.Markdown(ch.Description)) {
				listed++
			} else if ch.Violation {
				violationsLeft++
			}
		}
	}
	if left := len(m.Changes) - listed; left > 0 {
		fmt.Fprintf(&b, "\n… and %s", count(left, "more change", "more changes"))
		if violationsLeft > 0 {
			fmt.Fprintf(&b, " (%d of them breaking the freeze)", violationsLeft)
		}
		b.WriteString("; run `drp2-fixtures manifest check` for all of them.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Coverage writes the rule coverage as a job-summary section: the rules
// without a negative fixture in the open, the rest folded.
func Coverage(w io.Writer, c *model.Coverage) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### Rule coverage\n\n%s\n", escape.MarkdownText(explain.CoverageHeadline(c)))
	table := func(rows []model.RuleCoverage) {
		fmt.Fprintf(bw, "\n| Rule | Code | Negative | Positive | Summary |\n|---|---|--:|--:|---|\n")
		for _, rc := range rows {
			id := escape.Markdown(rc.ID)
			if rc.Unlisted {
				id += " \\*"
			}
			fmt.Fprintf(bw, "| %s | <code>%s</code> | %d | %d | %s |\n", id, escape.Markdown(rc.Code), rc.Negative, rc.Positive, escape.Markdown(rc.Summary))
		}
	}
	groups := map[model.RuleGroup][]model.RuleCoverage{}
	for _, rc := range c.Rules {
		groups[rc.Group()] = append(groups[rc.Group()], rc)
	}
	if rows := groups[model.RulesUncovered]; len(rows) > 0 {
		fmt.Fprintf(bw, "\n**Rules without a negative fixture**\n")
		table(rows)
	}
	if rows := groups[model.RulesCovered]; len(rows) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%s with negative fixtures</summary>\n", count(len(rows), "rule", "rules"))
		table(rows)
		fmt.Fprintf(bw, "\n</details>\n")
	}
	if rows := groups[model.RulesFindingOnly]; len(rows) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%s that never fail a stream (findings only)</summary>\n", count(len(rows), "rule", "rules"))
		table(rows)
		fmt.Fprintf(bw, "\n</details>\n")
	}
	if notes := explain.CoverageNotes(c); len(notes) > 0 {
		fmt.Fprintln(bw)
		for _, n := range notes {
			fmt.Fprintf(bw, "- %s\n", escape.Markdown(n))
		}
	}
	return bw.Flush()
}

// manifestLine is the manifest section's one-line stand-in, for a
// comment with no room for the section itself.
func manifestLine(m *model.ManifestCheck) string {
	return "\n**Fixture manifest:** " + escape.MarkdownText(m.Headline) + "; the job summary lists the changes.\n"
}

// withManifest ends a comment body with the manifest section, or with its
// one-line stand-in when the whole would pass GitHub's comment limit (the
// body is left alone when even that would).
func withManifest(body string, m *model.ManifestCheck) string {
	if m == nil {
		return body
	}
	var b strings.Builder
	b.WriteString("\n")
	Manifest(&b, m) // into memory: cannot fail
	for _, section := range []string{b.String(), manifestLine(m)} {
		if fitsComment(body, section) {
			return body + section
		}
	}
	return body
}
