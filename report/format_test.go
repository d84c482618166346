package report

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// saveIn writes report files below dir as a front end does: replaced, or
// appended for the job summary.
func saveIn(dir string) func(string, []byte, bool) error {
	return func(path string, data []byte, appendTo bool) error {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if appendTo {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(path, flag, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return errors.Join(err, f.Close())
	}
}

// Every report file takes a format of the table, and each format is
// rendered once: the job summary and the Markdown report are the same
// document, the one --format markdown prints, with the manifest section.
func TestReportFilesShareTheirFormat(t *testing.T) {
	for _, rf := range ReportFiles {
		if f := Lookup(rf.Format); f == nil || !f.Serves(KindRun) {
			t.Errorf("%s: format %q serves no run", rf.Report, rf.Format)
		}
	}
	dir := t.TempDir()
	run := &model.Run{CorpusRoot: "f", Manifest: &model.ManifestCheck{Path: "f/manifest.json", DRP2Version: "2.0",
		Headline: "1 added since the manifest (DRP2 2.0, not frozen)", Changes: []model.ManifestChange{{Kind: "added", Path: "positive/a.json", Description: "added"}}}}
	p := Paths{Summary: filepath.Join(dir, "s", "summary.md"), Markdown: "out/report.md", JSON: "out/r.json", JUnit: "out/r.xml"}
	// Appended twice, replaced twice.
	for range 2 {
		if err := WriteReports(run, p, FileOptions{Write: saveIn(dir)}); err != nil {
			t.Fatal(err)
		}
	}
	summary, _ := os.ReadFile(p.Summary)
	report, _ := os.ReadFile(filepath.Join(dir, p.Markdown))
	var stdout strings.Builder
	if err := Lookup("markdown").WriteRun(&stdout, run, RenderOptions{Markdown: markdown.Options{WholeReport: p.JSON}}); err != nil {
		t.Fatal(err)
	}
	if string(report) != stdout.String() || string(summary) != stdout.String()+stdout.String() {
		t.Errorf("Markdown report:\n%s\njob summary:\n%s\n--format markdown:\n%s", report, summary, stdout.String())
	}
	if !strings.Contains(string(report), "### Fixture manifest") {
		t.Errorf("the Markdown report has no manifest section:\n%s", report)
	}
	for _, name := range []string{p.JSON, p.JUnit} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !strings.Contains(string(data), "positive/a.json") {
			t.Errorf("%s: %v\n%s", name, err, data)
		}
	}
}
