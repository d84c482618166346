package gate

import (
	"github.com/drp2/drp2-fixtures/internal/coverage"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// coverageRun counts the rules of the validator a run exercises: the
// counter is the head run's checker.
type coverageRun struct {
	counter *coverage.Counter
	rules   []coverage.Rule
}

func newCoverage() *coverageRun {
	rules, tracer := ValidatorRules()
	return &coverageRun{counter: coverage.NewCounter(tracer), rules: rules}
}

func (c *coverageRun) report(run *model.Run) (*model.Coverage, error) {
	return coverage.Count(c.rules, run, c.counter)
}

// ValidatorRules returns the rules the DRP2 validator implements, in its
// order, and its traced check, for coverage.
func ValidatorRules() ([]coverage.Rule, coverage.Tracer) {
	infos := drp2.Rules()
	rules := make([]coverage.Rule, len(infos))
	for i, r := range infos {
		rules[i] = coverage.Rule{ID: r.ID, Code: r.Code, Summary: r.Summary}
	}
	return rules, drp2.New()
}
