//go:build unix

package workspace

import "syscall"

// noFollow makes an open fail when the file itself is a link; nonBlock
// keeps opening a FIFO from waiting for a writer (it is then refused as
// not a regular file).
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)
