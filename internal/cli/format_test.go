package cli

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/report"
)

// Every --format flag takes its values, help and error from the table: a
// kind's formats are those with a renderer for it.
func TestFormatFlag(t *testing.T) {
	for _, tc := range []struct {
		kind           report.Kind
		names, choices string
	}{
		{report.KindRun, "text, json, github, markdown, junit or junit-strict", "text|json|github|markdown|junit|junit-strict"},
		{report.KindComparison, "text, json or markdown", "text|json|markdown"},
		{report.KindManifest, "text, json or markdown", "text|json|markdown"},
		{report.KindCoverage, "text, json or markdown", "text|json|markdown"},
		{report.KindExplore, "text, json or markdown", "text|json|markdown"},
	} {
		if got := report.FormatNames(tc.kind); got != tc.names {
			t.Errorf("kind %d: FormatNames %q, want %q", tc.kind, got, tc.names)
		}
		if got := report.FormatChoices(tc.kind); got != tc.choices {
			t.Errorf("kind %d: FormatChoices %q, want %q", tc.kind, got, tc.choices)
		}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		v := addFormatFlag(fs, tc.kind)
		if v.Format().Name != "text" {
			t.Errorf("kind %d: default %q, want text", tc.kind, v.Format().Name)
		}
		for _, f := range report.FormatsOf(tc.kind) {
			if !strings.Contains(fs.Lookup("format").Usage, f.Name+" ("+f.HelpFor(tc.kind)+")") {
				t.Errorf("kind %d: help %q does not list %s", tc.kind, fs.Lookup("format").Usage, f.Name)
			}
		}
		err := fs.Parse([]string{"--format", "github"})
		switch {
		case tc.kind == report.KindRun && (err != nil || v.Format().Name != "github"):
			t.Errorf("run --format github: %v", err)
		case tc.kind != report.KindRun && (err == nil || !strings.Contains(err.Error(), "want "+tc.names)):
			t.Errorf("kind %d: --format github: %v, want an error listing %s", tc.kind, err, tc.names)
		}
	}
}
