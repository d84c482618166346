package escape

import (
	"html"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

func TestMarkdownText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"1 of 3 fixtures failed (1 mismatch); the corpus breaks the freeze of fixtures/manifest.json (1 violation)",
			"1 of 3 fixtures failed (1 mismatch); the corpus breaks the freeze of fixtures/manifest.json (1 violation)"},
		{"no fixtures run: the filters matched none, fail-on mismatch", "no fixtures run: the filters matched none, fail-on mismatch"},
		{"<b>x</b> & @someone #12", "&lt;b&gt;x&lt;/b&gt; &amp; @\u200bsomeone \\#\u200b12"},
		{"[x](http://x) www.y.example", `\[x\](http\://x) www\.y.example`},
		{"- a", `\- a`}, {"+ a", `\+ a`}, {"===", `\===`}, {"12. a", `12\. a`}, {"3) a", `3\) a`}, {"a 1. b", "a 1. b"},
		{"*a* _b_ `c` ~d~ $e$ a|b \\", `\*a\* \_b\_ \` + "`c\\`" + ` \~d\~ \$e\$ a\|b \\`},
		{"GH-4 a-b", "GH\\-\u200b4 a-b"},
		{"a\nb", "a b"},
	} {
		if got := MarkdownText(tt.in); got != tt.want {
			t.Errorf("MarkdownText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMarkdownTextRendersAsText renders each hostile text, escaped, where
// the reports put such text (a heading, a list item, a table cell, a
// paragraph, after a line of its own) with cmark-gfm, the renderer
// GitHub's Markdown is built on, and checks that it came out as that text
// alone: no element, link, entity or break of its own.
func TestMarkdownTextRendersAsText(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to check rendered Markdown")
	}
	inputs := append([]string{"- a", "1. a", "1) a", "===", "---", "***", "+ x", "www.x.example", "https://x.example/a",
		"a@b.example", "x  ", "\\", "a <https://x> b", "[a]: https://x", "[^1]", "> q", "    code", "#", "a #"}, hostile...)
	wrappers := []struct{ before, after, tag string }{
		{"### ", "\n", "h3"},
		{"- ", "\n", "li"},
		{"| h |\n|---|\n| ", " |\n", "td"},
		{"", "\n", "p"},
		{"para\n", "\n", "p"},
	}
	tags := regexp.MustCompile(`<[^>]+>`)
	for _, in := range inputs {
		esc := MarkdownText(in)
		want := strings.Join(strings.Fields(clean(in, true)), " ")
		if want == "" {
			continue
		}
		want = strings.NewReplacer("@", "@\u200b").Replace(want)
		for _, w := range wrappers {
			out, err := runCmark(cmark, w.before+esc+w.after)
			if err != nil {
				t.Fatal(err)
			}
			// The text is in the wrapper's element, and is the whole of it.
			inner := out
			if i := strings.LastIndex(inner, "<"+w.tag); i >= 0 {
				inner = inner[i:]
			}
			if strings.Count(out, "<") != strings.Count(w.before+w.after, "<")+elements(w.tag) {
				t.Errorf("%q as %s: rendered %q", in, w.tag, out)
				continue
			}
			text := html.UnescapeString(tags.ReplaceAllString(inner, ""))
			text = strings.Join(strings.Fields(strings.TrimPrefix(text, "para")), " ")
			if w.tag == "td" {
				text = strings.TrimPrefix(text, "h ")
			}
			if fixed := strings.ReplaceAll(strings.ReplaceAll(text, "#\u200b", "#"), "-\u200b", "-"); fixed != strings.ReplaceAll(strings.ReplaceAll(want, "#\u200b", "#"), "-\u200b", "-") {
				t.Errorf("%q as %s: rendered text %q, want %q (%q)", in, w.tag, text, want, out)
			}
		}
	}
}

// elements counts the tags cmark-gfm writes around a text in the wrapper
// whose element is tag.
func elements(tag string) int {
	switch tag {
	case "li":
		return 4 // <ul><li>…</li></ul>
	case "td":
		return 14 // <table><thead><tr><th>h</th></tr></thead><tbody><tr><td>…</td></tr></tbody></table>
	}
	return 2
}

func runCmark(cmark, md string) (string, error) {
	cmd := exec.Command(cmark, "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
	cmd.Stdin = strings.NewReader(md)
	out, err := cmd.Output()
	return string(out), err
}

// checkMarkdownText asserts what MarkdownText promises of out: one line,
// no space at either end, HTML only as entities, no '@' that can mention,
// every always-escaped character escaped, and no list, autolink or break
// left to start.
func checkMarkdownText(t *testing.T, in, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\n\r") || strings.Trim(out, " ") != out {
		t.Fatalf("MarkdownText(%q) = %q: not one trimmed line", in, out)
	}
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '\\':
			if i+1 >= len(out) || !isASCIIPunct(rune(out[i+1])) {
				t.Fatalf("MarkdownText(%q): stray backslash at %d in %q", in, i, out)
			}
			i++
		case c == '&':
			if !strings.HasPrefix(out[i:], "&amp;") && !strings.HasPrefix(out[i:], "&lt;") && !strings.HasPrefix(out[i:], "&gt;") {
				t.Fatalf("MarkdownText(%q): raw '&' at %d in %q", in, i, out)
			}
		case c == '@':
			if !strings.HasPrefix(out[i+1:], zeroWidthSpace) {
				t.Fatalf("MarkdownText(%q): '@' may mention at %d in %q", in, i, out)
			}
		case strings.IndexByte("`*_[]|~$#<>", c) >= 0:
			t.Fatalf("MarkdownText(%q): unescaped %q at %d in %q", in, c, i, out)
		case c == ':' && strings.HasPrefix(out[i+1:], "/"):
			t.Fatalf("MarkdownText(%q): an autolink can start at %d in %q", in, i, out)
		}
	}
	lower := strings.ToLower(out)
	if strings.Contains(lower, "www.") {
		t.Fatalf("MarkdownText(%q): a www autolink can start in %q", in, out)
	}
	if regexp.MustCompile(`^([-+=]|[0-9]+[.)])`).MatchString(out) {
		t.Fatalf("MarkdownText(%q): %q can start a list or an underline", in, out)
	}
}

func FuzzMarkdownText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add(" 12) x")
	f.Add("  - x www.y")
	f.Fuzz(func(t *testing.T, s string) {
		checkMarkdownText(t, s, MarkdownText(s))
	})
}
