package frontend

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// Every --format flag takes its values, help and error from the table: a
// kind's formats are those with a renderer for it.
func TestFormatFlag(t *testing.T) {
	for _, tc := range []struct {
		kind           Kind
		names, choices string
	}{
		{KindRun, "text, json, github, markdown or junit", "text|json|github|markdown|junit"},
		{KindComparison, "text, json or markdown", "text|json|markdown"},
		{KindManifest, "text, json or markdown", "text|json|markdown"},
		{KindCoverage, "text, json or markdown", "text|json|markdown"},
		{KindExplore, "text, json or markdown", "text|json|markdown"},
	} {
		if got := FormatNames(tc.kind); got != tc.names {
			t.Errorf("kind %d: FormatNames %q, want %q", tc.kind, got, tc.names)
		}
		if got := FormatChoices(tc.kind); got != tc.choices {
			t.Errorf("kind %d: FormatChoices %q, want %q", tc.kind, got, tc.choices)
		}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		v := AddFormatFlag(fs, tc.kind)
		if v.Format().Name != "text" {
			t.Errorf("kind %d: default %q, want text", tc.kind, v.Format().Name)
		}
		for _, f := range formatsOf(tc.kind) {
			if !strings.Contains(fs.Lookup("format").Usage, f.Name+" ("+f.helpFor(tc.kind)+")") {
				t.Errorf("kind %d: help %q does not list %s", tc.kind, fs.Lookup("format").Usage, f.Name)
			}
		}
		err := fs.Parse([]string{"--format", "github"})
		switch {
		case tc.kind == KindRun && (err != nil || v.Format().Name != "github"):
			t.Errorf("run --format github: %v", err)
		case tc.kind != KindRun && (err == nil || !strings.Contains(err.Error(), "want "+tc.names)):
			t.Errorf("kind %d: --format github: %v, want an error listing %s", tc.kind, err, tc.names)
		}
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
		if err := WriteReports(run, p, FileOptions{Dir: dir}); err != nil {
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
