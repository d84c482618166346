// Package exit is how a command of drp2-fixtures ends: its exit code, the
// same for every subcommand and for the action (as actionlint's: 0 no
// problem, 1 problems found, 2 bad invocation or unusable input, 3 the
// tool's own failure; and as a shell's, 128 plus the signal's number for a
// command a signal stopped: 130 SIGINT, 143 SIGTERM), and the errors whose kind says which code they
// mean. Every layer makes these errors; the front end alone maps them to
// a code, once, and prints them a line each (Lines).
package exit

import (
	"errors"
	"fmt"
	"strings"
)

// The exit codes.
const (
	// OK: the run passed.
	OK = 0
	// Failed: the run failed by fail-on (see the verdict's reasons).
	Failed = 1
	// Usage: bad invocation or unusable input (unknown flag, unreadable
	// corpus root, a schema that does not compile, a report path that
	// cannot be written).
	Usage = 2
	// Internal: the tool itself failed.
	Internal = 3
)

// Kind is what stopped a command, which decides its exit code.
type Kind int

const (
	// Tool is the tool's own failure, what an error of no kind means.
	Tool Kind = iota
	// Verdict is a run that failed by fail-on: the command prints the
	// verdict's reasons itself.
	Verdict
	// Invocation is a bad invocation: an unknown flag, a missing or
	// unexpected argument.
	Invocation
	// Input is unusable input: a corpus root that cannot be read, a
	// schema that does not compile, a list that does not parse.
	Input
	// Record is a record of the run (a report file, a manifest, a
	// candidate) that could not be written where the user said.
	Record
	// Interrupted is a command a signal stopped (Interruption): neither
	// the tool's failure nor the input's, and never a pass.
	Interrupted
)

// Code is the exit code of an error of kind k.
func (k Kind) Code() int {
	switch k {
	case Verdict:
		return Failed
	case Invocation, Input, Record:
		return Usage
	case Interrupted:
		// A shell's code for SIGINT, when no Interruption names the
		// signal.
		return 128 + 2
	}
	return Internal
}

// Error is an error of a kind.
type Error struct {
	Kind Kind
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ExitCode is the exit code the error means.
func (e *Error) ExitCode() int { return e.Kind.Code() }

// New gives err the kind k; nil stays nil.
func New(k Kind, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: k, Err: err}
}

// Errorf is an error of kind k, formatted as fmt.Errorf does (%w keeps
// the chain).
func Errorf(k Kind, format string, a ...any) error {
	return &Error{Kind: k, Err: fmt.Errorf(format, a...)}
}

// Code is the exit code of an error that stopped a command: OK for nil,
// the code it carries (any error in its chain with an ExitCode method, an
// *Error among them), else Internal.
func Code(err error) int {
	var c interface{ ExitCode() int }
	switch {
	case err == nil:
		return OK
	case errors.As(err, &c):
		return c.ExitCode()
	}
	return Internal
}

// KindOf is the kind of err: the first *Error's in its chain, else
// Interrupted for an Interruption in it, else Tool.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	if errors.As(err, new(*Interruption)) {
		return Interrupted
	}
	return Tool
}

// Interruption is a command stopped by a signal before it ended on its own
// (SIGINT from a terminal's Ctrl-C or a cancelled workflow, SIGTERM from a
// runner or a container's stop). Its exit code is a shell's for the
// signal, 128 plus its number, so that a script tells it from a verdict
// and from the tool's own failure.
type Interruption struct {
	// Signal is the signal's name ("SIGTERM"); Number its number.
	Signal string
	Number int
}

func (e *Interruption) Error() string { return "interrupted by " + e.Signal }

// ExitCode is 128 plus the signal's number: 130 for SIGINT, 143 for
// SIGTERM.
func (e *Interruption) ExitCode() int { return 128 + e.Number }

// InterruptionOf is the Interruption in err's chain; nil when there is none.
func InterruptionOf(err error) *Interruption {
	var in *Interruption
	if errors.As(err, &in) {
		return in
	}
	return nil
}

// Lines are the messages of err, one for each joined error: how a front
// end prints what stopped a command, a line each; none for nil.
func Lines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}
