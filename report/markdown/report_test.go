package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// The Markdown report is the summary followed by the sections of what the
// run carries, and a note saying where the report is when GitHub would
// drop it whole.
func TestReport(t *testing.T) {
	run := sample.Passing()
	run.Manifest = &model.ManifestCheck{Path: "fixtures/manifest.json", DRP2Version: "2.0", Headline: "the corpus matches its manifest"}
	run.Coverage = &model.Coverage{Rules: []model.RuleCoverage{{ID: "R1", Summary: "a rule", Negative: 1}}}
	got := Report(run, Options{})
	sum := Summary(run, Options{})
	if !strings.HasPrefix(got, sum) || strings.Index(got, "### Fixture manifest") < len(sum) ||
		strings.Index(got, "### Rule coverage") < strings.Index(got, "### Fixture manifest") {
		t.Errorf("report:\n%s", got)
	}
	for i := 0; i < 4000; i++ {
		run.Coverage.Rules = append(run.Coverage.Rules, model.RuleCoverage{ID: "R", Summary: strings.Repeat("long ", 60)})
	}
	got = Report(run, Options{WholeReport: "out/`r`.json"})
	if want := "## DRP2 fixtures\n\nThe report is larger than the 1 MiB job summary limit: see ``out/`r`.json``.\n"; got != want {
		t.Errorf("oversized report: %q, want %q", got, want)
	}
}

// The comment ends with the manifest section, or its one-line stand-in
// when the section would pass the comment limit, or nothing when even
// that would.
func TestCommentManifest(t *testing.T) {
	m := &model.ManifestCheck{Path: "fixtures/manifest.json", DRP2Version: "2.0", Frozen: true, Violations: 1,
		Headline: "1 changed since the manifest (DRP2 2.0, frozen); 1 breaks the freeze",
		Changes:  []model.ManifestChange{{Kind: "changed", Path: "negative/a.json", Description: "commands", Violation: true}}}
	run := sample.Passing()
	run.Manifest = m
	if got := Comment(run, Options{}); !strings.Contains(got, "\n### Fixture manifest\n") || !strings.HasPrefix(got, Marker("")) {
		t.Errorf("comment:\n%s", got)
	}
	for _, tc := range []struct {
		room int
		want string
	}{
		{escape.CommentChars - 10, "### Fixture manifest"},
		{utf8.RuneCountInString(manifestLine(m)), "**Fixture manifest:** 1 changed since the manifest"},
		{utf8.RuneCountInString(manifestLine(m)) - 1, ""},
	} {
		body := strings.Repeat("x", escape.CommentChars-tc.room)
		got := withManifest(body, m)
		if utf8.RuneCountInString(got) > escape.CommentChars || !strings.HasPrefix(got, body) || !strings.Contains(got[len(body):], tc.want) ||
			(tc.want == "" && got != body) {
			t.Errorf("room %d: ends %q", tc.room, got[len(body):])
		}
	}
}

// The check-run title adds the comparison's headline, what a reviewer
// scans for, unless the verdict's headline tells it already.
func TestCheckTitleTellsTheComparisonOnce(t *testing.T) {
	run := sample.Passing()
	run.Comparison = &model.Comparison{Base: "main", Changes: []model.Change{{RelPath: "positive/a.json", Path: "f/positive/a.json", Transition: model.Regressed}}}
	compared := explain.ComparisonHeadline(run.Comparison)
	for _, tc := range []struct {
		judgement *model.Judgement
		want      string
	}{
		{&model.Judgement{}, "DRP2 conformance: all 3 fixtures passed; " + compared},
		{&model.Judgement{Failed: true, Reasons: []model.Reason{{Kind: model.ReasonRegressed, Count: 1, Subject: "main"}}},
			"DRP2 conformance: all 3 fixtures passed; 1 regression against base main"},
	} {
		run.Judgement = tc.judgement
		if title, _, _ := CheckOutput(run, Options{}); title != tc.want {
			t.Errorf("title %q, want %q", title, tc.want)
		}
	}
}
