//go:build !linux

package workspace

import (
	"io/fs"
	"os"
)

// openBeneath has no one-call form here: the caller walks.
func openBeneath(dir *os.File, name string) (fs.File, bool, error) { return nil, false, nil }
