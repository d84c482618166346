//go:build e2e && unix

package action_test

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the peak resident set size of an ended process, in bytes, as
// getrusage reports it: in kilobytes, but in bytes on macOS.
func peakRSS(ps *os.ProcessState) int64 {
	rss := ps.SysUsage().(*syscall.Rusage).Maxrss
	if runtime.GOOS == "darwin" {
		return rss
	}
	return rss << 10
}
