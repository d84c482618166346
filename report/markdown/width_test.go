package markdown

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// measure opens every <details> and lists what is wider than its room:
// a column wider than 760 px, a table or code block that would scroll
// inside itself, any element past the column's right edge.
const measure = `
const bad = [];
document.querySelectorAll('details').forEach(d => d.open = true);
document.querySelectorAll('.markdown-body').forEach(col => {
  const name = col.dataset.name, right = col.getBoundingClientRect().right;
  if (col.scrollWidth > col.clientWidth) bad.push(name + ': the column is ' + col.scrollWidth + ' px wide');
  col.querySelectorAll('table, pre').forEach(t => {
    if (t.scrollWidth > t.clientWidth + 1) bad.push(name + ': a ' + t.tagName + ' scrolls (' + t.scrollWidth + ' > ' + t.clientWidth + ' px): ' + t.innerText.slice(0, 120));
  });
  col.querySelectorAll('*').forEach(e => {
    if (!e.closest('table, pre') && e.getBoundingClientRect().right > right + 1) bad.push(name + ': ' + e.tagName + ' passes the edge: ' + e.innerText.slice(0, 120));
  });
});
document.getElementById('result').textContent = JSON.stringify(bad);
`

// TestFitsTheColumn renders the comments, job summaries and check-run
// outputs of 3 and 400 failures, and of runtime failures, with cmark-gfm
// and lays them out in headless Chromium with GitHub's rules for width:
// nothing may scroll sideways in a 760 px column, neither the page nor
// any table (GitHub's tables scroll inside themselves).
func TestFitsTheColumn(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("SKIPPED: cmark-gfm not found; install it (Debian package cmark-gfm) to lay out rendered Markdown")
	}
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		t.Skip("SKIPPED: no chromium found; install it (Debian package chromium) to check that reports fit a 760 px column")
	}
	// GitHub's rules for width, shared with the README's pictures.
	githubCSS, err := os.ReadFile(filepath.Join("testdata", "github.css"))
	if err != nil {
		t.Fatal(err)
	}
	var page strings.Builder
	page.WriteString("<!DOCTYPE html>\n<meta charset=\"utf-8\">\n<style>" + string(githubCSS) + "</style>\n<pre id=\"result\"></pre>\n")
	for name, md := range widthCases(t) {
		page.WriteString("<div class=\"markdown-body\" data-name=\"" + html.EscapeString(name) + "\">\n" + renderHTML(t, cmark, md) + "</div>\n")
	}
	page.WriteString("<script>" + measure + "</script>\n")
	file := filepath.Join(t.TempDir(), "reports.html")
	if err := os.WriteFile(file, []byte(page.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(), "--window-size=800,2000", "--dump-dom", "file://"+file).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`<pre id="result">(.*?)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("chromium wrote no measurement:\n%.2000s", out)
	}
	var bad []string
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &bad); err != nil {
		t.Fatalf("measurement %q: %v", m[1], err)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// widthCases are the reports laid out by TestFitsTheColumn, by name.
func widthCases(t *testing.T) map[string]string {
	cases := map[string]string{}
	for name, run := range map[string]func() *model.Run{"3": func() *model.Run { return sample.SchemaEdit(3) },
		"400": func() *model.Run { return sample.SchemaEdit(400) }, "sample": sample.Run} {
		cases[name+" comment"] = Comment(run(), linked)
		cases[name+" summary"] = summary(t, run(), linked)
		_, sum, text := CheckOutput(run(), linked)
		cases[name+" check summary"], cases[name+" check text"] = sum, text
	}
	cases["implementations comment"] = ImplementationsComment(sample.WithWebGPU(), linked)
	cases["implementations report"] = Report(sample.WithWebGPU(), linked)
	cases["runtime failures comment"] = ImplementationsComment(sample.RuntimeFailures(), linked)
	for _, n := range []int{3, 400} {
		cases[fmt.Sprintf("%d images comment", n)] = ImplementationsComment(sample.FailingImages(n), imagesLinked)
		cases[fmt.Sprintf("%d images report", n)] = Report(sample.FailingImages(n), imagesLinked)
	}
	_, cases["runtime failures check summary"] = ImplementationsCheckOutput(sample.RuntimeFailures(), linked)
	return cases
}
