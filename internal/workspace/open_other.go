//go:build !linux

package workspace

import (
	"io/fs"
	"os"
)

// openBeneath has no one-call form here: the caller walks.
func openBeneath(dir *os.File, name string) (fs.File, bool, error) { return nil, false, nil }

// readDirBeneath has no one-call form here: the caller lists the folder.
func readDirBeneath(dir *os.File, name string, lstat func(string) (fs.FileInfo, error)) ([]fs.DirEntry, bool) {
	return nil, false
}
