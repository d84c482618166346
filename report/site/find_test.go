package site

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestFindGolden: the grid, the diff index and the native runtime's
// latest difference, as a txtar archive (the stylesheet and the script
// once, in the grid).
func TestFindGolden(t *testing.T) {
	files := build(sampleReports())
	var b bytes.Buffer
	for _, prefix := range []string{"grid.html", "diffs.html", "diff/native-vk-2024-05-03-"} {
		f := find(files, prefix)
		if f == nil {
			t.Fatalf("no file %s*", prefix)
		}
		data := f.Data
		if prefix != "grid.html" {
			data = bytes.ReplaceAll(data, []byte(style+findStyle), []byte("…"))
			data = bytes.ReplaceAll(data, []byte(findScript), []byte("…"))
		}
		b.WriteString("-- " + f.Path + " --\n")
		b.Write(data)
	}
	golden.Check(t, "find.txtar", b.Bytes())
}

// gridRows are the fixture paths of a grid page's rows and the words of
// their cells.
func gridRows(t *testing.T, html string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	row := regexp.MustCompile(`<tr><th scope="row" class="path"><a href="[^"]*">([^<]*)</a></th>(.*)</tr>`)
	cell := regexp.MustCompile(`<td class="[a-z]+">([^<]*)</td>`)
	for _, m := range row.FindAllStringSubmatch(html, -1) {
		for _, c := range cell.FindAllStringSubmatch(m[2], -1) {
			rows[m[1]] = append(rows[m[1]], c[1])
		}
	}
	return rows
}

// TestGrid: one row per fixture any report ran, one column per
// implementation and device, the latest report's verdict in each cell
// and "not run" where that report did not run the fixture.
func TestGrid(t *testing.T) {
	files := build(sampleReports())
	html := string(find(files, "grid.html").Data)
	rows := gridRows(t, html)
	all := group(sampleReports())
	if len(rows) != len(fixturesOf(all)) {
		t.Fatalf("%d rows, want %d", len(rows), len(fixturesOf(all)))
	}
	cols := strings.Count(html, `<th scope="col" class="col">`)
	if cols != len(all) {
		t.Fatalf("%d columns, want %d", cols, len(all))
	}
	// The native runtime failed texture_upload in its second report and
	// passed it in its latest, the first column of its corpus.
	if got := rows["positive/texture_upload.json"]; len(got) != cols || !contains(got, vPass) {
		t.Errorf("texture_upload: %v", got)
	}
	notRun := 0
	for _, cells := range rows {
		for _, c := range cells {
			if c == vNotRun {
				notRun++
			}
		}
	}
	if notRun == 0 {
		t.Errorf("the other corpus's report ran every fixture of the first: no cell says %q", vNotRun)
	}
	if !strings.Contains(html, `<form class="find" id="find" role="search" hidden`) {
		t.Errorf("the filter is not hidden until its script shows it")
	}
}

// TestPairChanges: the native runtime's latest report against the one
// before: the fixture it flipped back to failing is a regression, and
// nothing else changed.
func TestPairChanges(t *testing.T) {
	var native *series
	for _, se := range group(sampleReports()) {
		if se.name == "native-vk" {
			native = se
		}
	}
	h := historyOf(native)
	got := pairChanges(native.entries[1], native.entries[2], h)
	if len(got) != 1 || got[0].Path != "positive/texture_upload.json" || got[0].Kind != changeRegressed || got[0].Before != vPass {
		t.Fatalf("changes %+v", got)
	}
	// The first report keeps only its marks, which are enough.
	if native.entries[0].im.Results != nil {
		t.Fatalf("the oldest report kept its results")
	}
	got = pairChanges(native.entries[0], native.entries[1], h)
	if len(got) != 1 || got[0].Kind != changeFixed {
		t.Fatalf("changes %+v", got)
	}
	// A report that ran fewer fixtures: the rest are removed, by path.
	short := *native.entries[2]
	short.marks = short.marks[:2]
	got = pairChanges(native.entries[2], &short, h)
	if len(got) != len(native.entries[2].marks)-2 || got[0].Kind != changeRemoved || got[0].Path > got[1].Path {
		t.Fatalf("changes %+v", got)
	}
	files := build(sampleReports())
	pages := 0
	for _, f := range files {
		if strings.HasPrefix(f.Path, "diff/") {
			pages++
		}
	}
	reports := 0
	for _, se := range group(sampleReports()) {
		reports += len(se.entries) - 1
	}
	if pages != reports {
		t.Errorf("%d diff pages, want one per report after the first of its series: %d", pages, reports)
	}
}

// TestRunURL: a workflow run link only for a run of the report's own
// repository on GitHub, of the exact shape the gate records.
func TestRunURL(t *testing.T) {
	for _, c := range []struct{ repository, run, want string }{
		{"owner/runtime", "https://github.com/owner/runtime/actions/runs/12", "https://github.com/owner/runtime/actions/runs/12"},
		{"owner/runtime", "https://github.com/owner/runtime/actions/runs/12/attempts/2", "https://github.com/owner/runtime/actions/runs/12/attempts/2"},
		{"owner/runtime", "https://github.com/other/runtime/actions/runs/12", ""},
		{"owner/runtime", "https://evil.example/owner/runtime/actions/runs/12", ""},
		{"owner/runtime", "https://github.com.evil.example/owner/runtime/actions/runs/12", ""},
		{"owner/runtime", "http://github.com/owner/runtime/actions/runs/12", ""},
		{"owner/runtime", "https://github.com/owner/runtime/actions/runs/12/../../../evil", ""},
		{"owner/runtime", "https://github.com/owner/runtime/actions/runs/12\"><script>", ""},
		{"", "https://github.com/owner/runtime/actions/runs/12", ""},
	} {
		if got := runURL(&entry{repository: c.repository, runURL: c.run}); got != c.want {
			t.Errorf("%q @ %q: %q, want %q", c.repository, c.run, got, c.want)
		}
	}
}

// TestCommitURL: a commit link only for a repository and a commit of the
// shapes the gate records, whatever else a report claims.
func TestCommitURL(t *testing.T) {
	for _, c := range []struct{ repository, commit, want string }{
		{"owner/runtime", "0123456789abcdef", "https://github.com/owner/runtime/commit/0123456789abcdef"},
		{"owner/runtime", "", ""},
		{"", "0123456789abcdef", ""},
		{"javascript:alert(1)//x/y", "0123456789abcdef", ""},
		{"owner/runtime/../../evil", "0123456789abcdef", ""},
		{"owner/runtime", "main", ""},
		{"owner/runtime", "abc\"><script>", ""},
	} {
		if got := commitURL(&entry{repository: c.repository, commit: c.commit}); got != c.want {
			t.Errorf("%q @ %q: %q, want %q", c.repository, c.commit, got, c.want)
		}
	}
}

// TestShellWord: the command line the diff index shows pastes as it is.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"reports/a_b-1.json":  "reports/a_b-1.json",
		"reports/a b.json":    "'reports/a b.json'",
		"it's.json":           `'it'\''s.json'`,
		"$(rm -rf ~).json":    "'$(rm -rf ~).json'",
		"":                    "''",
		"-rf":                 "./-rf",
		"x;echo owned>y.json": "'x;echo owned>y.json'",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestScriptIsInert: the script the grid and the diff index carry reads
// the page and sets only hidden, an href, a text and a selection: no
// markup parsed, nothing evaluated or fetched, and nothing that would end
// its script element early.
func TestScriptIsInert(t *testing.T) {
	for _, banned := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "fetch(",
		"XMLHttpRequest", "import(", "setTimeout(\"", "</script", "<!--", "location"} {
		if strings.Contains(findScript, banned) {
			t.Errorf("find.js uses %s", banned)
		}
	}
}

// manyFixtures is one report of implementations implementations over n
// fixtures, each failing a different share of them.
func manyFixtures(n, implementations int) []Report {
	run := sample.ManyImplementations(n, implementations)
	run.Started, run.CorpusDigest = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), corpusA
	return []Report{{Source: "reports/many.json", Run: run}}
}

// TestGridOfTenThousandFixtures: the grid of 10,000 fixtures and 20
// implementations holds every row, stays within 8 MiB and renders in
// seconds of CPU.
func TestGridOfTenThousandFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s := &siteData{series: group(manyFixtures(10000, 20))}
	s.corpora, s.fixtures = corpora(s.series), fixturesOf(s.series)
	var html []byte
	cpu := testkit.CPUTime(func() { html = page("grid", s.gridView()) })
	// Under a second on the project's machine; a bound that only a grid
	// grown quadratic, or a template per cell, would pass.
	if cpu > 8*time.Second {
		t.Errorf("the grid took %v of CPU", cpu)
	}
	t.Logf("rendered in %v of CPU", cpu)
	if n := bytes.Count(html, []byte(`<tr><th scope="row" class="path">`)); n != 10000 {
		t.Errorf("%d rows", n)
	}
	if len(html) > 8<<20 {
		t.Errorf("%d bytes", len(html))
	}
	t.Logf("%d bytes", len(html))
}

// BenchmarkGrid renders the grid of 10,000 fixtures and 20
// implementations.
func BenchmarkGrid(b *testing.B) {
	s := &siteData{series: group(manyFixtures(10000, 20))}
	s.corpora, s.fixtures = corpora(s.series), fixturesOf(s.series)
	size := 0
	for b.Loop() {
		size = len(page("grid", s.gridView()))
	}
	b.ReportMetric(float64(size), "page-bytes")
}

// TestGridVerdictsAsTold: a grid cell is the verdict as the gate told it;
// a known or flaky one names its entry's reason in its title and links
// the bug an http(s) address in it names, and no other scheme is a link.
func TestGridVerdictsAsTold(t *testing.T) {
	rep := verdictsReport("crashes <b>here</b> https://bugs.example/issues/12?a=1&b=2.")
	grid := string(find(build([]Report{rep}), "grid.html").Data)
	for _, want := range []string{
		`<td class="known" title="crashes &lt;b&gt;here&lt;/b&gt; https://bugs.example/issues/12?a=1&amp;b=2. (expect.txt:3)"><a href="https://bugs.example/issues/12?a=1&amp;b=2" rel="nofollow">known failure</a></td>`,
		`<td class="flaky" title="expect.txt:4">flaky, failed</td>`,
		`<td class="none" title="expect.txt:5">skipped</td>`,
		`<td class="none">not claimed</td>`, `<td class="none">no verdict</td>`,
		`<td class="known" title="javascript:alert(1) (expect.txt:6)">known failure</td>`,
	} {
		if !strings.Contains(grid, want) {
			t.Errorf("the grid lacks %s", want)
		}
	}
}

// TestPairPagesTellWhy: a diff page of a fix that came with an edit of the
// fixture's commands says so, beside the version, which stayed; on day 4
// the added fixture is added and nothing else changed, though the corpus
// did, and every report after the first has its page.
func TestPairPagesTellWhy(t *testing.T) {
	var reports []Report
	for n := 1; n <= 3; n++ {
		commands := "old"
		if n == 3 {
			commands = "new"
		}
		reports = append(reports, reportOf("alpha", "1.0", n, []fixtureRun{{path: "positive/x.json", commands: commands, file: commands, passed: n == 3}}))
	}
	files := build(reports)
	var pair string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "diff/alpha-2026-03-03-") {
			pair = string(f.Data)
		}
	}
	for _, want := range []string{"<p>1 fixed.</p>", "<p>Same version 1.0: ",
		`<td>fixed</td><td class="fail">fail</td><td class="pass">pass</td><td>the fixture&#39;s commands or expectation changed</td>`} {
		if !strings.Contains(pair, want) {
			t.Errorf("the diff page of day 3 lacks %s:\n%s", want, pair)
		}
	}
	files = build(dayFourReports())
	pages := 0
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "diff/") {
			continue
		}
		pages++
		page := string(f.Data)
		day4 := strings.Contains(f.Path, "-2026-03-04-")
		if day4 != strings.Contains(page, "<p>1 added.</p>") || !day4 && !strings.Contains(page, "<p>No fixture changed its verdict.</p>") {
			t.Errorf("%s:\n%s", f.Path, page)
		}
	}
	if pages != 4*3 {
		t.Errorf("%d diff pages, want 12", pages)
	}
}
