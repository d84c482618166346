package cli

import (
	"errors"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
)

func sampleRun() *model.Run {
	idx := 3
	results := []model.Result{
		{Path: "f/positive/a.json", RelPath: "positive/a.json", Folder: "positive", Name: "a", Class: model.ClassPositive,
			Expected: model.Expected{Outcome: "success"}, Actual: model.Actual{Outcome: model.Success}, Passed: true},
		{Path: "f/negative/b.json", RelPath: "negative/b.json", Folder: "negative", Name: "b", Class: model.ClassNegative,
			Expected: model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_USAGE", CommandIndex: &idx},
			Actual:   model.Actual{Outcome: model.Success}, Span: &model.Span{Line: 4, Column: 3, EndLine: 6, EndColumn: 4}},
	}
	return &model.Run{CorpusRoot: "f", Started: time.Unix(0, 0).UTC(), Results: results,
		Summary: model.Summarize(2, results, nil)}
}

func TestWriteAllThree(t *testing.T) {
	dir := t.TempDir()
	p := report.Paths{JUnit: filepath.Join(dir, "r.xml"), JSON: filepath.Join(dir, "r.json"), Summary: filepath.Join(dir, "summary.md")}
	os.WriteFile(p.Summary, []byte("before\n"), 0o644)
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ID": "42"}
	if err := report.WriteReports(sampleRun(), p, report.FileOptions{Getenv: func(k string) string { return env[k] }, Write: gate.SaveReport(dir, false)}); err != nil {
		t.Fatal(err)
	}
	xml, _ := os.ReadFile(p.JUnit)
	js, _ := os.ReadFile(p.JSON)
	md, _ := os.ReadFile(p.Summary)
	if !strings.Contains(string(xml), `name="github.run_id" value="42"`) {
		t.Errorf("JUnit lacks the run id:\n%s", xml)
	}
	if !strings.Contains(string(js), `"fixture_path": "f/negative/b.json"`) {
		t.Errorf("JSON:\n%s", js)
	}
	if !strings.HasPrefix(string(md), "before\n") || !strings.Contains(string(md), `b\.<wbr>json:4`) {
		t.Errorf("summary was not appended:\n%s", md)
	}
}

func TestUnwritablePathIsAWriteError(t *testing.T) {
	dir := t.TempDir()
	err := report.WriteReports(sampleRun(), report.Paths{JSON: dir}, report.FileOptions{Write: gate.SaveReport(dir, false)})
	var re *report.ReportError
	if !errors.As(err, &re) || re.Rendering || re.Report != "JSON report" {
		t.Errorf("err = %v", err)
	}
	if err := report.WriteReports(sampleRun(), report.Paths{}, report.FileOptions{}); err != nil {
		t.Errorf("no paths: %v", err)
	}
}
