package annotation

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

func dump(anns []Annotation) []byte {
	var b bytes.Buffer
	for _, a := range anns {
		fmt.Fprintf(&b, "%s %s:%d-%d col %d-%d\n  title: %q\n  message: %q\n  raw_details: %q\n",
			a.Level, a.Path, a.StartLine, a.EndLine, a.StartColumn, a.EndColumn, a.Title, a.Message, a.RawDetails)
	}
	return b.Bytes()
}

func commands(t *testing.T, anns []Annotation) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCommands(&b, anns, CommandOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	anns := Build(bound.Run(sample.Run()))
	golden.Check(t, "sample.annotations", dump(anns))
	golden.Check(t, "sample.commands", []byte(commands(t, anns)))
}

func TestBuildLocatesAndLevels(t *testing.T) {
	anns := Build(sample.Run())
	byPath := map[string]Annotation{}
	for _, a := range anns {
		if _, seen := byPath[a.Path]; !seen { // a finding may share a failing fixture's path
			byPath[a.Path] = a
		}
	}
	tests := []struct {
		path                  string
		level                 Level
		start, end, col, end2 int
	}{
		// Multi-line span: lines only, since GitHub takes columns only on one line.
		{"fixtures/negative/draw_outside_pass.json", LevelFailure, 61, 66, 0, 0},
		{"fixtures/negative/destroy_twice.json", LevelFailure, 40, 40, 7, 19},
		{"fixtures/negative/truncated.json", LevelFailure, 7, 7, 1, 1},
		// No span: line 1.
		{"fixtures/negative/evil`name].json", LevelFailure, 1, 1, 0, 0},
		{"fixtures/positive/should_fail.json", LevelWarning, 1, 1, 0, 0},
	}
	for _, tt := range tests {
		a, ok := byPath[tt.path]
		if !ok {
			t.Errorf("no annotation for %s", tt.path)
			continue
		}
		if a.Level != tt.level || a.StartLine != tt.start || a.EndLine != tt.end || a.StartColumn != tt.col || a.EndColumn != tt.end2 {
			t.Errorf("%s = %s %d-%d col %d-%d, want %s %d-%d col %d-%d", tt.path, a.Level, a.StartLine, a.EndLine,
				a.StartColumn, a.EndColumn, tt.level, tt.start, tt.end, tt.col, tt.end2)
		}
	}
	var failures, warnings int
	for _, a := range anns {
		switch a.Level {
		case LevelFailure:
			failures++
		case LevelWarning:
			warnings++
		}
	}
	if failures != 6 || warnings != 3 {
		t.Errorf("failures=%d warnings=%d, want 6 failing fixtures (corpus error included) and 3 findings", failures, warnings)
	}
	if a := byPath["fixtures/negative/draw_outside_pass.json"]; a.Message != "expected semantic_validation DRP2_ERR_USAGE at command 9, got success\n"+
		"Fixture's reason: Draw commands are only valid inside a render pass.\nFixture's fix: Open a render pass before the draw." {
		t.Errorf("message = %q", a.Message)
	}
}

func TestBuildCapsSizes(t *testing.T) {
	run := sample.Large(3)
	huge := strings.Repeat("ü", 50_000) // 100 KB
	run.Results[0].Name = huge
	run.Results[0].Reason = huge
	run.Results[0].Actual.Message = huge
	for _, a := range Build(run) {
		if n := utf8.RuneCountInString(a.Title); n > escape.AnnotationTitleChars {
			t.Errorf("title has %d runes", n)
		}
		if len(a.Message) > escape.AnnotationDetailBytes || len(a.RawDetails) > escape.AnnotationDetailBytes {
			t.Errorf("message %d bytes, raw details %d bytes; limit %d", len(a.Message), len(a.RawDetails), escape.AnnotationDetailBytes)
		}
		if !utf8.ValidString(a.Message) || !utf8.ValidString(a.RawDetails) || !utf8.ValidString(a.Title) {
			t.Error("a cut split a rune")
		}
	}
}

// Every output line must be a command we wrote, with known properties,
// or the overflow line: untrusted text never starts a line or adds a
// property.
func checkCommandLines(t *testing.T, out string) (errs, warns int, rest []string) {
	t.Helper()
	allowed := map[string]bool{"file": true, "line": true, "endLine": true, "col": true, "endColumn": true, "title": true}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var body string
		switch {
		case strings.HasPrefix(line, "::error "):
			errs++
			body = strings.TrimPrefix(line, "::error ")
		case strings.HasPrefix(line, "::warning "):
			warns++
			body = strings.TrimPrefix(line, "::warning ")
		default:
			rest = append(rest, line)
			continue
		}
		props, msg, ok := strings.Cut(body, "::")
		if !ok {
			t.Fatalf("no message separator in %q", line)
		}
		for _, p := range strings.Split(props, ",") {
			k, _, ok := strings.Cut(p, "=")
			if !ok || !allowed[k] {
				t.Fatalf("unexpected property %q in %q", p, line)
			}
		}
		if n := utf8.RuneCountInString(msg); n >= escape.CommandMessageChars {
			t.Fatalf("message of %d characters in %q", n, line)
		}
		if strings.ContainsAny(line, "\r\x00\x1b") {
			t.Fatalf("control character in %q", line)
		}
	}
	return errs, warns, rest
}

func TestWriteCommandsHostile(t *testing.T) {
	out := commands(t, Build(sample.Run()))
	errs, warns, rest := checkCommandLines(t, out)
	if errs != 6 || warns != 3 || len(rest) != 0 {
		t.Fatalf("errors=%d warnings=%d other=%q", errs, warns, rest)
	}
	for _, want := range []string{
		"%250A::error::boom%0Anext", // data: '%' then LF escaped (CR LF is one line break), "::error::" inert mid-line
		"title=DRP2 fixture mismatch (negative)%3A </details>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteCommandsLimit(t *testing.T) {
	out := commands(t, Build(sample.Large(50)))
	errs, warns, rest := checkCommandLines(t, out)
	if errs != escape.CommandsPerLevel || warns != 5 {
		t.Errorf("errors=%d warnings=%d, want %d and 5", errs, warns, escape.CommandsPerLevel)
	}
	want := []string{"and 40 more failures: see the job summary or the JUnit report"}
	if strings.Join(rest, "\n") != strings.Join(want, "\n") {
		t.Errorf("overflow lines = %q, want %q", rest, want)
	}
	anns := Build(sample.Large(150))
	var b bytes.Buffer
	if err := WriteCommands(&b, anns, CommandOptions{Elsewhere: "report.xml"}); err != nil {
		t.Fatal(err)
	}
	if _, _, rest := checkCommandLines(t, b.String()); len(rest) != 2 || rest[1] != "and 5 more warnings: see report.xml" {
		t.Errorf("overflow lines = %q", rest)
	}
}

func TestCommandMessageCut(t *testing.T) {
	tests := []struct {
		msg     string
		wantCut bool
	}{
		{strings.Repeat("a", escape.CommandMessageChars-1), false},
		{strings.Repeat("a", escape.CommandMessageChars), true},
		{strings.Repeat("%", 2000), true}, // 6000 escaped characters
		{strings.Repeat("%", 1365), false},
		{strings.Repeat("é\n", 3000), true},
	}
	for _, tt := range tests {
		got := commandMessage(tt.msg)
		if n := utf8.RuneCountInString(got); n >= escape.CommandMessageChars {
			t.Errorf("escaped message of %d characters", n)
		}
		if strings.HasSuffix(got, "…") != tt.wantCut {
			t.Errorf("cut = %v for %d characters, want %v", !tt.wantCut, len(tt.msg), tt.wantCut)
		}
		if i := strings.LastIndex(got, "%"); i >= 0 && i > len(got)-3-len("…") && strings.HasSuffix(got, "…") {
			if !strings.HasPrefix(got[i:], "%25") && !strings.HasPrefix(got[i:], "%0A") {
				t.Errorf("cut inside an escape: %q", got[i:])
			}
		}
	}
}

func TestBuildNil(t *testing.T) {
	if Build(nil) != nil {
		t.Error("Build(nil) is not empty")
	}
}

// TestCorpusErrorsFirst: when the log shows only ten annotations, broken
// fixture files are among them.
func TestCorpusErrorsFirst(t *testing.T) {
	run := sample.Large(30)
	last := &run.Results[len(run.Results)-1]
	last.Actual = model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope, Message: "invalid JSON"}
	anns := Build(run)
	if !strings.HasPrefix(anns[0].Title, "DRP2 corpus error: ") || anns[0].Path != explain.DisplayPath(last) {
		t.Errorf("first annotation = %q at %s, want the corpus error", anns[0].Title, anns[0].Path)
	}
	for _, a := range anns[1:30] {
		if strings.Contains(a.Title, "corpus error") || a.Level != LevelFailure {
			t.Errorf("annotation %q out of order", a.Title)
		}
	}
}

// TestToolReasonBeforeFixtureReason (issue 11 item 5): the tool's own
// reason and rule come right after the headline; the fixture's authored
// reason and fix follow, labelled as the fixture's.
func TestToolReasonBeforeFixtureReason(t *testing.T) {
	run := sample.Run()
	// destroy_twice has a message, a rule, a reason and a fix; its
	// annotation comes after the corpus error and draw_outside_pass.
	r := &run.Results[2]
	got := strings.Split(Build(run)[2].Message, "\n")
	want := []string{
		explain.Headline(r),
		"DestroyBuffer: buffer_id 12 names no live object (LIFETIMES.md Destruction rule 2)",
		"Fixture's reason: A destroyed id is no longer live.",
		"Fixture's fix: Destroy each object once.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("message lines\n%q\nwant\n%q", got, want)
	}
}

// TestNoControlCharacters (issue 12 item 7): ESC, NUL, BEL and the rest
// are removed from message and raw_details; line feeds and tabs stay.
func TestNoControlCharacters(t *testing.T) {
	run := sample.Run()
	run.Results[1].Reason = "bell\a tab\t esc\x1b[2J nul\x00 del\x7f c1\u009b cr\r\nend"
	for _, a := range Build(run) {
		for _, s := range []string{a.Message, a.RawDetails, a.Title, a.Path} {
			if i := strings.IndexFunc(s, func(r rune) bool {
				return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7F && r <= 0x9F
			}); i >= 0 {
				t.Errorf("%q: control character %q in %q", a.Title, s[i], s)
			}
		}
	}
	if m := Build(run)[1].Message; !strings.Contains(m, "bell tab\t esc[2J nul del c1 cr\nend") {
		t.Errorf("message = %q", m)
	}
}

// TestNoInvisibleCharacters: a check-run annotation shows its title,
// message and details as they are, so every invisible character in them
// (bidirectional controls, zero-width characters, tags) is named: a
// fixture "hand\u2060shake\ufeff.json" does not read as
// "handshake.json". The path stays the file's own, for GitHub to find it.
func TestNoInvisibleCharacters(t *testing.T) {
	run := sample.Run()
	r := &run.Results[1]
	r.Name = "hand\u2060shake\ufeff"
	r.Path = "fixtures/negative/hand\u2060shake\ufeff.json"
	r.Reason = "rtl \u202Eevil\u202C zw\u200Bsp\u200C\u200D shy\u00AD hangul\u3164 tag\U000E0041"
	r.Fix = "bom\uFEFF"
	var found bool
	for _, a := range Build(run) {
		for _, s := range []string{a.Message, a.RawDetails, a.Title} {
			if i := strings.IndexFunc(s, escape.IsInvisible); i >= 0 {
				t.Errorf("%q: invisible %U in %q", a.Title, []rune(s[i:])[0], s)
			}
		}
		if a.Path == r.Path {
			found = true
			if !strings.Contains(a.Title, "hand[U+2060]shake[U+FEFF]") || !strings.Contains(a.Message, "rtl [U+202E]evil[U+202C]") {
				t.Errorf("title %q, message %q", a.Title, a.Message)
			}
		}
	}
	if !found {
		t.Errorf("no annotation on %s", r.Path)
	}
}

// Annotations are for what fails the run: a known failure has none, and
// an expected failure that passes is a notice that names its stale entry.
func TestKnownFailureIsNoAnnotationAndAStaleEntryANotice(t *testing.T) {
	run := sample.Run()
	var known, stale *model.Result
	for i := range run.Results {
		r := &run.Results[i]
		switch {
		case known == nil && !r.Passed && !r.IsCorpusError():
			known = r
		case stale == nil && r.Passed:
			stale = r
		}
	}
	known.KnownFailure = "tracked in #12"
	known.Listing = &model.Listing{Expect: model.ExpectFail, Reason: "tracked in #12", Entry: "exp.txt:3"}
	stale.Listing = &model.Listing{Expect: model.ExpectFail, Entry: "exp.txt:<b>4"}
	var notices int
	for _, a := range Build(run) {
		if a.Path == known.Path {
			t.Errorf("known failure annotated as %+v", a)
		}
		if a.Path == stale.Path {
			notices++
			if a.Level != LevelNotice || !strings.Contains(a.Title, "unexpected pass") || !strings.Contains(a.Message, "exp.txt:<b>4") {
				t.Errorf("unexpected pass annotated as %+v", a)
			}
		}
	}
	if notices != 1 {
		t.Errorf("%d notices on the unexpected pass, want 1", notices)
	}
}

// A file name with "##[" cannot be named in the file property without
// breaking it; the annotation then goes on the run, the message naming
// the file, and no "##[" reaches the log.
func TestCommandForAPathWithALegacyCommand(t *testing.T) {
	var b bytes.Buffer
	a := Annotation{Path: "fixtures/positive/##[stop-commands]x.json", StartLine: 3, EndLine: 3, Level: LevelFailure, Title: "t", Message: "m"}
	if err := WriteCommands(&b, []Annotation{a}, CommandOptions{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if strings.Contains(got, "file=") || strings.Contains(got, "line=") || strings.Contains(got, "##[") {
		t.Errorf("got %q", got)
	}
	if !strings.HasPrefix(got, "::error title=t::fixtures/positive/#") || !strings.Contains(got, "x.json:3: m") {
		t.Errorf("got %q", got)
	}
}

// A message cut to the runner's limit is escaped whole first: a "##["
// anywhere in it stays broken, and the cut never splits an escape.
func TestLongCommandMessageKeepsLegacyCommandsBroken(t *testing.T) {
	for _, msg := range []string{
		"##[set-output name=x;]y " + strings.Repeat("a", 5000),
		strings.Repeat("b", 4000) + "##[stop-commands]z" + strings.Repeat("c", 1000),
		strings.Repeat("%", 3000),
		strings.Repeat("x%", 2000),
	} {
		got := commandMessage(msg)
		if strings.Contains(got, "##[") {
			t.Errorf("##[ survived in %.40q…", got)
		}
		if n := utf8.RuneCountInString(got); n >= escape.CommandMessageChars {
			t.Errorf("%d characters", n)
		}
		body := strings.TrimSuffix(got, "…")
		if i := strings.LastIndex(body, "%"); i >= 0 && len(body)-i < 3 {
			t.Errorf("cut inside an escape: %q", body[max(0, len(body)-6):])
		}
	}
}
