// Package exitcode names the process exit codes of drp2-fixtures, shared by
// the run and action subcommands.
package exitcode

const (
	// OK: every fixture matched its expectation.
	OK = 0
	// Mismatch: at least one fixture did not match, or a fixture was
	// unusable (a corpus error).
	Mismatch = 1
	// Usage: bad invocation or unusable input (unknown flag, unreadable
	// corpus root, a schema that does not compile).
	Usage = 2
	// Internal: the tool itself failed.
	Internal = 3
)
