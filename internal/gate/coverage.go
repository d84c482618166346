package gate

import (
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// coverageRun counts the rules of the validator a run exercises: the
// counter is the head run's checker.
type coverageRun struct {
	counter *drp2.CoverageCounter
	rules   []drp2.RuleInfo
}

func newCoverage() *coverageRun {
	return &coverageRun{counter: drp2.NewCoverageCounter(drp2.New()), rules: drp2.Rules()}
}

func (c *coverageRun) report(run *model.Run) (*model.Coverage, error) {
	return drp2.CountCoverage(c.rules, run, c.counter)
}
