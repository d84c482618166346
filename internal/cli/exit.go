package cli

import "github.com/drp2/drp2-fixtures/internal/gate"

// Exit codes of drp2-fixtures, the same for every subcommand: gate's.
const (
	ExitOK       = gate.ExitOK
	ExitMismatch = gate.ExitFailed
	ExitUsage    = gate.ExitUsage
	ExitInternal = gate.ExitInternal
)

// exitFor is the exit code of an error that stopped a command.
func exitFor(err error) int { return gate.Code(err) }
