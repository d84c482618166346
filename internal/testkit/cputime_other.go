//go:build !linux

package testkit

import "time"

// threadCPU cannot be read here: CPUTime falls back on the wall clock.
func threadCPU() (time.Duration, bool) { return 0, false }
