//go:build unix

package cli

import "syscall"

// noFollow makes opening a report file fail when the file is a link.
const noFollow = syscall.O_NOFOLLOW
