package cli

import (
	"github.com/drp2/drp2-fixtures/internal/coverage"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// validatorRules returns the rules the DRP2 validator implements, in its
// order, and its traced check, for coverage.
func validatorRules() ([]coverage.Rule, coverage.Tracer) {
	infos := drp2.Rules()
	rules := make([]coverage.Rule, len(infos))
	for i, r := range infos {
		rules[i] = coverage.Rule{ID: r.ID, Code: r.Code, Summary: r.Summary}
	}
	return rules, drp2.New()
}
