package markdown

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// removedRun is a passing run whose change removed n fixtures: every third
// failed on the base, every third was a known failure there, the rest
// passed. The ones that passed come first in path order, so that the
// headline's order is its own.
func removedRun(n int) *model.Run {
	run := sample.Passing()
	c := &model.Comparison{Base: "abc1234", Commit: sample.BaseCommit}
	for i := 0; i < n; i++ {
		base := &model.Side{Passed: true, Expected: model.Expected{Outcome: "success"}, Actual: model.Actual{Outcome: model.Success}}
		rel := fmt.Sprintf("positive/a_passed_%03d.json", i)
		if i%3 > 0 {
			base.Passed = false
			base.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: new(int)}
			base.KnownFailure = i%3 == 1
			rel = fmt.Sprintf("positive/b_failed_%03d.json", i)
		}
		c.Changes = append(c.Changes, model.Change{RelPath: rel, Path: "fixtures/" + rel, Name: strings.TrimSuffix(rel[9:], ".json"),
			Transition: model.Removed, Base: base})
	}
	run.Comparison = c
	return run
}

// TestRemovedNamedInHeadline: the headline names the fixtures a change
// removed with the base's verdict on each, the failures first, and stays
// a line of a few hundred characters at 400 removed.
func TestRemovedNamedInHeadline(t *testing.T) {
	for _, n := range []int{3, 400} {
		run := removedRun(n)
		comment := Comment(run, linked)
		golden.Check(t, fmt.Sprintf("removed-%d-comment.md", n), []byte(comment))
		headline := strings.SplitN(comment, "\n", 3)[1]
		for _, want := range []string{"### ⚪ ", "failed on the base: positive/b\\_failed\\_", "passed on the base"} {
			if !strings.Contains(headline, want) {
				t.Errorf("%d removed: headline %q does not say %q", n, headline, want)
			}
		}
		if failed, passed := strings.Index(headline, "failed on the base"), strings.Index(headline, "passed on the base"); failed > passed {
			t.Errorf("%d removed: headline %q names the passing fixtures first", n, headline)
		}
		if k := utf8.RuneCountInString(headline); k > 600 {
			t.Errorf("%d removed: headline of %d characters: %q", n, k, headline)
		}
	}
}
