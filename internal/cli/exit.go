package cli

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/gate"
)

// Exit codes of drp2-fixtures, the same for every subcommand: gate's.
const (
	ExitOK       = gate.ExitOK
	ExitMismatch = gate.ExitFailed
	ExitUsage    = gate.ExitUsage
	ExitInternal = gate.ExitInternal
)

// exitFor is the exit code of an error that stopped a command.
func exitFor(err error) int { return gate.Code(err) }

// gateStart begins a subcommand that works through the gate: fail reports
// an error on standard error under the command's name and returns its exit
// code; ge is the gate's view of the process. When that view cannot be
// had, ok is false and code is what the subcommand returns (the error
// already reported).
func (e Env) gateStart(name string) (ge gate.Env, fail func(error) int, code int, ok bool) {
	fail = func(err error) int {
		fmt.Fprintf(e.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	ge, err := e.gateEnv()
	if err != nil {
		return ge, fail, fail(err), false
	}
	return ge, fail, ExitOK, true
}
