package explain

import (
	"fmt"
	"time"
)

// MoreFindings says where the findings a terminal's report leaves out
// are, after the ones it shows.
func MoreFindings(n int) string {
	return fmt.Sprintf("... and %d more %s: the verbose report (--verbose) and the JSON report (--format json, --json-out) list them all",
		n, Plural(n, "finding", "findings"))
}

// MoreFailures says where the failures left out of their restatement
// before the verdict are.
func MoreFailures(n int) string {
	return fmt.Sprintf("... and %d more %s, each shown at the top of this report", n, Plural(n, "failure", "failures"))
}

// Progress is a run's progress line: fixtures done of those announced,
// the rate so far and the failures so far.
func Progress(done, total, failed int, elapsed time.Duration) string {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed.Seconds()
	}
	return fmt.Sprintf("%d/%d fixtures, %.0f/s, %d failed", done, total, rate, failed)
}
