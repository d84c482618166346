package junit

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestImplementationSuites: after the class suites come one suite per
// implementation, with its fixtures as testcases, mismatches as failures
// and harness errors as errors.
func TestImplementationSuites(t *testing.T) {
	run := sample.WithImplementations()
	out := render(t, run, Options{})
	golden.Check(t, "implementations.xml", out)
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   int    `xml:"errors,attr"`
			Props    []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			SystemErr string `xml:"system-err"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var impl []int
	for i, s := range doc.Suites {
		if strings.HasPrefix(s.Name, "implementation: ") {
			impl = append(impl, i)
		}
	}
	if len(impl) != 3 || impl[0] != len(doc.Suites)-3 {
		t.Fatalf("implementation suites at %v of %d", impl, len(doc.Suites))
	}
	for k, i := range impl {
		s, im := doc.Suites[i], run.Implementations[k]
		errors := im.HarnessErrors()
		if s.Tests != len(im.Results) || s.Failures+s.Errors != im.Summary.Failed || s.Errors != errors {
			t.Errorf("%s: tests %d failures %d errors %d; want %d, %d failed of which %d harness errors",
				s.Name, s.Tests, s.Failures, s.Errors, len(im.Results), im.Summary.Failed, errors)
		}
		found := false
		for _, p := range s.Props {
			found = found || p.Name == "drp2.implementation.command" && p.Value != ""
		}
		if !found {
			t.Errorf("%s: no command property", s.Name)
		}
	}
	if s := doc.Suites[impl[0]]; s.Name != "implementation: ./no-such-runtime --adapter" || !strings.Contains(s.SystemErr, "not found") {
		t.Errorf("first implementation suite: %q, stderr %q", s.Name, s.SystemErr)
	}
}

// TestNotClaimedIsSkipped: a fixture of a phase the implementation does not
// perform is a skipped testcase, neither a failure nor an error.
func TestNotClaimedIsSkipped(t *testing.T) {
	out := render(t, sample.WithWebGPU(), Options{})
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Props    []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range doc.Suites {
		if !strings.Contains(s.Name, "webgpu.js on node") {
			continue
		}
		found = true
		if s.Skipped != 2 || s.Failures != 0 {
			t.Errorf("%s: %d skipped, %d failures; want 2 and 0", s.Name, s.Skipped, s.Failures)
		}
		props := map[string]string{}
		for _, p := range s.Props {
			props[p.Name] = p.Value
		}
		if props["drp2.implementation.phases"] != "semantic_validation,capability_validation" || !strings.Contains(props["drp2.implementation.adapter"], "SwiftShader driver 5.0.0") {
			t.Errorf("properties: %v", props)
		}
	}
	if !found {
		t.Fatal("no suite for the WebGPU host")
	}
}
