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

// LeftOutBody stands for the detail of a failure past the first ones the
// reports give in full (escape.FullFailures): its verdict is whole, its words
// are not.
const LeftOutBody = "Detail left out: the reports give the first failures in full and only the verdict of the rest; run this fixture alone to see its message."

// MoreLeftOut says how many failures a report counts without giving them
// in full, after the shown ones it gave: "N more failing fixtures, ...",
// for the report to lead with its own "and".
func MoreLeftOut(n, shown int) string {
	return fmt.Sprintf("%d more failing %s, counted but not given in full: the reports give the first %d failures in full, and the JSON report each one's verdict",
		n, Plural(n, "fixture", "fixtures"), shown)
}

// MorePassing says how many passing fixtures a listing left out.
func MorePassing(n int) string {
	return fmt.Sprintf("... and %d more passing %s, counted: the JSON report lists every fixture", n, Plural(n, "fixture", "fixtures"))
}
