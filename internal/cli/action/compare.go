package action

import (
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

// comparisonOutputs are the step outputs of the comparison, empty when
// there is none.
func comparisonOutputs(c *model.Comparison) []output {
	count := func(n int) string {
		if c == nil || c.Unavailable != "" {
			return ""
		}
		return strconv.Itoa(n)
	}
	var d model.Delta
	if c != nil {
		d = c.Delta()
	}
	return []output{
		{"regressed", count(d.Regressed)},
		{"fixed", count(d.Fixed)},
		{"added", count(d.Added())},
		{"removed", count(d.Removed)},
		{"expectation-changed", count(d.ExpectationChanged)},
		{"broken", count(d.Broken)},
	}
}

// withoutBaseIdentity is run with its comparison's base commit left out:
// a base branch that moved on gives the same result key, so comment:
// changes rewrites the comment only when the delta or the result changed.
func withoutBaseIdentity(run *model.Run) *model.Run {
	if run.Comparison == nil {
		return run
	}
	c := *run.Comparison
	c.Base, c.Commit = "", ""
	r := *run
	r.Comparison = &c
	return &r
}
