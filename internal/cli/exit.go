package cli

// Exit codes of drp2-fixtures, the same for every subcommand (as
// actionlint's: 0 no problem, 1 problems found, 2 bad invocation, 3 tool
// failure).
const (
	// ExitOK: every fixture matched its expectation.
	ExitOK = 0
	// ExitMismatch: at least one fixture did not match, or a fixture was
	// unusable (a corpus error), or nothing ran.
	ExitMismatch = 1
	// ExitUsage: bad invocation or unusable input (unknown flag, unreadable
	// corpus root, a schema that does not compile, a report path that
	// cannot be written).
	ExitUsage = 2
	// ExitInternal: the tool itself failed.
	ExitInternal = 3
)
