//go:build e2e && !unix

package action_test

import "os"

// peakRSS is 0, not measured: only Unix's getrusage reports it.
func peakRSS(*os.ProcessState) int64 { return 0 }
