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
// it with --enable-logging=stderr: the pages have no script, so any is a
// fault (a refused load, a parse error).
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
	dir := t.TempDir()
	var pages []string
	for _, f := range build(sampleReports()) {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Path, ".html") {
			pages = append(pages, f.Path)
			if m := regexp.MustCompile(`(?:src|href)="(?:https?:)?//`).FindString(string(f.Data)); m != "" {
				t.Errorf("%s refers to another host: %s", f.Path, m)
			}
		}
	}
	var mu sync.Mutex
	var failed []string
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r.URL.Path))); err != nil && r.URL.Path != "/favicon.ico" {
			mu.Lock()
			failed = append(failed, r.URL.Path)
			mu.Unlock()
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	load := func(url string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
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
	for _, p := range pages {
		load(srv.URL + "/" + p)
	}
	for _, p := range []string{"index.html", pages[len(pages)-1]} {
		load("file://" + filepath.Join(dir, filepath.FromSlash(p)))
	}
	if len(failed) > 0 {
		t.Errorf("requests for files the site does not have: %v", failed)
	}
}
