package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rerunReport is the part of the JSON report the re-run tests read.
type rerunReport struct {
	Summary struct {
		Rerun *struct {
			From    string `json:"from"`
			Ran     int    `json:"ran"`
			Carried int    `json:"carried"`
		} `json:"rerun"`
	} `json:"summary"`
	Results         []struct{ Carried bool } `json:"results"`
	Implementations []struct {
		Summary struct {
			Run    int `json:"run"`
			Passed int `json:"passed"`
			Failed int `json:"failed"`
		} `json:"summary"`
		Results []struct {
			CorpusPath string `json:"corpus_path"`
			Passed     bool   `json:"passed"`
			Carried    bool   `json:"carried"`
		} `json:"results"`
	} `json:"implementations"`
}

func readRerunReport(t *testing.T, path string) rerunReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r rerunReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// sentTo reads the fake's log: the fixtures the harness sent it, sorted.
func sentTo(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(data))
	slices.Sort(names)
	return names
}

// TestRerunFailedSendsOnlyTheFailures re-runs a 5000-fixture report with
// 10 failures: the implementation is sent those 10 and nothing else, and
// the report is whole, the other 4990 results carried over and marked so.
func TestRerunFailedSendsOnlyTheFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 5000 fixtures twice")
	}
	const n = 5000
	dir, names := fakeCorpus(t, n)
	failing := chosen(names, 44, 10)
	code, _, stderr := run(t, dir, "run", "--corpus", "fixtures", "--implementation", fake(t, fakeSpec{Name: "rt", Fail: failing}),
		"--json-out", "out/first.json")
	if code != ExitMismatch {
		t.Fatalf("first run: exit %d, want %d: %s", code, ExitMismatch, stderr)
	}
	log := filepath.Join(t.TempDir(), "sent")
	code, stdout, stderr := run(t, dir, "run", "--corpus", "fixtures", "--implementation", fake(t, fakeSpec{Name: "rt", Log: log}),
		"--rerun-failed", "out/first.json", "--json-out", "out/second.json", "--summary", "out/second.md")
	if code != 0 {
		t.Fatalf("re-run: exit %d: %s", code, stderr)
	}
	if got := sentTo(t, log); !slices.Equal(got, failing) {
		t.Fatalf("the re-run sent %d fixtures %v, want the 10 that failed %v", len(got), got, failing)
	}
	rep := readRerunReport(t, filepath.Join(dir, "out/second.json"))
	if rr := rep.Summary.Rerun; rr == nil || rr.From != "out/first.json" || rr.Ran != 10 || rr.Carried != n-10 {
		t.Fatalf("summary.rerun = %+v, want from out/first.json, ran 10, carried %d", rr, n-10)
	}
	im := rep.Implementations[0]
	if len(im.Results) != n || im.Summary.Passed != n || im.Summary.Failed != 0 {
		t.Fatalf("implementation: %d results, summary %+v, want %d passed", len(im.Results), im.Summary, n)
	}
	carried := 0
	for i, res := range im.Results {
		if i > 0 && im.Results[i-1].CorpusPath >= res.CorpusPath {
			t.Fatalf("results out of order at %s", res.CorpusPath)
		}
		if res.Carried == slices.Contains(failing, strings.TrimSuffix(strings.TrimPrefix(res.CorpusPath, "positive/"), ".json")) {
			t.Fatalf("%s: carried %v", res.CorpusPath, res.Carried)
		}
		if res.Carried {
			carried++
		}
	}
	for _, res := range rep.Results {
		if res.Carried {
			t.Fatal("a result of the built-in validator is marked carried: it checks every fixture again")
		}
	}
	want := "Re-run: 10 fixtures run, 4990 carried over from out/first.json"
	if carried != n-10 || !strings.Contains(stdout, want) {
		t.Fatalf("%d carried; stdout lacks %q:\n%s", carried, want, stdout)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "out/second.md"))
	if !strings.Contains(string(md), "*Re-run: 10 fixtures run, 4990 carried over from `out/first.json`.*") {
		t.Fatalf("the summary does not say what was carried over:\n%s", md)
	}
}

// rerunSetUp runs a 20-fixture corpus through the fake named rt, which
// fails render_case_003, into out/first.json, and returns the folder.
func rerunSetUp(t *testing.T) string {
	t.Helper()
	dir, _ := fakeCorpus(t, 20)
	code, _, stderr := run(t, dir, "run", "--corpus", "fixtures", "--implementation", fake(t, fakeSpec{Name: "rt", Fail: []string{"render_case_003"}}),
		"--json-out", "out/first.json", "--commit", "abc123")
	if code != ExitMismatch {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	return dir
}

// TestRerunFailedRunsWhatChanged: a fixture edited since the report is
// sent again, with the one that failed; one the report lacks (it was
// interrupted, say) is too.
func TestRerunFailedRunsWhatChanged(t *testing.T) {
	dir := rerunSetUp(t)
	edited := filepath.Join(dir, "fixtures/positive/render_case_007.json")
	data, _ := os.ReadFile(edited)
	writeFile(t, edited, string(data)+"\n")
	first := filepath.Join(dir, "out/first.json")
	var doc map[string]any
	raw, _ := os.ReadFile(first)
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// The report of a run stopped before it sent render_case_011.
	impl := doc["implementations"].([]any)[0].(map[string]any)
	results := impl["results"].([]any)
	impl["results"] = slices.DeleteFunc(results, func(r any) bool {
		return r.(map[string]any)["corpus_path"] == "positive/render_case_011.json"
	})
	doc["summary"].(map[string]any)["interrupted"] = map[string]any{"signal": "SIGTERM", "done": 19, "of": 20}
	raw, _ = json.Marshal(doc)
	writeFile(t, first, string(raw))

	log := filepath.Join(t.TempDir(), "sent")
	code, _, stderr := run(t, dir, "run", "--corpus", "fixtures", "--implementation", fake(t, fakeSpec{Name: "rt", Log: log}),
		"--rerun-failed", "out/first.json", "--json-out", "out/second.json", "--commit", "abc123")
	if code != 0 {
		t.Fatalf("re-run: exit %d: %s", code, stderr)
	}
	want := []string{"render_case_003", "render_case_007", "render_case_011"}
	if got := sentTo(t, log); !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
	if rr := readRerunReport(t, filepath.Join(dir, "out/second.json")).Summary.Rerun; rr == nil || rr.Ran != 3 || rr.Carried != 17 {
		t.Fatalf("summary.rerun = %+v", rr)
	}
}

// TestRerunFailedRefusesAnotherRun: a report of another selection,
// schema, commit or set of implementations is refused with exit 2, the
// difference named, and nothing is sent.
func TestRerunFailedRefusesAnotherRun(t *testing.T) {
	dir := rerunSetUp(t)
	writeFile(t, filepath.Join(dir, "other.schema.json"), `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`)
	cases := []struct {
		name string
		args []string
		spec fakeSpec
		want string
	}{
		{"selection", []string{"--name", "render_case_01"}, fakeSpec{Name: "rt"},
			"it ran another selection of fixtures (corpus sha256 "},
		{"shard", []string{"--shard", "1/2"}, fakeSpec{Name: "rt"}, "it ran all of the selection, this run shard 1/2"},
		{"schema", []string{"--command-schema", "other.schema.json"}, fakeSpec{Name: "rt"}, "it was made with another command schema"},
		{"commit", []string{"--commit", "def456"}, fakeSpec{Name: "rt"}, "it was made on commit abc123, this run on def456"},
		{"implementation", nil, fakeSpec{Name: "other"}, "it ran rt 1.0, this run other 1.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "sent")
			c.spec.Log = log
			args := append([]string{"run", "--corpus", "fixtures", "--implementation", fake(t, c.spec), "--rerun-failed", "out/first.json"}, c.args...)
			code, _, stderr := run(t, dir, args...)
			if code != ExitUsage || !strings.Contains(stderr, "--rerun-failed out/first.json: "+c.want) {
				t.Fatalf("exit %d, want %d and %q in:\n%s", code, ExitUsage, c.want, stderr)
			}
			if c.name != "implementation" && len(sentTo(t, log)) != 0 {
				t.Fatalf("a refused re-run sent fixtures: %v", sentTo(t, log))
			}
		})
	}
	t.Run("no implementations", func(t *testing.T) {
		code, _, stderr := run(t, dir, "run", "--corpus", "fixtures", "--rerun-failed", "out/first.json")
		if code != ExitUsage || !strings.Contains(stderr, "it ran 1 implementation (rt 1.0), this run 0 implementations") {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	})
}
