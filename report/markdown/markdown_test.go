package markdown

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

var linked = Options{
	ServerURL:  "https://github.com",
	Repository: "drp2/drp2-fixtures",
	SHA:        "0123456789abcdef0123456789abcdef01234567",
	CorpusKey:  "fixtures",
	// What the lead passes in the action: the check run's html_url and
	// the workflow run's page.
	CheckRunURL:    "https://github.com/drp2/drp2-fixtures/runs/987654321",
	WorkflowRunURL: "https://github.com/drp2/drp2-fixtures/actions/runs/123456789",
	Skipped:        []string{"Check run skipped: fork pull request, token is read-only"},
}

// summary and checkDump render run as the gate bounds it for every sink.
func summary(t *testing.T, run *model.Run, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSummary(&b, bound.Run(run), opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func checkDump(run *model.Run, opts Options) []byte {
	title, sum, text := CheckOutput(bound.Run(run), opts)
	return []byte("title: " + title + "\n\n--- summary ---\n" + sum + "\n--- text ---\n" + text)
}

func TestGolden(t *testing.T) {
	golden.Check(t, "summary.md", []byte(summary(t, sample.Run(), linked)))
	golden.Check(t, "comment.md", []byte(Comment(bound.Run(sample.Run()), linked)))
	golden.Check(t, "comment-unlinked.md", []byte(Comment(bound.Run(sample.Run()), Options{})))
	golden.Check(t, "comment-passing.md", []byte(Comment(bound.Run(sample.Passing()), linked)))
	golden.Check(t, "check.txt", checkDump(sample.Run(), linked))
	// The truncation case: more failures than a comment can hold.
	golden.Check(t, "comment-large.md", []byte(Comment(bound.Run(sample.Large(5000)), linked)))
}

func TestDeterministic(t *testing.T) {
	a, b := summary(t, sample.Run(), linked), summary(t, sample.Run(), linked)
	c, d := Comment(sample.Large(500), linked), Comment(sample.Large(500), linked)
	if a != b || c != d {
		t.Fatal("two renders of one run differ")
	}
}

func TestVerdict(t *testing.T) {
	if got := strings.SplitN(Comment(sample.Run(), linked), "\n", 3)[1]; got != "### ❌ DRP2 conformance: 6 of 9 fixtures failed" {
		t.Errorf("failing verdict = %q", got)
	}
	if got := strings.SplitN(Comment(sample.Passing(), linked), "\n", 3)[1]; got != "### ✅ DRP2 conformance: all 3 fixtures passed" {
		t.Errorf("passing verdict = %q", got)
	}
	if got := strings.SplitN(Comment(&model.Run{}, Options{}), "\n", 3)[1]; got != "### ⚠️ DRP2 conformance: no fixtures run" {
		t.Errorf("empty verdict = %q", got)
	}
	title, _, text := CheckOutput(sample.Passing(), linked)
	if title != "DRP2 conformance: all 3 fixtures passed" || text != "" {
		t.Errorf("passing check output: title %q, text %q", title, text)
	}
}

func TestPassingIsShort(t *testing.T) {
	c := Comment(sample.Passing(), linked)
	if n := strings.Count(c, "\n"); n > 25 || strings.Contains(c, "Failing") {
		t.Errorf("an all-green comment has %d lines:\n%s", n, c)
	}
}

func TestMarker(t *testing.T) {
	tests := []struct{ key, want string }{
		{"", "<!-- drp2-fixtures:comment:default -->"},
		{"fixtures", "<!-- drp2-fixtures:comment:fixtures -->"},
		{"a-b/c_d.e", "<!-- drp2-fixtures:comment:a-b/c_d.e -->"},
		{"x -->y", "<!-- drp2-fixtures:comment:x%20-%2D%3Ey -->"},
		{"a\nb", "<!-- drp2-fixtures:comment:a%0Ab -->"},
	}
	for _, tt := range tests {
		if got := Marker(tt.key); got != tt.want {
			t.Errorf("Marker(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
	if c := Comment(sample.Run(), linked); !strings.HasPrefix(c, Marker("fixtures")+"\n") {
		t.Error("the comment does not start with its marker")
	}
}

func TestLinks(t *testing.T) {
	c := Comment(sample.Run(), linked)
	want := "[negative\\/<wbr>draw\\_<wbr>outside\\_<wbr>pass\\.<wbr>json:61](https://github.com/drp2/drp2-fixtures/blob/0123456789abcdef0123456789abcdef01234567/fixtures/negative/draw_outside_pass.json#L61-L66)"
	if !strings.Contains(c, want) {
		t.Errorf("comment lacks link %s", want)
	}
	r := model.Result{Path: "../outside/x.json", Span: &model.Span{Line: 3}}
	if u := fileURL(&r, linked); u != "" {
		t.Errorf("a path leaving the repository is linked: %s", u)
	}
	r = model.Result{Path: "fixtures/a (1)/b c.json"}
	if u := fileURL(&r, linked); strings.ContainsAny(u, "() ") {
		t.Errorf("link destination not escaped: %s", u)
	}
	for _, bad := range []string{"javascript:alert(1)", "https://x/?q=1", "ftp://x", ""} {
		o := linked
		o.ServerURL = bad
		if u := fileURL(&model.Result{Path: "a.json"}, o); u != "" {
			t.Errorf("server %q gives link %s", bad, u)
		}
	}
}

func TestSchemaNegativesApart(t *testing.T) {
	c := Comment(sample.Run(), linked)
	i, j := strings.Index(c, "#### Failing fixtures (4)"), strings.Index(c, "#### Failing schema-negative fixtures (1)")
	k := strings.Index(c, "legacy\\_<wbr>type\\_<wbr>field")
	if i < 0 || j < 0 || !(i < j && j < k) {
		t.Errorf("schema negatives are not in their own section (%d, %d, %d)", i, j, k)
	}
}

// Every size cap holds for a run with 5,000 failing fixtures, and the
// report says how many it left out.
func TestSizeCaps(t *testing.T) {
	run := sample.Large(5000)
	c := Comment(run, linked)
	if n := utf8.RuneCountInString(c); n > escape.CommentChars {
		t.Errorf("comment has %d characters, limit %d", n, escape.CommentChars)
	}
	if !regexp.MustCompile(`… and \d+ more[^*]*: see \[the check run\]`).MatchString(c) {
		t.Error("the cut comment does not say how many fixtures it left out, and where they are")
	}
	s := summary(t, run, linked)
	if len(s) > maxSummaryBytes {
		t.Errorf("job summary has %d bytes, limit %d", len(s), maxSummaryBytes)
	}
	title, sum, text := CheckOutput(run, linked)
	if utf8.RuneCountInString(title) > escape.CheckTitleChars || len(sum) > escape.CheckOutputBytes || len(text) > escape.CheckOutputBytes {
		t.Errorf("check output: title %d runes, summary %d bytes, text %d bytes", utf8.RuneCountInString(title), len(sum), len(text))
	}
	for name, s := range map[string]string{"comment": c, "summary": s, "check summary": sum, "check text": text} {
		if !utf8.ValidString(s) {
			t.Errorf("%s is not valid UTF-8", name)
		}
		if strings.Count(s, "<details>") != strings.Count(s, "</details>") {
			t.Errorf("%s has unbalanced <details>", name)
		}
	}
	t.Logf("5000 failing fixtures: comment %d runes, job summary %d bytes, check summary %d bytes, check text %d bytes",
		utf8.RuneCountInString(c), len(s), len(sum), len(text))
}

// Degradation folds detail before it drops rows: a run a little too big
// for a comment keeps every row.
func TestDegradationOrder(t *testing.T) {
	run := sample.Large(120)
	l := full()
	l.marker, l.rows, l.changeRows, l.findingRows, l.detailRows = Marker("k"), 200, 200, 200, 200
	full := render(run, linked, l)
	if utf8.RuneCountInString(full) <= escape.CommentChars {
		t.Fatalf("the test run is too small to degrade: %d", utf8.RuneCountInString(full))
	}
	o := linked
	o.FullComment = true
	c := Comment(run, o)
	if strings.Contains(c, "more: see") {
		t.Error("rows were dropped although dropping detail was enough")
	}
	if !strings.Contains(c, "<details><summary>Details") {
		t.Error("all detail was dropped although some fits")
	}
	// The fold says how many of the section's fixtures it holds.
	if !regexp.MustCompile(`<summary>Details: failing fixtures \(\d+ of 80\)</summary>`).MatchString(c) {
		t.Errorf("the folded details do not say how many of the 80 they show")
	}
}

// A report whose fixed parts alone exceed a limit is still cut to fit.
func TestHugeFixedParts(t *testing.T) {
	run := sample.Run()
	var notes []string
	for i := 0; i < 300; i++ {
		notes = append(notes, strings.Repeat("n", 300))
	}
	o := linked
	o.Skipped = notes
	_, sum, _ := CheckOutput(run, o)
	if len(sum) > escape.CheckOutputBytes || !strings.Contains(sum, "Report cut") {
		t.Errorf("summary of %d bytes; cut note present: %v", len(sum), strings.Contains(sum, "Report cut"))
	}
}

// TestRenderedHostileTextIsInert renders the reports with cmark-gfm, the
// renderer GitHub's Markdown is built on, and checks that fixture text
// produced no element, link, mention or line break of its own.
func TestRenderedHostileTextIsInert(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to check rendered Markdown")
	}
	for name, md := range map[string]string{
		"comment":       Comment(sample.Run(), linked),
		"summary":       summary(t, sample.Run(), linked),
		"comment-large": Comment(sample.Large(300), linked),
	} {
		html := renderHTML(t, cmark, md)
		for _, bad := range []string{"<script", "<img", "<b>", "href=\"http://x", "mailto:", "@someone"} {
			if strings.Contains(html, bad) {
				t.Errorf("%s: rendered HTML contains %q", name, bad)
			}
		}
		// The only elements are the ones the renderer writes.
		allowed := map[string]bool{"h3": true, "h4": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true,
			"td": true, "p": true, "strong": true, "em": true, "code": true, "br": true, "a": true, "details": true,
			"summary": true, "ul": true, "li": true, "wbr": true}
		for _, m := range regexp.MustCompile(`</?([a-zA-Z0-9]+)`).FindAllStringSubmatch(html, -1) {
			if !allowed[m[1]] {
				t.Errorf("%s: unexpected element <%s>", name, m[1])
			}
		}
		for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(html, -1) {
			if !strings.HasPrefix(m[1], "https://github.com/drp2/drp2-fixtures/") {
				t.Errorf("%s: link to %s", name, m[1])
			}
		}
		if o, c := strings.Count(html, "<details>"), strings.Count(html, "</details>"); o != c {
			t.Errorf("%s: %d <details> but %d </details>", name, o, c)
		}
		if strings.Contains(html, "::error") && !strings.Contains(html, "%0A::error::boom") {
			t.Errorf("%s: workflow command text changed shape", name)
		}
	}
}

func renderHTML(t *testing.T, cmark, md string) string {
	t.Helper()
	cmd := exec.Command(cmark, "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
	cmd.Stdin = strings.NewReader(md)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	return string(out)
}

// TestRenderedExample keeps one rendered comment under testdata so that a
// reviewer can look at it in a browser; -update rewrites it.
func TestRenderedExample(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to render the example")
	}
	html := renderHTML(t, cmark, Comment(sample.Run(), linked))
	page := "<!DOCTYPE html>\n<meta charset=\"utf-8\">\n<title>DRP2 conformance comment</title>\n" + html
	golden.Check(t, "comment.html", []byte(page))
}

func TestNilRun(t *testing.T) {
	if err := WriteSummary(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Error("WriteSummary(nil) returned no error")
	}
	if c := Comment(nil, Options{}); !strings.HasPrefix(c, Marker("")) {
		t.Errorf("Comment(nil) = %q", c)
	}
}

// The "changes" comment mode rewrites the comment only when its body
// differs, so a rerun with the same results must give the same body.
func TestCommentIgnoresWhenTheRunHappened(t *testing.T) {
	a, b := sample.Run(), sample.Run()
	b.Started = b.Started.Add(36 * time.Hour)
	b.Duration += 17 * time.Second
	if Comment(a, linked) != Comment(b, linked) {
		t.Error("the comment body changes with the start time or duration of the run")
	}
	// The job summary and the check run still record them.
	if s := summary(t, b, linked); !strings.Contains(s, "took 17.") {
		t.Errorf("the job summary lost the duration:\n%s", s)
	}
}

// TestDeltaGolden: a compared run leads with the delta, then the tables of
// changes, then the usual report; an unavailable comparison says why.
func TestDeltaGolden(t *testing.T) {
	golden.Check(t, "delta-comment.md", []byte(Comment(sample.Compared(), linked)))
	golden.Check(t, "delta-summary.md", []byte(summary(t, sample.Compared(), linked)))
	golden.Check(t, "delta-unavailable.md", []byte(Comment(sample.Unavailable(), linked)))
	golden.Check(t, "delta-check.txt", checkDump(sample.Compared(), linked))
}

func TestDeltaLeads(t *testing.T) {
	lines := strings.SplitN(Comment(sample.Compared(), linked), "\n", 4)
	// Each fixture counted once, how its file changed in parentheses,
	// the changed schema files and the error the change gives, escaped,
	// the base linked to its commit.
	want := "### 🔴 3 regressed (1 broken, 1 stream changed), 1 fixed (1 expectation changed), 2 added, 1 removed (passed on the base: negative/old\\_rule.json), 1 renamed, " +
		"command schema changed: commands/CreateBuffer.json, common/&lt;b&gt;\\|\\*x\\*\\`.json (1 fixture now fails with: CreateBuffer: missing properties: 'usages' &lt;b&gt;\\|x) " +
		"against base [`abc1234`](https://github.com/drp2/drp2-fixtures/commit/" + sample.BaseCommit + ")"
	if lines[1] != want {
		t.Errorf("second line %q, want %q", lines[1], want)
	}
	body := Comment(sample.Compared(), linked)
	// Regressions come before fixes, and the removed fixture links to the
	// base commit, where it still exists.
	if r, f := strings.Index(body, "#### Regressed (3)"), strings.Index(body, "#### Fixed (1)"); r < 0 || f < r {
		t.Errorf("regressed at %d, fixed at %d", r, f)
	}
	if !strings.Contains(body, "/blob/"+sample.BaseCommit+"/fixtures/negative/old_rule.json") {
		t.Error("the removed fixture is not linked at the base commit")
	}
}

// TestDeltaFits: a comparison of thousands of changes still fits the
// comment.
func TestDeltaFits(t *testing.T) {
	run := sample.Large(3000)
	c := &model.Comparison{Base: "abc1234"}
	for _, r := range run.Results {
		c.Changes = append(c.Changes, model.Change{RelPath: r.RelPath, Path: r.Path, Name: r.Name + sample.Hostile,
			Transition: model.Regressed, Content: model.Renamed, From: sample.Hostile,
			Base: &model.Side{Passed: true}, Head: &model.Side{Actual: r.Actual, Expected: r.Expected}})
	}
	run.Comparison = c
	body := Comment(run, linked)
	if n := utf8.RuneCountInString(body); n > escape.CommentChars {
		t.Errorf("comment has %d characters", n)
	}
	if !strings.Contains(body, "3000 regressed") || !strings.Contains(body, "more: see [the check run]") {
		t.Errorf("the headline or the note on left-out rows is missing:\n%.600s", body)
	}
}

// TestDeltaBrokenRowLinksItsLine: the row of a fixture broken by the
// change links the line where its file stops being readable, as the
// failures' table of the job summary does, so the comment (which has no
// such table) still points at it.
func TestDeltaBrokenRowLinksItsLine(t *testing.T) {
	want := "[negative\\/<wbr>truncated\\.<wbr>json:7](https://github.com/drp2/drp2-fixtures/blob/0123456789abcdef0123456789abcdef01234567/fixtures/negative/truncated.json#L7) | broken"
	if body := Comment(sample.Compared(), linked); !strings.Contains(body, want) {
		t.Errorf("the broken fixture's row does not link its line; want %q in:\n%s", want, body)
	}
}
