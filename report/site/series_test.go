package site

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// dayAt is the start of day n (1 the first) of the scenarios.
func dayAt(n int) time.Time {
	return time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(n-1) * 24 * time.Hour)
}

// fixtureRun is one fixture in a generated report: its path, its
// verdict-relevant digest and file digest, and whether it passed.
type fixtureRun struct {
	path, commands, file string
	passed               bool
}

// reportOf is a report of one implementation on a device, its corpus the
// digest of its fixtures' files, as the gate records one.
func reportOf(name, version string, n int, fixtures []fixtureRun) Report {
	im := model.Implementation{Name: name, Version: version, DRP2Versions: []string{"2.0"},
		Adapter: &model.GPUAdapter{Vendor: "Google", Device: "SwiftShader", Driver: "SwiftShader driver 5.0.0", Platform: fmt.Sprintf("node 20.%d", n)}}
	for _, f := range fixtures {
		r := model.Result{Path: f.path, RelPath: f.path, Folder: "positive", Name: f.path, Class: model.ClassPositive,
			Expected: model.Expected{Outcome: "success"}, Passed: f.passed, Digest: model.Digest{File: f.file, Commands: f.commands, Expected: "e"}}
		r.Actual = model.Actual{Outcome: model.Success}
		if !f.passed {
			r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE"}
		}
		im.Results = append(im.Results, r)
	}
	im.Summary = model.Summarize(len(im.Results), im.Results, nil)
	run := &model.Run{Started: dayAt(n).Add(time.Duration(len(name)) * time.Minute), CorpusDigest: corpusOf(fixtures), Repository: "owner/" + name,
		Implementations: []model.Implementation{im}}
	return Report{Source: fmt.Sprintf("reports/%s-day%d.json", name, n), Run: run}
}

// corpusOf is a corpus digest that changes with any fixture's file.
func corpusOf(fixtures []fixtureRun) string {
	h := uint64(14695981039346656037)
	for _, f := range fixtures {
		for _, c := range []byte(f.path + "\x00" + f.file + "\x00") {
			h = (h ^ uint64(c)) * 1099511628211
		}
	}
	return fmt.Sprintf("%016x", h) + strings.Repeat("0", 48)
}

// dayFourReports is the scenario of a project lead's four days: four
// implementations report every day; on day 3 one fixture's description is
// edited (its file changes, its commands and expectation do not), on day 4
// a fixture is added. Every change changes the corpus digest.
func dayFourReports() []Report {
	var out []Report
	for n := 1; n <= 4; n++ {
		for i, name := range []string{"alpha", "beta", "gamma", "delta"} {
			var fixtures []fixtureRun
			for j := 0; j < 5; j++ {
				file := fmt.Sprintf("f%d", j)
				if j == 0 && n >= 3 {
					file = "f0-new-description"
				}
				fixtures = append(fixtures, fixtureRun{path: fmt.Sprintf("positive/f%d.json", j), commands: fmt.Sprintf("c%d", j), file: file, passed: j > i})
			}
			if n == 4 {
				fixtures = append(fixtures, fixtureRun{path: "positive/added.json", commands: "c-added", file: "added", passed: true})
			}
			out = append(out, reportOf(name, "1.0", n, fixtures))
		}
	}
	return out
}

// TestDayFour: one series per implementation and device with 4 points
// across the three corpus versions, the edited fixture's history goes on,
// the added fixture's starts on day 4, and the fixture list counts four
// implementations, not a row per corpus.
func TestDayFour(t *testing.T) {
	all := group(dayFourReports())
	if len(all) != 4 {
		t.Fatalf("%d series, want 4", len(all))
	}
	for _, se := range all {
		if len(se.entries) != 4 {
			t.Errorf("%s: %d points, want 4", se.name, len(se.entries))
		}
		if got := corpusChanges(se); len(got) != 2 || got[0] != 2 || got[1] != 3 {
			t.Errorf("%s: corpus changes at %v, want [2 3]", se.name, got)
		}
		h := historyOf(se)
		if f := h.fixtures["positive/f0.json"]; len(f.starts) != 1 || f.since() != 0 {
			t.Errorf("%s: the description edit restarted the history: %v", se.name, f.starts)
		}
		if f := h.fixtures["positive/added.json"]; len(f.starts) != 1 || f.since() != 3 || f.firstPass != 3 {
			t.Errorf("%s: the added fixture's history starts at %v, first passes at %d", se.name, f.starts, f.firstPass)
		}
		if len(h.flaky()) != 0 {
			t.Errorf("%s: flaky %v", se.name, h.flaky())
		}
	}
	files := build(dayFourReports())
	fixtures := string(find(files, "fixtures.html").Data)
	if !strings.Contains(fixtures, "positive/f4.json</a></th><td class=\"n\">4 of 4</td>") || strings.Contains(fixtures, " of 8") {
		t.Errorf("fixtures.html does not count 4 implementations:\n%s", fixtures)
	}
	index := string(find(files, "index.html").Data)
	if strings.Count(index, `<th scope="row"><a href="impl/`) != 4 || strings.Count(index, "<th scope=\"row\"><code class=\"digest\" title=\"sha256 ") != 3 {
		t.Errorf("the index does not show 4 implementations on 3 corpus versions:\n%s", index)
	}
	pages := 0
	for _, f := range files {
		if strings.HasPrefix(f.Path, "impl/") {
			pages++
			if !strings.Contains(string(f.Data), "3 corpus versions over these reports (2 changes, each a dashed line on the trend)") {
				t.Errorf("%s does not show the corpus changes", f.Path)
			}
		}
	}
	if pages != 4 {
		t.Errorf("%d implementation pages, want 4", pages)
	}
}

// TestChangedFixtureRestarts: a fixture whose commands change starts a new
// history, and its pages say so; its old verdicts are no transition.
func TestChangedFixtureRestarts(t *testing.T) {
	var reports []Report
	for n := 1; n <= 3; n++ {
		commands := "old"
		if n == 3 {
			commands = "new"
		}
		reports = append(reports, reportOf("alpha", "1.0", n, []fixtureRun{{path: "positive/x.json", commands: commands, file: commands, passed: n == 3}}))
	}
	se := group(reports)[0]
	f := historyOf(se).fixtures["positive/x.json"]
	if len(f.starts) != 2 || f.since() != 2 || f.firstPass != 2 || len(f.transitions) != 1 || !f.transitions[0].changed || f.transitions[0].flip {
		t.Fatalf("history %+v", f)
	}
	page := string(find(build(reports), "fixture/positive-x-json-").Data)
	if !strings.Contains(page, "new history since 2026-03-03 09:05 UTC: its commands or expectation changed") || strings.Count(page, `<span class="v `) != 1 {
		t.Errorf("the fixture page does not restart the history:\n%s", page)
	}
}

// TestHonestTransitions: three flips at one version are flaky, with their
// count; a fix with a new version, and verdicts that change with every
// release, are fixes and regressions, never flaky.
func TestHonestTransitions(t *testing.T) {
	var reports []Report
	flaky := []bool{true, false, true, false}
	fixed := []bool{false, false, true, true}
	moving := []bool{true, false, true, false}
	for n := 1; n <= 4; n++ {
		reports = append(reports, reportOf("steady", "1.0", n, []fixtureRun{{path: "positive/flaky.json", commands: "c", file: "f", passed: flaky[n-1]}}))
		version := fmt.Sprintf("1.%d", n/3)
		reports = append(reports, reportOf("release", version, n, []fixtureRun{{path: "positive/fixed.json", commands: "c", file: "f", passed: fixed[n-1]}}))
		reports = append(reports, reportOf("moving", fmt.Sprintf("2.%d", n), n, []fixtureRun{{path: "positive/moving.json", commands: "c", file: "f", passed: moving[n-1]}}))
	}
	bySeries := map[string]*history{}
	for _, se := range group(reports) {
		bySeries[se.name] = historyOf(se)
	}
	if h := bySeries["steady"]; len(h.flaky()) != 1 || h.flips["positive/flaky.json"] != 3 || h.fixtures["positive/flaky.json"].flipVersion != "1.0" {
		t.Errorf("three flips at one version: flaky %v, flips %v", h.flaky(), h.flips)
	}
	if h := bySeries["release"]; len(h.flaky()) != 0 || len(h.fixtures["positive/fixed.json"].transitions) != 1 || h.fixtures["positive/fixed.json"].transitions[0].kind() != "fix" {
		t.Errorf("a fix: flaky %v, %+v", h.flaky(), h.fixtures["positive/fixed.json"])
	}
	if f := bySeries["release"].fixtures["positive/fixed.json"]; f.firstPass != 2 {
		t.Errorf("first passing report %d, want 2", f.firstPass)
	}
	if h := bySeries["moving"]; len(h.flaky()) != 0 || len(h.fixtures["positive/moving.json"].transitions) != 3 {
		t.Errorf("a change at every release: flaky %v, %+v", h.flaky(), h.fixtures["positive/moving.json"])
	}
	files := build(reports)
	for _, f := range files {
		page := string(f.Data)
		switch {
		case strings.HasPrefix(f.Path, "impl/release-"):
			if strings.Contains(page, "positive/fixed.json</a></th><td class=\"n\">") || !strings.Contains(page, `<td class="pass">fix</td><td>version 1.0 → 1.1</td>`) {
				t.Errorf("the fix reads as flaky, or not as a fix:\n%s", page)
			}
		case strings.HasPrefix(f.Path, "impl/steady-"):
			if !strings.Contains(page, `positive/flaky.json</a></th><td class="n">3</td><td>1.0</td>`) {
				t.Errorf("the flaky fixture is not listed with its 3 flips:\n%s", page)
			}
		}
	}
}

// TestVerdictsAsTold: every kind of verdict reads as the gate told it,
// a known failure with its entry's reason, its http(s) link a link and
// its other text escaped; a link of another scheme stays text.
func TestVerdictsAsTold(t *testing.T) {
	rep := verdictsReport("crashes <b>here</b> https://bugs.example/issues/12?a=1&b=2.")
	page := string(find(build([]Report{rep}), "impl/").Data)
	for _, want := range []string{
		`<td class="known">known failure<br><span class="muted">crashes &lt;b&gt;here&lt;/b&gt; <a href="https://bugs.example/issues/12?a=1&amp;b=2" rel="nofollow">https://bugs.example/issues/12?a=1&amp;b=2</a>. (expect.txt:3)</span>`,
		`<td class="flaky">flaky, failed<br><span class="muted">expect.txt:4</span>`,
		`<td class="none">skipped<br><span class="muted">expect.txt:5</span>`,
		`<td class="none">not claimed</td>`, `<td class="none">no verdict</td>`,
		`known failure<br><span class="muted">javascript:alert(1) (expect.txt:6)</span>`,
		`<dd>Google · SwiftShader · SwiftShader driver 5.0.0 · node 20.1</dd>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, `href="javascript`) {
		t.Errorf("a javascript: reason is a link")
	}
}

// verdictsReport is a report of every kind of verdict, the known failure's
// entry giving reason.
func verdictsReport(reason string) Report {
	rep := reportOf("alpha", "1.0", 1, []fixtureRun{
		{path: "positive/known.json", file: "1"}, {path: "positive/flaky.json", file: "2"}, {path: "positive/skip.json", file: "3"},
		{path: "positive/unclaimed.json", file: "4"}, {path: "positive/harness.json", file: "5"}, {path: "positive/script.json", file: "6"},
	})
	rs := rep.Run.Implementations[0].Results
	rs[0].Listing = &model.Listing{Expect: model.ExpectFail, Reason: reason, Entry: "expect.txt:3"}
	rs[0].KnownFailure = rs[0].Listing.Reason
	rs[1].Listing = &model.Listing{Expect: model.ExpectFlaky, Entry: "expect.txt:4"}
	rs[2].Listing, rs[2].Actual = &model.Listing{Expect: model.ExpectSkip, Entry: "expect.txt:5"}, model.Actual{Outcome: model.Skipped}
	rs[3].Actual = model.Actual{Outcome: model.NotClaimed}
	rs[4].Actual = model.Actual{Outcome: model.HarnessError}
	rs[5].Listing = &model.Listing{Expect: model.ExpectFail, Reason: "javascript:alert(1)", Entry: "expect.txt:6"}
	return rep
}
