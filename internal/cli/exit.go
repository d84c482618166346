package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
)

// Exit codes of drp2-fixtures, the same for every subcommand
// (internal/exit).
const (
	ExitOK       = exit.OK
	ExitMismatch = exit.Failed
	ExitUsage    = exit.Usage
	ExitInternal = exit.Internal
)

// commandError is an error that stopped the subcommand name: Main prints
// it under that name.
type commandError struct {
	name string
	err  error
}

func (e *commandError) Error() string { return e.name + ": " + e.err.Error() }
func (e *commandError) Unwrap() error { return e.err }

// fail is err stopping the subcommand name; nil stays nil.
func fail(name string, err error) error {
	if err == nil {
		return nil
	}
	return &commandError{name: name, err: err}
}

// usagef is a bad invocation of the subcommand name.
func usagef(name, format string, a ...any) error {
	return fail(name, exit.Errorf(exit.Invocation, format, a...))
}

// printed is an error the subcommand has printed already, in its own form
// (the action's workflow commands, the lines of a run's outcome): Main
// only exits with its code.
type printed struct{ err error }

func (p printed) Error() string { return p.err.Error() }
func (p printed) Unwrap() error { return p.err }

// errVerdict ends a run that failed by fail-on, whose reasons the
// subcommand has printed.
var errVerdict = exit.New(exit.Verdict, errors.New("the run failed"))

// outcomeEnd is how a run ends once its lines (its error's and the
// verdict's reasons) are printed: by the outcome's end (gate.Outcome.End).
func outcomeEnd(out *gate.Outcome) error {
	if err := out.End(); err != nil {
		return printed{err}
	}
	return nil
}

// end prints the error that stopped a subcommand, unless the subcommand
// printed it itself, and returns its exit code: the one place an error
// becomes words on standard error and an exit code.
func end(env Env, err error) int {
	var p printed
	if err != nil && !errors.As(err, &p) && exit.KindOf(err) != exit.Verdict {
		fmt.Fprintln(env.Stderr, err)
	}
	return exit.Code(err)
}

// flagError is a parse error of a subcommand's flags, printed as one
// line: nil for -h/--help (the usage is printed already).
func flagError(name string, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return usagef(name, "%w (%s -h lists the flags)", err, name)
}

// Interrupted is the error a signal stops a command with, the cause its
// context ends with: name is the signal's ("SIGTERM"), number its number.
// A run stopped by it writes the reports of what ran and exits 128 plus
// number, as a shell does.
func Interrupted(name string, number int) error {
	return &exit.Interruption{Signal: name, Number: number}
}

// interrupted is err, unless err is only the end of ctx that a signal
// caused ("context canceled"): then it is the signal, so that a command
// the signal stopped exits 130 or 143 and says so, never as the tool's own
// failure.
func interrupted(ctx context.Context, err error) error {
	in := exit.InterruptionOf(context.Cause(ctx))
	if in == nil || err == nil || exit.InterruptionOf(err) != nil || !errors.Is(err, context.Canceled) {
		return err
	}
	var p printed
	var ce *commandError
	switch {
	case errors.As(err, &p):
		return printed{in}
	case errors.As(err, &ce):
		return fail(ce.name, in)
	}
	return in
}
