//go:build e2e

package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// consoleLine is a message a page wrote to the console, as Chromium logs
// it with --enable-logging=stderr: the pages write none, so any is a
// fault (a refused load, a parse error, a script's error).
var consoleLine = regexp.MustCompile(`:CONSOLE[:(]`)

// TestPagesLoadInChromium loads every page of the sample site in headless
// Chromium (the Debian package), over HTTP as GitHub Pages serves it and
// from file://, and fails on any console message, any request for a file
// the site does not have, and any reference to another host.
func TestPagesLoadInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium")
	}
	dir, html := writeSampleSite(t)
	var pages []string
	for _, f := range html {
		pages = append(pages, f.Path)
		if m := regexp.MustCompile(`(?:src="|<link[^>]*href="|url\()(?:https?:)?//`).FindString(string(f.Data)); m != "" {
			t.Errorf("%s loads from another host: %s", f.Path, m)
		}
		// A link away is only to the commit a report was made on, or the
		// workflow run that wrote it, in the report's own repository.
		for _, m := range regexp.MustCompile(`href="((?:[a-z]+:)?//[^"]*)"`).FindAllStringSubmatch(string(f.Data), -1) {
			if !strings.HasPrefix(m[1], "https://github.com/owner/runtime/commit/") && !strings.HasPrefix(m[1], "https://github.com/owner/runtime/actions/runs/") {
				t.Errorf("%s links to another host: %s", f.Path, m[1])
			}
		}
	}
	// One Chromium loads every page, each in a frame of one harness page
	// (the parent's load waits for every frame's): a Chromium per page
	// took a minute and a half on two cores. The server records every
	// request, so a page that was never asked for, or a file it asks for
	// that the site does not have, is seen.
	var harness strings.Builder
	harness.WriteString("<!doctype html><title>every page</title><main>\n")
	for _, p := range pages {
		harness.WriteString(`<iframe src="/` + p + `"></iframe>` + "\n")
	}
	harness.WriteString("</main>\n")
	if err := os.WriteFile(filepath.Join(dir, "every-page.html"), []byte(harness.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var failed []string
	asked := map[string]bool{}
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[strings.TrimPrefix(r.URL.Path, "/")] = true
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r.URL.Path))); err != nil && r.URL.Path != "/favicon.ico" {
			failed = append(failed, r.URL.Path)
		}
		mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	load := func(url string) {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
			"--user-data-dir="+t.TempDir(), "--dump-dom", url)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: %v\n%s", url, err, stderr.String())
			return
		}
		if !strings.Contains(string(out), "</main>") {
			t.Errorf("%s: the page did not load:\n%.300s", url, out)
		}
		for _, line := range strings.Split(stderr.String(), "\n") {
			if consoleLine.MatchString(line) {
				t.Errorf("%s: console: %s", url, line)
			}
		}
	}
	load(srv.URL + "/every-page.html")
	for _, p := range pages {
		if !asked[p] {
			t.Errorf("%s was never loaded", p)
		}
	}
	// Each kind of page on its own, over HTTP and from file://.
	kinds := []string{"index.html", "fixtures.html", "grid.html", "diffs.html", pages[len(pages)-1]}
	for _, p := range pages {
		if strings.HasPrefix(p, "diff/") {
			kinds = append(kinds, p)
			break
		}
	}
	for _, p := range kinds {
		load(srv.URL + "/" + p)
		load("file://" + filepath.Join(dir, filepath.FromSlash(p)))
	}
	if len(failed) > 0 {
		t.Errorf("requests for files the site does not have: %v", failed)
	}
}

// writeSampleSite writes the sample site into a new folder and returns it
// with the site's pages, for Chromium to load.
func writeSampleSite(t *testing.T) (dir string, pages []File) {
	t.Helper()
	dir = t.TempDir()
	if keep := os.Getenv("SITE_SAMPLE_DIR"); keep != "" {
		// To look at the pages the test loads.
		dir = keep
	}
	// The sample's reports, the day-4 scenario's and one of every kind of
	// verdict (its bug link a bug number: a link to another host is what
	// the test above refuses).
	reports := append(append(sampleReports(), dayFourReports()...), verdictsReport("crashes, bug 12"))
	reports[len(reports)-1].Run.Implementations[0].Name = "every-verdict"
	for _, f := range build(reports) {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Path, ".html") {
			pages = append(pages, f)
		}
	}
	return dir, pages
}
