package gate

import (
	"errors"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/runner"
)

// ExitUsage is the exit code of unusable input (internal/exit), for the
// action, which tells the user what to fix by it.
const ExitUsage = exit.Usage

// errNoReportReader is the error of a job given a JSON report to read by
// a front end that gave no reader: the tool's own failure.
var errNoReportReader = errors.New("no reader of JSON reports was given")

// Usagef is unusable input: exit code 2.
func Usagef(format string, args ...any) error {
	return exit.Errorf(exit.Input, format, args...)
}

// Code maps an error that stopped a run to its exit code: the code its
// kind means (internal/exit), 2 for the runner's unusable input, else 3,
// the tool's own failure.
func Code(err error) int {
	var c interface{ ExitCode() int }
	if err != nil && !errors.As(err, &c) && errors.Is(err, runner.ErrInput) {
		return ExitUsage
	}
	return exit.Code(err)
}
