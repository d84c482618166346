package junit

import (
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// placedCase is what a test-report action reads of a testcase to place it.
type placedCase struct {
	Name    string    `xml:"name,attr"`
	File    string    `xml:"file,attr"`
	Line    string    `xml:"line,attr"`
	Failure *struct{} `xml:"failure"`
	Error   *struct{} `xml:"error"`
}

func placedCases(t *testing.T, out []byte) []placedCase {
	t.Helper()
	var doc struct {
		Suites []struct {
			Cases []placedCase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var all []placedCase
	for _, s := range doc.Suites {
		all = append(all, s.Cases...)
	}
	return all
}

// TestPlacement: EnricoMi/publish-unit-test-result-action and
// mikepenz/action-junit-report place a testcase by its file and line
// attributes, and without them annotate the folder (the classname) at line
// 0. Every fixture's testcase carries its repository-relative path, and
// every failing one the line its annotation has: the failing member's.
func TestPlacement(t *testing.T) {
	run := sample.Run()
	cases := placedCases(t, render(t, run, Options{}))
	byName := map[string]placedCase{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	if c := byName["draw_outside_pass"]; c.File != "fixtures/negative/draw_outside_pass.json" || c.Line != "61" {
		t.Errorf("mismatch placed at %q line %q, want fixtures/negative/draw_outside_pass.json line 61", c.File, c.Line)
	}
	if c := byName["minimal_triangle"]; c.File != "fixtures/positive/minimal_triangle.json" || c.Line != "" {
		t.Errorf("a passing fixture placed at %q line %q: want its file and no line", c.File, c.Line)
	}
	// The same place as the annotation of the same result.
	failing := 0
	for _, a := range annotation.Build(run) {
		if a.Level != annotation.LevelFailure {
			continue
		}
		found := false
		for _, c := range cases {
			if c.File == a.Path && (c.Failure != nil || c.Error != nil) {
				found = true
				if c.Line != strconv.Itoa(a.StartLine) {
					t.Errorf("%s: JUnit line %q, annotation line %d", a.Path, c.Line, a.StartLine)
				}
			}
		}
		if !found {
			t.Errorf("no failing testcase placed at the annotation's file %q", a.Path)
		}
		failing++
	}
	if failing == 0 {
		t.Fatal("the sample has no failure annotation")
	}
}

// TestPlacementOnlyInTheRepository: a fixture of the embedded corpus, or
// one outside the repository, names no file a reporter could annotate: its
// testcase has no file attribute, rather than a wrong one.
func TestPlacementOnlyInTheRepository(t *testing.T) {
	for _, p := range []string{"embedded:negative/x.json", "/abs/negative/x.json", "../elsewhere/negative/x.json", `C:\corpus\negative\x.json`} {
		run := &model.Run{Results: []model.Result{{Path: p, RelPath: "negative/x.json", Name: "x", Class: model.ClassNegative, Folder: "negative",
			Span: &model.Span{Line: 3}, Actual: model.Actual{Outcome: model.Success}}}}
		for _, c := range placedCases(t, render(t, run, Options{})) {
			if c.File != "" || c.Line != "" {
				t.Errorf("%s: placed at %q line %q", p, c.File, c.Line)
			}
		}
	}
	run := &model.Run{Results: []model.Result{{Path: `./fixtures\negative\x.json`, Name: "x", Class: model.ClassNegative,
		Actual: model.Actual{Outcome: model.Success}}}}
	if c := placedCases(t, render(t, run, Options{})); len(c) != 1 || c[0].File != "fixtures/negative/x.json" || c[0].Line != "1" {
		t.Errorf("placed %+v, want fixtures/negative/x.json line 1 (the span unknown)", c)
	}
}

// TestStrict: the strict flavour is the default report without the file
// and line attributes, byte for byte: what the JUnit schemas allow.
func TestStrict(t *testing.T) {
	attrs := regexp.MustCompile(` (file="[^"]*"|line="[0-9]+")`)
	for name, run := range map[string]*model.Run{"sample": sample.Run(), "implementations": sample.WithImplementations(), "compared": sample.Compared()} {
		placed := string(render(t, run, actionsProps))
		strict := string(render(t, run, Options{Properties: actionsProps.Properties, Strict: true}))
		if !strings.Contains(placed, ` file="`) {
			t.Errorf("%s: the default report places no testcase", name)
		}
		if got := attrs.ReplaceAllString(placed, ""); got != strict {
			t.Errorf("%s: the strict report is not the default one without file and line:\n%s", name, strict)
		}
	}
}
