package junit

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// withChecks is the sample run with a broken frozen manifest and the rule
// coverage, as a job that asked for both carries them.
func withChecks() *model.Run {
	run := sample.Passing()
	run.Manifest = &model.ManifestCheck{Path: "fixtures/manifest.json", Frozen: true, DRP2Version: "2.0",
		Headline: "1 added, 1 changed since the manifest (DRP2 2.0, frozen); 1 breaks the freeze", Unchanged: 3, Violations: 1,
		Changes: []model.ManifestChange{
			{Kind: "added", Path: "positive/new.json", Description: "added"},
			{Kind: "changed", Path: "negative/<bad>&\x01.json", Aspects: []string{"expected"}, Expected: []string{"error_code: a → b"},
				Description: "expected block (error_code: a → b)", Violation: true},
		}}
	run.Coverage = &model.Coverage{Uncovered: 1, PositiveFixtures: 2, NegativeFixtures: 1, Rules: []model.RuleCoverage{
		{ID: "COMMANDS.md CreateBuffer rule 2", Code: "invalid_argument", Summary: "size > 0"},
		{ID: "LIFETIMES.md rule 1", Code: "unknown_id", Summary: "ids exist", Negative: 1, Positive: 2},
		{ID: "FORMAT.md finding", Summary: "only a finding", FindingOnly: true},
	}}
	return run
}

// checksDoc is what the checks tests read of a JUnit document.
type checksDoc struct {
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Type    string `xml:"type,attr"`
				Message string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseChecks(t *testing.T, out []byte) checksDoc {
	t.Helper()
	var doc checksDoc
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestManifestAndCoverage(t *testing.T) {
	out := render(t, withChecks(), actionsProps)
	golden.Check(t, "checks.xml", out)
	doc := parseChecks(t, out)
	last := doc.Suites[len(doc.Suites)-1]
	if last.Name != "manifest" || last.Tests != 2 || last.Failures != 1 || doc.Failures != 1 {
		t.Fatalf("manifest suite %+v, total failures %d", last, doc.Failures)
	}
	if f := last.Cases[1].Failure; f == nil || f.Type != "frozen_manifest" || last.Cases[0].Failure != nil {
		t.Errorf("testcases %+v", last.Cases)
	}
	props := map[string][]string{}
	for _, p := range doc.Suites[0].Props {
		props[p.Name] = append(props[p.Name], p.Value)
	}
	if u := props["drp2.coverage.uncovered_rule"]; len(u) != 1 || u[0] != "COMMANDS.md CreateBuffer rule 2" || props["drp2.coverage.uncovered"][0] != "1" {
		t.Errorf("coverage properties of the first suite: %v", props)
	}
	// A run of no fixtures still carries the run's evidence, on the
	// manifest suite.
	empty := &model.Run{ToolVersion: "1.0", Manifest: withChecks().Manifest}
	var only struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Props []struct {
				Name string `xml:"name,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(render(t, empty, Options{}), &only); err != nil {
		t.Fatal(err)
	}
	if len(only.Suites) != 1 || only.Suites[0].Props[0].Name != "drp2.tool_version" {
		t.Errorf("suites of a manifest-only run: %+v", only.Suites)
	}
	validate(t, "checks", render(t, withChecks(), Options{Properties: actionsProps.Properties, Strict: true}))
	validate(t, "manifest-only", render(t, empty, Options{Strict: true}))
}

// validate checks a strict report against both JUnit schemas with
// xmllint; the default one is the same without file and line (TestStrict).
func validate(t *testing.T, name string, out []byte) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Log("SKIPPED: xmllint not found; install libxml2-utils to validate JUnit output against the XSDs")
		return
	}
	schemaDir := filepath.Join("..", "..", "..", "shared", "junit")
	if _, err := os.Stat(schemaDir); err != nil {
		schemaDir = "/work/shared/junit"
	}
	file := filepath.Join(t.TempDir(), name+".xml")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, xsd := range []string{"junit-10.xsd", "junit-4.xsd"} {
		if out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join(schemaDir, xsd), file).CombinedOutput(); err != nil {
			t.Errorf("%s against %s: %v\n%s", name, xsd, err, out)
		}
	}
}

// Under --check-clean every difference fails the run, so every difference
// is a failing testcase: a freeze's violation as such, the rest as a
// difference from the manifest.
func TestManifestCheckClean(t *testing.T) {
	run := withChecks()
	run.Manifest.CheckClean = true
	out := render(t, run, Options{})
	doc := parseChecks(t, out)
	last := doc.Suites[len(doc.Suites)-1]
	if last.Name != "manifest" || len(last.Cases) != 2 || doc.Failures != 2 {
		t.Fatalf("manifest suite %+v, total failures %d", last, doc.Failures)
	}
	added, changed := last.Cases[0].Failure, last.Cases[1].Failure
	if added == nil || added.Type != "manifest_difference" || added.Message != "positive/new.json differs from the manifest fixtures/manifest.json (added); --check-clean fails on any difference" {
		t.Errorf("added fixture under --check-clean: %+v", added)
	}
	if changed == nil || changed.Type != "frozen_manifest" {
		t.Errorf("violation under --check-clean: %+v", changed)
	}
	// A clean corpus passes, --check-clean or not.
	run.Manifest = &model.ManifestCheck{Path: "fixtures/manifest.json", DRP2Version: "2.0", Headline: "the corpus matches its manifest", CheckClean: true}
	if clean := parseChecks(t, render(t, run, Options{})); clean.Failures != 0 {
		t.Errorf("clean manifest under --check-clean: %d failures", clean.Failures)
	}
	validate(t, "check-clean", render(t, run, Options{Strict: true}))
}
