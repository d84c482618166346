package explain

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// CoverageHeadline is the rule coverage in one line.
func CoverageHeadline(c *model.Coverage) string {
	failing := 0
	for i := range c.Rules {
		if c.Rules[i].Group() != model.RulesFindingOnly {
			failing++
		}
	}
	return fmt.Sprintf("%d of %d rules that fail a stream have no negative fixture (from %d passing positive and %d passing negative fixtures)",
		c.Uncovered, failing, c.PositiveFixtures, c.NegativeFixtures)
}

// CoverageNotes are the caveats of the rule coverage, one sentence each.
func CoverageNotes(c *model.Coverage) []string {
	var out []string
	if n := c.NotCounted; n > 0 {
		out = append(out, fmt.Sprintf("%d %s that did not pass %s not counted.", n, Plural(n, "fixture", "fixtures"), Plural(n, "was", "were")))
	}
	if n := len(c.NoRule); n > 0 {
		out = append(out, fmt.Sprintf("%d negative %s %s by a verdict that names no rule: %s.", n, Plural(n, "fixture", "fixtures"), Plural(n, "fails", "fail"), strings.Join(c.NoRule, ", ")))
	}
	unlisted := 0
	for i := range c.Rules {
		if c.Rules[i].Unlisted {
			unlisted++
		}
	}
	if n := unlisted; n > 0 {
		out = append(out, fmt.Sprintf("%d %s marked * %s named by verdicts or traces but missing from the checker's rule list.", n, Plural(n, "rule", "rules"), Plural(n, "was", "were")))
	}
	return out
}
