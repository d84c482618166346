package escape

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/golden"
)

// hostile is the shared seed set: each entry tries to break out of one sink.
var hostile = []string{
	"",
	"plain name",
	"</details><script>alert(1)</script>",
	"@someone please look",
	"mail a@b.com",
	"[x](http://x) ![i](http://x/i.png)",
	"http://evil.example www.evil.example",
	"`code` ``two`` ```three```",
	"%0A::error::injected",
	"line1\nline2\r\nline3\rline4",
	"::error file=a,line=1::boom",
	"nul\x00esc\x1b[31mred\x7fdel",
	"bad utf8 \xff\xfe end",
	"| cell | split |",
	"# heading\n- list\n> quote",
	"*em* _em_ **strong** ~~strike~~",
	"fixes #123 and GH-4",
	"&lt;already&gt; &amp;",
	"\u202Eevil\u202C bidi",
	"<!-- drp2-fixtures:comment:x -->",
	"]]> cdata end",
	"emoji ✅ 😀",
	"##[set-output name=conclusion;]success ##[stop-commands]x",
}

func TestMarkdown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"<script>", "&lt;script&gt;"},
		{"@someone", "@\u200bsomeone"},
		{"[x](http://x)", `\[x\]\(http\:\/\/x\)`},
		{"a|b", `a\|b`},
		{"#12 #x", "\\#\u200b12 \\#x"},
		{"a\nb", "a b"},
		{"a\x00b", "a\uFFFDb"},
		{"a\xffb", "a\uFFFDb"},
		{"x_y*z", `x\_y\*z`},
		{"R&D", "R&amp;D"},
	}
	for _, tt := range tests {
		if got := Markdown(tt.in); got != tt.want {
			t.Errorf("Markdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, s := range hostile {
		checkMarkdown(t, s, Markdown(s))
	}
}

// checkMarkdown asserts that out carries no Markdown or HTML structure:
// every ASCII punctuation character is either backslash-escaped, part of
// one of the three entities Markdown writes, or an '@' that cannot mention.
func checkMarkdown(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Markdown(%q) is not valid UTF-8: %q", in, out)
	}
	if strings.ContainsAny(out, "\n\r") {
		t.Fatalf("Markdown(%q) spans lines: %q", in, out)
	}
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '\\':
			if i+1 >= len(out) || !isASCIIPunct(rune(out[i+1])) {
				t.Fatalf("Markdown(%q): stray backslash at %d in %q", in, i, out)
			}
			i++
		case c == '&':
			rest := out[i:]
			ok := false
			for _, e := range []string{"&amp;", "&lt;", "&gt;"} {
				if strings.HasPrefix(rest, e) {
					i += len(e) - 1
					ok = true
				}
			}
			if !ok {
				t.Fatalf("Markdown(%q): raw '&' at %d in %q", in, i, out)
			}
		case c == '@':
			if !strings.HasPrefix(out[i+1:], zeroWidthSpace) {
				t.Fatalf("Markdown(%q): '@' may mention at %d in %q", in, i, out)
			}
		case isASCIIPunct(rune(c)):
			t.Fatalf("Markdown(%q): unescaped %q at %d in %q", in, c, i, out)
		case c < 0x20 || c == 0x7f:
			t.Fatalf("Markdown(%q): control %#x in %q", in, c, out)
		}
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkMarkdown(t, s, Markdown(s))
	})
}

func TestHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{"</details>", "&lt;/details&gt;"},
		{`a "b" 'c'`, "a &quot;b&quot; &#39;c&#39;"},
		{"@x", "@\u200bx"},
		{"*kept*", "*kept*"},
		{"a\r\nb", "a  b"},
	}
	for _, tt := range tests {
		if got := HTML(tt.in); got != tt.want {
			t.Errorf("HTML(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, s := range hostile {
		checkHTML(t, s, HTML(s))
	}
}

func checkHTML(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) || strings.ContainsAny(out, "<>\"'\n\r") {
		t.Fatalf("HTML(%q) = %q carries markup or line breaks", in, out)
	}
	for i := 0; i < len(out); i++ {
		if out[i] == '@' && !strings.HasPrefix(out[i+1:], zeroWidthSpace) {
			t.Fatalf("HTML(%q): '@' may mention in %q", in, out)
		}
	}
}

func FuzzMarkdownHTML(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkHTML(t, s, HTML(s)) })
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"DRP2_ERR_USAGE", "`DRP2_ERR_USAGE`"},
		{"a`b", "``a`b``"},
		{"`x`", "`` `x` ``"},
		{"", "` `"},
		{"a\nb", "`a b`"},
	}
	for _, tt := range tests {
		if got := MarkdownCode(tt.in); got != tt.want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, s := range hostile {
		checkCode(t, s, MarkdownCode(s))
	}
}

// checkCode asserts that the span opens and closes with the same fence and
// that no backtick run inside is as long as the fence.
func checkCode(t *testing.T, in, out string) {
	t.Helper()
	n := 0
	for n < len(out) && out[n] == '`' {
		n++
	}
	if n == 0 || !strings.HasSuffix(out, strings.Repeat("`", n)) || len(out) < 2*n+1 {
		t.Fatalf("MarkdownCode(%q) = %q: not a code span", in, out)
	}
	inner := out[n : len(out)-n]
	if longestRun(inner, '`') >= n || strings.ContainsAny(inner, "\n\r") {
		t.Fatalf("MarkdownCode(%q) = %q: content can close the span", in, out)
	}
	if inner[len(inner)-1] == '`' || inner[0] == '`' {
		t.Fatalf("MarkdownCode(%q) = %q: backtick touches the fence", in, out)
	}
}

func FuzzMarkdownCode(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkCode(t, s, MarkdownCode(s)) })
}

func TestMarkdownFence(t *testing.T) {
	got := MarkdownFence("a\r\n```\nb")
	want := "````text\na\n```\nb\n````\n"
	if got != want {
		t.Errorf("MarkdownFence = %q, want %q", got, want)
	}
}

func TestXMLText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ok <x> & y", "ok <x> & y"},
		{"a\x00b\x1bc\x0bd", "abcd"},
		{"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"\uFFFE\uFFFF", ""},
	}
	for _, tt := range tests {
		if got := XMLText(tt.in); got != tt.want {
			t.Errorf("XMLText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, s := range hostile {
		checkXML(t, s)
	}
}

// checkXML asserts that XMLText's output survives a CDATA section and an
// attribute through a real XML encoder and parser unchanged (CR aside,
// which XML parsers normalise).
func checkXML(t *testing.T, in string) {
	t.Helper()
	out := XMLText(in)
	if !utf8.ValidString(out) {
		t.Fatalf("XMLText(%q) not valid UTF-8", in)
	}
	for _, r := range out {
		if !IsXMLChar(r) {
			t.Fatalf("XMLText(%q) keeps %U", in, r)
		}
	}
	type doc struct {
		XMLName xml.Name `xml:"d"`
		Attr    string   `xml:"a,attr"`
		Data    string   `xml:",cdata"`
	}
	var buf bytes.Buffer
	if err := xml.NewEncoder(&buf).Encode(doc{Attr: out, Data: out}); err != nil {
		t.Fatalf("encode %q: %v", out, err)
	}
	var back doc
	if err := xml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("XMLText(%q) gives XML that does not parse: %v\n%s", in, err, buf.Bytes())
	}
	norm := strings.ReplaceAll(strings.ReplaceAll(out, "\r\n", "\n"), "\r", "\n")
	if back.Data != norm {
		t.Fatalf("CDATA round trip of %q: got %q", out, back.Data)
	}
}

func FuzzXMLText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkXML(t, s) })
}

func TestWorkflow(t *testing.T) {
	tests := []struct{ in, data, prop string }{
		{"100%", "100%25", "100%25"},
		{"%0A", "%250A", "%250A"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"x:y,z", "x:y,z", "x%3Ay%2Cz"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
		{"esc\x1b[0m", "esc\uFFFD[0m", "esc\uFFFD[0m"},
	}
	for _, tt := range tests {
		if got := WorkflowData(tt.in); got != tt.data {
			t.Errorf("WorkflowData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := WorkflowProperty(tt.in); got != tt.prop {
			t.Errorf("WorkflowProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
	for _, s := range hostile {
		checkWorkflow(t, s)
	}
}

// checkWorkflow asserts that escaped text stays on one line, that property
// values cannot end the property, that no legacy "##[" command survives,
// and that unescaping as the runner does gives the input back (control
// characters, the names of invisible ones and the break in "##[" aside).
func checkWorkflow(t *testing.T, in string) {
	t.Helper()
	data, prop := WorkflowData(in), WorkflowProperty(in)
	if strings.ContainsAny(data, "\r\n") || strings.ContainsAny(prop, "\r\n:,") ||
		strings.Contains(data, "##[") || strings.Contains(prop, "##[") {
		t.Fatalf("workflow escaping of %q leaks: data %q, property %q", in, data, prop)
	}
	unescape := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	want := strings.Map(func(r rune) rune {
		if isControl(r) {
			return replacement
		}
		return r
	}, legacyCommands(Visible(in)))
	if got := unescape.Replace(data); got != want {
		t.Fatalf("WorkflowData(%q) does not round-trip: %q", in, got)
	}
	if got := unescape.Replace(prop); got != want {
		t.Fatalf("WorkflowProperty(%q) does not round-trip: %q", in, got)
	}
}

func FuzzWorkflowData(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkWorkflow(t, s) })
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"héllo", 3, "hé…"},
		{"abc", 0, ""},
		{"abc", 1, "…"},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.max); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// TestGolden shows every seed through every escaper, for review.
func TestGolden(t *testing.T) {
	var b strings.Builder
	for _, s := range hostile {
		fmt.Fprintf(&b, "input         %q\nMarkdown      %q\nHTML          %q\nMarkdownCode  %q\nXMLText       %q\nWorkflowData  %q\nWorkflowProp  %q\nLogLine       %q\n\n",
			s, Markdown(s), HTML(s), MarkdownCode(s), XMLText(s), WorkflowData(s), WorkflowProperty(s), LogLine(s))
	}
	golden.Check(t, "escapes.golden", []byte(b.String()))
}

// TestGHReferences (issue 12 item 7): "GH-123" links an issue on GitHub
// just as "#123" does; both are broken in Markdown and in HTML.
func TestGHReferences(t *testing.T) {
	for _, in := range []string{"GH-123", "see gh-7.", "Gh-1 and gH-2"} {
		for name, esc := range map[string]func(string) string{"Markdown": Markdown, "HTML": HTML} {
			got := esc(in)
			plain := strings.NewReplacer(`\`, "").Replace(got)
			for _, ref := range []string{"GH-1", "gh-7", "Gh-1", "gH-2"} {
				if strings.Contains(plain, ref) {
					t.Errorf("%s(%q) = %q: keeps the reference %s", name, in, got, ref)
				}
			}
			if strings.ReplaceAll(plain, zeroWidthSpace, "") != in {
				t.Errorf("%s(%q) = %q: changes the text beyond the break", name, in, got)
			}
		}
	}
	// A dash elsewhere is left alone.
	if got := HTML("DRP2-ERR x-1 GH-x"); strings.Contains(got, zeroWidthSpace) {
		t.Errorf("HTML breaks a dash that is no reference: %q", got)
	}
}

// TestLegacyWorkflowCommands (issue 12 item 2): the runner executes
// "##[command]" anywhere in a line, so no escaper for the log lets one
// through.
func TestLegacyWorkflowCommands(t *testing.T) {
	for _, in := range []string{
		"##[stop-commands]x", "name ##[set-output name=conclusion;]success", "###[error]x", "##[##[warning]y",
	} {
		for name, esc := range map[string]func(string) string{
			"LogLine": LogLine, "WorkflowData": WorkflowData, "WorkflowProperty": WorkflowProperty,
		} {
			if got := esc(in); strings.Contains(got, "##[") {
				t.Errorf("%s(%q) = %q", name, in, got)
			}
		}
	}
}

// TestLogLine: no line of the result starts a workflow command or carries
// a control character; lines and ordinary text are kept.
func TestLogLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text: with colons":    "plain text: with colons",
		"::error::x":                 ":\u200b:error::x",
		"  ::warning file=a::b":      "  :\u200b:warning file=a::b",
		"a\n::set-env name=x::y":     "a\n:\u200b:set-env name=x::y",
		"a\r::debug::y":              "a\n:\u200b:debug::y",
		"bell\a esc\x1b[31m nul\x00": "bell\uFFFD esc\uFFFD[31m nul\uFFFD",
		"bad \xff":                   "bad \uFFFD",
		"tab\tkept":                  "tab\tkept",
		// The runner trims every Unicode space before it looks for "::".
		"\u00a0::error::nbsp":       "\u00a0:\u200b:error::nbsp",
		"\u3000\u2003::error::wide": "\u3000\u2003:\u200b:error::wide",
	} {
		if got := LogLine(in); got != want {
			t.Errorf("LogLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzLogLine(f *testing.F) {
	f.Add("::error::x\n##[set-output name=a;]b\r\x1b")
	f.Add("\u00a0\u2028::error::x")
	f.Fuzz(func(t *testing.T, s string) {
		out := LogLine(s)
		if strings.Contains(out, "##[") || strings.ContainsAny(out, "\r\x00\x1b\a") {
			t.Fatalf("LogLine(%q) = %q", s, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
				t.Fatalf("LogLine(%q) has a command line %q", s, l)
			}
		}
	})
}

// invisibles are characters that display as nothing, or change how what
// follows them displays: zero-width space, non-joiner and joiner, word
// joiner, BOM, soft hyphen, the Hangul fillers, a tag character, variation
// selectors, combining grapheme joiner, the Mongolian vowel separator and
// free variation selector, bidirectional controls and marks, the invisible
// operators, the interlinear annotation marks and an unassigned
// default-ignorable code point.
var invisibles = []rune{0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x3164, 0xFFA0, 0x115F, 0x1160,
	0xE0001, 0xE0041, 0xE007F, 0xFE0F, 0xE0100, 0x034F, 0x180E, 0x180B, 0x202E, 0x2066, 0x2069, 0x200E, 0x200F,
	0x061C, 0x2062, 0x2064, 0xFFF9, 0xFFF0, 0xE0FFF, 0x17B4, 0x1D173, 0x1BCA0}

// humanSinks are the escapers of text people read: Markdown (comment,
// summary, check-run text), workflow commands and annotations, the log.
var humanSinks = map[string]func(string) string{
	"Markdown": Markdown, "HTML": HTML, "MarkdownCode": MarkdownCode, "MarkdownFence": MarkdownFence,
	"OneLine": OneLine, "LogLine": LogLine, "WorkflowData": WorkflowData, "WorkflowProperty": WorkflowProperty,
	"Visible": Visible,
}

// TestInvisibleCharactersAreNamed: no human sink lets a character through
// that displays as nothing: "hand\u2060shake\ufeff.json" must not read as
// "handshake.json". Each is named by its code point instead.
func TestInvisibleCharactersAreNamed(t *testing.T) {
	for name, sink := range humanSinks {
		got := sink("hand\u2060shake\ufeff.json")
		if got = strings.ReplaceAll(got, `\`, ""); !strings.Contains(got, "hand[U+2060]shake[U+FEFF]") {
			t.Errorf("%s: %q does not name the word joiner and the BOM", name, got)
		}
		for _, r := range invisibles {
			in := "a" + string(r) + "b"
			out := sink(in)
			if strings.ContainsRune(out, r) {
				t.Errorf("%s(%q) = %q: U+%04X passes", name, in, out, r)
			}
			if want := fmt.Sprintf("[U+%04X]", r); !strings.Contains(strings.ReplaceAll(out, `\`, ""), want) {
				t.Errorf("%s(%q) = %q: does not name it %s", name, in, out, want)
			}
		}
	}
	// What is visible stays as it was.
	for _, s := range []string{"emoji ✅ 😀", "naïve café", "日本語", "a b\tc"} {
		if got := Visible(s); got != s {
			t.Errorf("Visible(%q) = %q", s, got)
		}
	}
}
