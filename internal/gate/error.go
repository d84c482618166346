package gate

import (
	"errors"
	"fmt"

	"github.com/drp2/drp2-fixtures/runner"
)

// Exit codes of drp2-fixtures, the same for every subcommand (as
// actionlint's: 0 no problem, 1 problems found, 2 bad invocation, 3 tool
// failure).
const (
	// ExitOK: the run passed.
	ExitOK = 0
	// ExitFailed: the run failed by fail-on (see the verdict's reasons).
	ExitFailed = 1
	// ExitUsage: bad invocation or unusable input (unknown flag, unreadable
	// corpus root, a schema that does not compile, a report path that
	// cannot be written).
	ExitUsage = 2
	// ExitInternal: the tool itself failed.
	ExitInternal = 3
)

// errNoReportReader is the error of a job given a JSON report to read by
// a front end that gave no reader: the tool's own failure.
var errNoReportReader = errors.New("no reader of JSON reports was given")

// Error is an error that says which exit code it means.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Usagef is unusable input: exit code 2.
func Usagef(format string, args ...any) error {
	return &Error{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// Code maps an error that stopped a run to its exit code: the code it
// carries (an *Error, or any error with an ExitCode method), 2 for the
// runner's unusable input, else 3, the tool's own failure.
func Code(err error) int {
	var e *Error
	var c interface{ ExitCode() int }
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &c):
		return c.ExitCode()
	case errors.Is(err, runner.ErrInput):
		return ExitUsage
	}
	return ExitInternal
}
