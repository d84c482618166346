package escape

import (
	"html"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestCodeTextRendersAsText renders CodeText inside <code>, in a paragraph
// and in a table cell, with cmark-gfm, and checks that the element holds
// exactly the text given: no element, link or break of its own, and no
// zero-width space that would spoil a copied command.
func TestCodeTextRendersAsText(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to check rendered Markdown")
	}
	inputs := append([]string{"go run example.com/cmd@v1.2.3 run 'a b.json'", "x | y", "</code><b>x</b>", "a\\`b`",
		"@someone #12 GH-3", "https://x.example/a www.x.example", "*a* _b_ ~~c~~", "&amp; &lt;", "[a](b)"}, hostile...)
	code := regexp.MustCompile(`(?s)<code>(.*?)</code>`)
	for _, in := range inputs {
		want := strings.TrimSpace(clean(in, true))
		for _, wrap := range []string{"%s\n", "| h |\n|---|\n| %s |\n"} {
			md := strings.Replace(wrap, "%s", "<code>"+CodeText(in)+"</code>", 1)
			out, err := runCmark(cmark, md)
			if err != nil {
				t.Fatal(err)
			}
			m := code.FindAllStringSubmatch(out, -1)
			if len(m) != 1 || strings.Contains(strings.ReplaceAll(m[0][1], "<wbr>", ""), "<") {
				t.Errorf("%q: rendered %q", in, out)
				continue
			}
			if got := html.UnescapeString(strings.ReplaceAll(m[0][1], "<wbr>", "")); got != want {
				t.Errorf("%q: the code reads %q", in, got)
			}
		}
	}
}

func FuzzCodeText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := CodeText(s)
		if strings.ContainsAny(strings.ReplaceAll(out, "<wbr>", ""), "<>\n\r") || strings.Contains(out, "\u200b") && !strings.Contains(s, "\u200b") {
			t.Errorf("CodeText(%q) = %q", s, out)
		}
	})
}
