package cli

import (
	"errors"

	"github.com/drp2/drp2-fixtures/internal/coverage"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// validatorRules returns the rules the DRP2 validator implements and its
// traced check, for coverage.
func validatorRules() ([]coverage.Rule, coverage.Tracer, error) {
	var v any = drp2.New()
	if _, ok := v.(coverage.Tracer); !ok {
		return nil, nil, errors.New("this build's DRP2 validator does not trace the rules it applies, so rule coverage cannot be counted")
	}
	return nil, nil, errors.New("this build's DRP2 validator does not list its rules, so rule coverage cannot be counted")
}
