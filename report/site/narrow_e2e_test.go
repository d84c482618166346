//go:build e2e

package site

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// narrowScreen is the width of a phone held upright (CSS pixels): every
// page must fit it, a table or a figure scrolling inside its own box
// rather than the page scrolling sideways.
const narrowScreen = 390

// widthReport is what the harness's script writes for a page that is
// wider than its frame: the page, its width, and the element reaching
// furthest right outside a box that scrolls.
var widthReport = regexp.MustCompile(`(?m)^WIDE (.*)$`)

// TestPagesFitANarrowScreen loads every page of the sample site (the
// grid, the diff index and the diff pages among them) in headless
// Chromium, each in a frame 390 px wide, then 1280 px wide as a laptop's,
// and fails for a page wider than its frame, naming the element that
// widens it.
func TestPagesFitANarrowScreen(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium")
	}
	dir, html := writeSampleSite(t)
	for _, width := range []int{narrowScreen, 1280} {
		fitWidth(t, chromium, dir, html, width)
	}
}

func fitWidth(t *testing.T, chromium, dir string, html []File, width int) {
	px := strconv.Itoa(width)
	var pages []string
	for _, f := range html {
		pages = append(pages, f.Path)
	}
	// The harness's script measures each frame once
	// every frame has loaded (the parent's load event waits for them) and
	// writes what it found into its own page, which --dump-dom prints.
	var harness strings.Builder
	harness.WriteString("<!doctype html><title>every page, narrow</title><style>iframe{width:` + px + `px;height:300px;border:0;display:block}</style><main>\n")
	for _, p := range pages {
		harness.WriteString(`<iframe src="` + p + `"></iframe>` + "\n")
	}
	harness.WriteString(`</main><pre id="out"></pre><script>
addEventListener("load", () => {
  const lines = [];
  for (const f of document.querySelectorAll("iframe")) {
    const d = f.contentDocument, w = d.documentElement.scrollWidth;
    if (w <= d.documentElement.clientWidth) continue;
    let widest = null, right = 0;
    for (const e of d.body.querySelectorAll("*")) {
      let inside = false;
      for (let p = e.parentElement; p && p !== d.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") { inside = true; break; }
      }
      const r = e.getBoundingClientRect().right;
      if (!inside && r > right) { right = r; widest = e; }
    }
    const name = widest ? widest.tagName.toLowerCase() + (widest.className ? "." + widest.className : "") + " " + JSON.stringify((widest.textContent || "").slice(0, 60)) : "?";
    lines.push("WIDE " + f.getAttribute("src") + " is " + w + " px wide; widest: " + name + " reaching " + Math.round(right) + " px");
  }
  document.getElementById("out").textContent = "\n" + lines.join("\n") + "\nMEASURED\n";
});
</script>
`)
	harnessPath := filepath.Join(dir, "every-page-"+px+".html")
	if err := os.WriteFile(harnessPath, []byte(harness.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// From file:// frames are cross-origin to the harness; the flag lets
	// it read them, as it could over HTTP from one server.
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
		"--disable-web-security", "--user-data-dir="+t.TempDir(), "--window-size="+px+",900", "--dump-dom", "file://"+harnessPath)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(string(out), "MEASURED") {
		t.Fatalf("the harness did not measure the pages:\n%.600s\n%s", out, stderr.String())
	}
	for _, m := range widthReport.FindAllStringSubmatch(string(out), -1) {
		t.Errorf("at %d px, %s", width, m[1])
	}
}
