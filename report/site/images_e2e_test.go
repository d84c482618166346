//go:build e2e

package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImagesInChromium opens the pages that show Level 3 images, of a
// site of 3 failing images and of one of 400, in headless Chromium at
// 1280 and 390 px: every picture loads, nothing is wider than the screen,
// no console message, exception or failed request. With
// DRP2_SITE_SCREENSHOTS=DIR it photographs the pictures of a fixture and
// the implementation's list.
func TestImagesInChromium(t *testing.T) {
	for _, n := range []int{3, 400} {
		files, _ := imageSite(t, n)
		dir := t.TempDir()
		var pages []string
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.HasPrefix(f.Path, "impl/webgpu-js-on-node"):
				pages = append([]string{f.Path}, pages...)
			case strings.HasPrefix(f.Path, "fixture/") && strings.Contains(string(f.Data), `<h2 id="images">`):
				pages = append(pages, f.Path)
			}
		}
		if len(pages) > 12 {
			pages = pages[:12] // the first few fixtures, of every kind, and the lists
		}
		for _, width := range []int{1280, narrowScreen} {
			b := startBrowser(t, width, 900)
			for _, p := range pages {
				b.open("file://" + filepath.Join(dir, filepath.FromSlash(p)))
				var state struct{ Wide, Broken, Pictures int }
				_ = json.Unmarshal(b.eval(`({Wide: document.documentElement.scrollWidth > document.documentElement.clientWidth ? 1 : 0,
  Broken: [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length,
  Pictures: document.images.length})`), &state)
				if state.Wide != 0 {
					t.Errorf("%d images, at %d px: %s is wider than the screen", n, width, p)
				}
				if state.Broken != 0 {
					t.Errorf("%d images, at %d px: %s has %d pictures that did not load", n, width, p, state.Broken)
				}
				if len(b.events) > 0 {
					t.Errorf("%d images, at %d px, %s: %v", n, width, p, b.events)
					b.events = nil
				}
				if strings.HasPrefix(p, "fixture/positive-render-triangle") || strings.HasPrefix(p, "fixture/positive-render-b-x") {
					b.eval(`document.getElementById("images").scrollIntoView()`)
					b.screenshot(fmt.Sprintf("images-%d-%s-%d", n, strings.SplitN(strings.TrimPrefix(p, "fixture/positive-"), "-json", 2)[0], width))
				} else if strings.HasPrefix(p, "impl/") {
					b.eval(`[...document.querySelectorAll("h2")].find(h => h.textContent.startsWith("Level 3")).scrollIntoView()`)
					b.screenshot(fmt.Sprintf("images-%d-impl-%d", n, width))
				}
			}
		}
	}
}
