//go:build !linux

package workspace

import "os"

// openBeneath has no one-call form here: the caller walks.
func openBeneath(dir *os.File, name string) (*os.File, bool, error) { return nil, false, nil }
