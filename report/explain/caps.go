package explain

import "fmt"

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
