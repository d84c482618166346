package junit

// The JUnit XML document. Its elements and attributes are those of
// go-junit-report's junit package, in the same order, so the documents are
// what its consumers know; the types are the report's own because a known
// failure is a <skipped> with its reason as text, which junit-4.xsd
// requires (it allows no attribute on <skipped>) and go-junit-report's
// always-present message attribute cannot give.

import (
	"encoding/xml"
	"fmt"
	"io"
)

type xmlSuites struct {
	XMLName xml.Name `xml:"testsuites"`

	Name     string `xml:"name,attr,omitempty"`
	Time     string `xml:"time,attr,omitempty"`
	Tests    int    `xml:"tests,attr,omitempty"`
	Errors   int    `xml:"errors,attr,omitempty"`
	Failures int    `xml:"failures,attr,omitempty"`
	// No skipped or disabled attribute: junit-10.xsd rejects them here.

	Suites []xmlSuite `xml:"testsuite,omitempty"`
}

// addSuite adds a suite and its counts.
func (t *xmlSuites) addSuite(ts xmlSuite) {
	t.Suites = append(t.Suites, ts)
	t.Tests += ts.Tests
	t.Errors += ts.Errors
	t.Failures += ts.Failures
}

// writeXML writes the document, tab-indented, with a final new line.
func (t *xmlSuites) writeXML(w io.Writer) error {
	enc := xml.NewEncoder(w)
	enc.Indent("", "\t")
	if err := enc.Encode(t); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n")
	return err
}

type xmlSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	ID       int    `xml:"id,attr"`

	Skipped   int    `xml:"skipped,attr,omitempty"`
	Time      string `xml:"time,attr"`
	Timestamp string `xml:"timestamp,attr,omitempty"`

	Properties *[]property `xml:"properties>property,omitempty"`
	Testcases  []testcase  `xml:"testcase,omitempty"`
	SystemOut  *output     `xml:"system-out,omitempty"`
	SystemErr  *output     `xml:"system-err,omitempty"`
}

// addTestcase adds a testcase and counts it.
func (t *xmlSuite) addTestcase(tc testcase) {
	t.Testcases = append(t.Testcases, tc)
	t.Tests++
	if tc.Error != nil {
		t.Errors++
	}
	if tc.Failure != nil {
		t.Failures++
	}
	if tc.Skipped != nil {
		t.Skipped++
	}
}

type testcase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	// File and Line place the testcase in the repository, as pytest's
	// xunit1 family does; test-report actions read them. Neither JUnit
	// schema allows them: the strict flavour leaves them out.
	File string `xml:"file,attr,omitempty"`
	Line int    `xml:"line,attr,omitempty"`
	Time string `xml:"time,attr,omitempty"`

	// Skipped holds its reason as text: junit-4.xsd allows no attribute.
	Skipped   *output `xml:"skipped,omitempty"`
	Error     *result `xml:"error,omitempty"`
	Failure   *result `xml:"failure,omitempty"`
	SystemOut *output `xml:"system-out,omitempty"`
	SystemErr *output `xml:"system-err,omitempty"`
}

type property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type result struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Data    string `xml:",cdata"`
}

type output struct {
	Data string `xml:",cdata"`
}
