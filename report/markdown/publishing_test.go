package markdown

import (
	"os/exec"
	"strings"
	"testing"
)

func TestPublishing(t *testing.T) {
	if got := Publishing(nil); got != "" {
		t.Errorf("no notes: %q, want nothing", got)
	}
	got := Publishing([]PublishingNote{
		{What: "Pull request comment skipped: the token is read-only."},
		// The server's answer and the names an event carries are not ours:
		// no link, mention, HTML, table cell or second line may come of them.
		{What: "Check run and pull request comment skipped: the pull request comes from the fork @evil/<b>x</b>",
			Answer: "Resource not accessible [by](https://x.example) integration | <script>\n- forged note"},
	})
	want := "\n### Publishing\n\n" +
		"- Pull request comment skipped: the token is read-only.\n" +
		"- Check run and pull request comment skipped: the pull request comes from the fork @\u200bevil/&lt;b&gt;x&lt;/b&gt;: " +
		"Resource not accessible \\[by\\](https\\://x.example) integration \\| &lt;script&gt; - forged note\n"
	if got != want {
		t.Errorf("Publishing:\n got %q\nwant %q", got, want)
	}
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to check rendered Markdown")
	}
	html := renderHTML(t, cmark, got)
	if strings.Count(html, "<li>") != 2 || strings.Contains(html, "<a") || strings.Contains(html, "<b>") || strings.Contains(html, "<script") {
		t.Errorf("rendered notes:\n%s", html)
	}
}
