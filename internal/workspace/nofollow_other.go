//go:build !unix

package workspace

// Where the platform has neither flag, the element-by-element walk before
// each open still refuses links, and the type check after it special files.
const (
	noFollow = 0
	nonBlock = 0
)
