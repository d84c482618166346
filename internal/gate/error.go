package gate

import (
	"errors"

	"github.com/drp2/drp2-fixtures/internal/exit"
)

// errNoReportReader is the error of a job given a JSON report to read by
// a front end that gave no reader: the tool's own failure.
var errNoReportReader = errors.New("no reader of JSON reports was given")

// usagef is unusable input: exit code 2.
func usagef(format string, args ...any) error {
	return exit.Errorf(exit.Input, format, args...)
}
