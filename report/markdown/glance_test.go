package markdown

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestProvenance: the comment and summary say which commit they describe
// and link the check run and the workflow run; the check run's own output
// does not link to itself; anything but an http(s) URL is left out.
func TestProvenance(t *testing.T) {
	want := "Commit [`0123456`](https://github.com/drp2/drp2-fixtures/commit/0123456789abcdef0123456789abcdef01234567)" +
		" · [Check run](https://github.com/drp2/drp2-fixtures/runs/987654321)" +
		" · [Workflow run](https://github.com/drp2/drp2-fixtures/actions/runs/123456789)"
	for name, s := range map[string]string{"comment": Comment(sample.Run(), linked), "summary": summary(t, sample.Run(), linked)} {
		if i, j := strings.Index(s, "fixtures failed\n\n"+want+"\n\n"), strings.Index(s, "Failed: "); i < 0 || i > j {
			t.Errorf("%s does not say under its verdict\n%s", name, want)
		}
	}
	_, sum, _ := CheckOutput(sample.Run(), linked)
	if strings.Contains(sum, "[Check run]") || !strings.Contains(sum, "[Workflow run]") {
		t.Errorf("check output links: %s", strings.SplitN(sum, "\n\n", 3)[1])
	}
	o := linked
	o.SHA, o.CheckRunURL, o.WorkflowRunURL = "not-a-sha)](http://evil", "javascript:alert(1)", "https://user:pw@github.com/x"
	if c := Comment(sample.Run(), o); !strings.Contains(c, "fixtures failed\n\nFailed: ") ||
		strings.Contains(c, "http://evil") || strings.Contains(c, "javascript") || strings.Contains(c, "pw@") {
		t.Errorf("bad provenance was shown:\n%s", strings.SplitN(c, "\n\n", 3)[1])
	}
}

// TestCountsAddUp: the verdict's failed count is the sum of the sections
// below it, and the breakdown says how many are corpus errors.
func TestCountsAddUp(t *testing.T) {
	heading := regexp.MustCompile(`(?m)^#### (Failing fixtures|Failing schema-negative fixtures|Corpus errors) \((\d+)\)$`)
	verdict := regexp.MustCompile(`DRP2 conformance: (\d+) of (\d+) fixtures failed`)
	for _, run := range []string{"sample", "large"} {
		r := sample.Run()
		if run == "large" {
			r = sample.Large(300)
		}
		c := Comment(r, linked)
		m := verdict.FindStringSubmatch(c)
		if m == nil {
			t.Fatalf("%s: no verdict", run)
		}
		sum := 0
		for _, h := range heading.FindAllStringSubmatch(c, -1) {
			var n int
			fmt.Sscan(h[2], &n)
			sum += n
		}
		if fmt.Sprint(sum) != m[1] || m[1] != fmt.Sprint(r.Summary.Failed) {
			t.Errorf("%s: verdict says %s failed, sections hold %d, summary %d", run, m[1], sum, r.Summary.Failed)
		}
	}
	if c := Comment(sample.Run(), linked); !strings.Contains(c, "Failed: 5 mismatches, 1 corpus error") {
		t.Error("the comment does not break the failures down")
	}
}

// TestOneNarrowRowPerFailure: each failing fixture has one row of two
// columns holding only what differs; the name appears only when it is not
// the file name.
func TestOneNarrowRowPerFailure(t *testing.T) {
	c := Comment(sample.Run(), linked)
	for _, want := range []string{
		"| Fixture | Mismatch |\n|:--|:--|\n",
		// The rule once, though the validator's message ends with it.
		"/destroy_twice.json#L40) | **expected DRP2\\_ERR\\_INVALID\\_ID\\, got DRP2\\_ERR\\_INVALID\\_STATE**<br>DestroyBuffer\\: buffer\\_id 12 names no live object \\(LIFETIMES\\.md Destruction rule 2\\)<br>",
		"/legacy_type_field.json#L12-L18) | **expected command 2\\, got command 0**<br>",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("comment lacks %q", want)
		}
	}
	if strings.Contains(c, "**destroy\\_twice**") || strings.Contains(c, "<br>**destroy") {
		t.Error("the file name is repeated as the fixture's name")
	}
	for _, name := range []string{"draw_outside_pass.json", "destroy_twice.json", "texture_upload.json", "legacy_type_field.json", "truncated.json"} {
		rows := 0
		for _, l := range strings.Split(c, "\n") {
			if strings.HasPrefix(l, "| [") && strings.Contains(l, name+"#") {
				rows++
			}
		}
		if rows != 1 {
			t.Errorf("%s has %d rows", name, rows)
		}
	}
}

// TestIssueReferencesAreInert (issue 12 item 7): GitHub links "GH-123"
// as it links "#123"; neither survives in the rendered comment.
func TestIssueReferencesAreInert(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to check rendered Markdown")
	}
	run := sample.Run()
	for i := range run.Results {
		run.Results[i].Reason = "see GH-123, gh-7 and #45"
		run.Results[i].Name = "GH-9"
		run.Results[i].Actual.Message = "closes GH-8"
	}
	full := linked
	full.FullComment = true // the reason and the name are in the details
	html := renderHTML(t, cmark, Comment(run, full))
	for _, ref := range []string{"GH-123", "gh-7", "#45", "GH-9", "GH-8"} {
		if strings.Contains(html, ref) {
			t.Errorf("rendered comment keeps %q", ref)
		}
	}
	if !strings.Contains(html, "GH-\u200b123") {
		t.Error("the reference is not shown at all")
	}
}

// TestFitDropsFindingsBeforeFailures: a full comment too large for its
// limit loses the findings and the evidence, whole, before any failing
// row, and says where they are; no element is left open.
func TestFitDropsFindingsBeforeFailures(t *testing.T) {
	run := sample.Large(160)
	for i := 0; i < 65; i++ {
		run.Findings = append(run.Findings, model.Finding{Kind: model.FindingNameStem,
			Path: fmt.Sprintf("fixtures/negative/finding_%03d.json", i), Message: strings.Repeat("a long finding message ", 40)})
	}
	run.Summary = model.Summarize(len(run.Results), run.Results, run.Findings)
	o := linked
	o.FullComment = true
	c := Comment(run, o)
	if n := utf8.RuneCountInString(c); n > escape.CommentChars {
		t.Fatalf("comment of %d characters", n)
	}
	if strings.Contains(c, "<summary>Corpus findings") || !strings.Contains(c, "corpus findings: see [the check run]") {
		t.Errorf("the findings were not dropped whole, with a pointer to them")
	}
	if strings.Contains(c, "… and") && strings.Contains(c, "more: see") {
		t.Errorf("failing rows were dropped although dropping the findings and details was enough")
	}
	if strings.Count(c, "<details>") != strings.Count(c, "</details>") {
		t.Error("unbalanced <details>")
	}
}

// TestPathsWrap: a fixture path of any length has a break opportunity at
// least every wrapRun characters, so it cannot push a column off a
// comment.
func TestPathsWrap(t *testing.T) {
	long := "fixtures/negative/" + strings.Repeat("averyveryverylongfixturenamewithoutanyseparators", 2) + ".json"
	got := location(&model.Result{Path: long}, Options{})
	for _, piece := range strings.Split(got, "<wbr>") {
		if n := utf8.RuneCountInString(strings.ReplaceAll(piece, `\`, "")); n > wrapRun {
			t.Errorf("%d characters without a break: %q", n, piece)
		}
	}
	if strings.ReplaceAll(strings.ReplaceAll(got, "<wbr>", ""), `\`, "") != long {
		t.Errorf("the path reads %q", got)
	}
}
