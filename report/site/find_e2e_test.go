//go:build e2e

package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type shownRows struct {
	N     int
	Paths []string
	Shown string
}

// countShown waits for the frame the filter runs in, then counts the
// rows it left shown.
const countShown = `new Promise(done => requestAnimationFrame(() => {
  const rows = Array.from(document.querySelectorAll("#grid tbody tr")).filter(r => !r.hidden);
  done({N: rows.length, Paths: rows.slice(0, 3).map(r => r.cells[0].textContent), Shown: document.getElementById("shown").textContent});
}))`

func (b *browser) shown() shownRows {
	b.t.Helper()
	var s shownRows
	if err := json.Unmarshal(b.eval(countShown), &s); err != nil {
		b.t.Fatal(err)
	}
	return s
}

// choose picks a value of one of the filter's fields, as a person's
// choice in a list does (an input event).
func (b *browser) choose(field, value string) {
	b.t.Helper()
	data, _ := json.Marshal(value)
	b.eval(`(() => { const f = document.querySelector("#find [name=` + field + `]"); f.value = ` + string(data) +
		`; f.dispatchEvent(new Event("input", {bubbles: true})); })()`)
}

// TestFilterFindsOneFixtureAmongTenThousand types a fixture's name into
// the grid's filter of 10,000 fixtures × 20 implementations in headless
// Chromium, key by key, and finds that fixture alone; then filters by
// verdict and implementation and finds as many rows as the page's own
// cells say.
func TestFilterFindsOneFixtureAmongTenThousand(t *testing.T) {
	s := &siteData{series: group(manyFixtures(10000, 20))}
	s.corpora, s.fixtures = corpora(s.series), fixturesOf(s.series)
	html := page("grid", s.gridView())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "grid.html"), html, 0o644); err != nil {
		t.Fatal(err)
	}
	b := startBrowser(t, 1280, 900)
	start := time.Now()
	b.open("file://" + filepath.Join(dir, "grid.html"))
	t.Logf("loaded %d bytes in %v", len(html), time.Since(start))
	if got := b.shown(); got.N != 10000 || got.Shown != "10000 of 10000 fixtures shown" {
		t.Fatalf("before filtering: %+v", got)
	}
	b.eval(`document.querySelector("#find [name=path]").focus()`)
	start = time.Now()
	b.typeText("fixture_07342")
	t.Logf("13 keys typed and filtered in %v", time.Since(start))
	if got := b.shown(); got.N != 1 || got.Paths[0] != "negative/fixture_07342.json" || got.Shown != "1 of 10000 fixtures shown" {
		t.Fatalf("typing fixture_07342: %+v", got)
	}
	b.screenshot("grid-found")
	b.choose("path", "")
	rows := gridRows(t, string(html))
	for _, c := range []struct {
		verdict string
		column  int
	}{{vFail, 3}, {vPass, 0}, {vFail, -1}, {"", 19}} {
		want := 0
		for _, cells := range rows {
			for i, v := range cells {
				if (c.column < 0 || i == c.column) && (c.verdict == "" && v != vNotRun || v == c.verdict) {
					want++
					break
				}
			}
		}
		b.choose("verdict", c.verdict)
		impl := ""
		if c.column >= 0 {
			impl = itoa(c.column)
		}
		b.choose("impl", impl)
		if got := b.shown(); got.N != want {
			t.Errorf("verdict %q, implementation %d: %d rows, want %d", c.verdict, c.column, got.N, want)
		}
	}
	if len(b.events) > 0 {
		t.Errorf("console messages or failed requests: %v", b.events)
	}
}

// TestPagesInChromiumAtTwoWidths opens every page of the sample site in
// headless Chromium at 1280 and 390 px, and fails on any console message,
// uncaught exception or failed request, and on a page wider than the
// screen. On the diff index it chooses two reports that follow one
// another (their page is linked) and two that do not (the command line
// is shown).
func TestPagesInChromiumAtTwoWidths(t *testing.T) {
	dir, html := writeSampleSite(t)
	for _, width := range []int{1280, narrowScreen} {
		b := startBrowser(t, width, 900)
		for _, f := range html {
			b.open("file://" + filepath.Join(dir, filepath.FromSlash(f.Path)))
			var wide bool
			_ = json.Unmarshal(b.eval("document.documentElement.scrollWidth > document.documentElement.clientWidth"), &wide)
			if wide {
				t.Errorf("at %d px, %s is wider than the screen", width, f.Path)
			}
			for _, prefix := range []string{"grid.html", "diffs.html", "diff/native-vk-2024-05-03", "impl/native-vk", "index.html", "fixture/positive-texture"} {
				if strings.HasPrefix(f.Path, prefix) {
					b.screenshot(strings.NewReplacer("/", "-", ".html", "").Replace(prefix) + "-" + itoa(width))
				}
			}
			if len(b.events) > 0 {
				t.Errorf("at %d px, %s: %v", width, f.Path, b.events)
				b.events = nil
			}
		}
		checkChooser(t, b, dir)
	}
}

func checkChooser(t *testing.T, b *browser, dir string) {
	t.Helper()
	b.open("file://" + filepath.Join(dir, "diffs.html"))
	pick := func(base, head string) (link, command string) {
		b.eval(`(() => { const f = document.getElementById("compare");
  for (const [name, text] of [["base", ` + quoteJS(base) + `], ["head", ` + quoteJS(head) + `]]) {
    const s = f.elements[name]; s.selectedIndex = Array.from(s.options).findIndex(o => o.textContent.startsWith("native-vk") && o.textContent.endsWith(text));
    s.dispatchEvent(new Event("input", {bubbles: true}));
  } })()`)
		var r struct{ Link, Command string }
		_ = json.Unmarshal(b.eval(`({Link: document.getElementById("pair-page").hidden ? "" : document.getElementById("pair-page").getAttribute("href"), Command: document.getElementById("pair-command").textContent})`), &r)
		return r.Link, r.Command
	}
	link, command := pick("reports/two.json", "reports/three.json")
	if !strings.HasPrefix(link, "diff/native-vk-2024-05-03-") || command != "drp2-fixtures diff reports/two.json reports/three.json" {
		t.Errorf("two reports that follow one another: %q, %q", link, command)
	}
	link, command = pick("reports/one.json", "reports/three.json")
	if link != "" || command != "drp2-fixtures diff reports/one.json reports/three.json" {
		t.Errorf("two reports apart: %q, %q", link, command)
	}
	if len(b.events) > 0 {
		t.Errorf("the chooser: %v", b.events)
	}
}

func quoteJS(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// TestPagesWholeWithoutScript: with script off, the grid shows every row
// and neither page shows a form that could not work.
func TestPagesWholeWithoutScript(t *testing.T) {
	dir, _ := writeSampleSite(t)
	b := startBrowser(t, 1280, 900)
	b.call("Emulation.setScriptExecutionDisabled", map[string]any{"value": true}, nil)
	for _, c := range []struct{ page, form string }{{"grid.html", "find"}, {"diffs.html", "compare"}} {
		b.open("file://" + filepath.Join(dir, c.page))
		var got struct {
			Form        string
			Rows, Shown int
		}
		_ = json.Unmarshal(b.eval(`({Form: getComputedStyle(document.getElementById("`+c.form+`")).display,
  Rows: document.querySelectorAll("#grid tbody tr").length,
  Shown: Array.from(document.querySelectorAll("#grid tbody tr")).filter(r => r.getClientRects().length > 0).length})`), &got)
		if got.Form != "none" || got.Rows != got.Shown {
			t.Errorf("%s without script: %+v", c.page, got)
		}
	}
}
