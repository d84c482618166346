package junit

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestExpectations: a known failure and a flaky fixture that failed are
// skipped with their reason, a flaky pass and an unexpected pass pass with
// a note in their output, a skipped fixture is skipped; only the failure
// no entry excuses is a failure.
func TestExpectations(t *testing.T) {
	out := render(t, sample.WithExpectations(), Options{})
	golden.Check(t, "expectations.xml", out)
	var doc struct {
		Suites []struct {
			Name      string `xml:"name,attr"`
			Failures  int    `xml:"failures,attr"`
			Errors    int    `xml:"errors,attr"`
			Skipped   int    `xml:"skipped,attr"`
			Testcases []struct {
				Name      string  `xml:"name,attr"`
				Skipped   *string `xml:"skipped"`
				Failure   *string `xml:"failure"`
				SystemOut string  `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suites[len(doc.Suites)-1]
	if s.Name != "implementation: rt 1.0" || s.Failures != 1 || s.Errors != 0 {
		t.Fatalf("suite %s: %d failures, %d errors", s.Name, s.Failures, s.Errors)
	}
	skipped, notes := 0, []string{}
	for _, tc := range s.Testcases {
		if tc.Skipped != nil {
			skipped++
		}
		if tc.SystemOut != "" {
			notes = append(notes, strings.SplitN(tc.SystemOut, ":", 2)[0])
		}
	}
	if skipped != 3 || strings.Join(notes, ",") != "Flaky,Unexpected pass" {
		t.Errorf("%d skipped, notes %q", skipped, notes)
	}
}
