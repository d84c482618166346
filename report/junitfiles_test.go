package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// The JUnit report places testcases (file, line) by default; the strict
// flavour (--junit-strict FILE, --format junit-strict, the action's
// junit-strict input) leaves both out.
func TestJUnitFlavours(t *testing.T) {
	run := &model.Run{Results: []model.Result{{Path: "fixtures/negative/x.json", RelPath: "negative/x.json", Name: "x",
		Class: model.ClassNegative, Span: &model.Span{Line: 5}, Actual: model.Actual{Outcome: model.Success}}}}
	placed := func(data []byte) bool {
		return strings.Contains(string(data), `file="fixtures/negative/x.json" line="5"`)
	}
	dir := t.TempDir()
	p := Paths{JUnit: "placed.xml", JUnitStrict: "strict.xml"}
	if err := WriteReports(run, p, FileOptions{Write: saveIn(dir)}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "placed.xml"))
	b, _ := os.ReadFile(filepath.Join(dir, "strict.xml"))
	if !placed(a) || placed(b) || strings.Contains(string(b), ` file="`) || len(b) == 0 {
		t.Errorf("--junit:\n%s\n--junit-strict:\n%s", a, b)
	}
	if err := WriteReports(run, Paths{JUnit: "asked-strict.xml"}, FileOptions{Write: saveIn(dir), JUnitStrict: true}); err != nil {
		t.Fatal(err)
	}
	if c, _ := os.ReadFile(filepath.Join(dir, "asked-strict.xml")); string(c) != string(b) {
		t.Errorf("JUnitStrict did not write the strict flavour to the JUnit path:\n%s", c)
	}
	var out strings.Builder
	if err := Lookup("junit-strict").WriteRun(&out, run, RenderOptions{}); err != nil || out.String() != string(b) {
		t.Errorf("--format junit-strict (%v):\n%s", err, out.String())
	}
}
