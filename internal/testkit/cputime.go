package testkit

import (
	"runtime"
	"time"
)

// CPUTime runs f on one locked OS thread and returns the CPU time that
// thread spent in it, where the system can say (Linux), else the wall
// time. A test that bounds how long work takes bounds its CPU time, not
// the wall clock: on a loaded machine (a CI runner, other test packages
// in parallel) the wall clock measures the neighbours.
func CPUTime(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := threadCPU()
	wall := time.Now()
	f()
	if end, ok2 := threadCPU(); ok && ok2 {
		return end - start
	}
	return time.Since(wall)
}
