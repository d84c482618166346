package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// readTree reads every file below dir, by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSiteCommand builds the site from a folder of reports, a file and a
// glob: the reports that cannot be used (truncated, of a later major
// version, not a report) are warnings naming the file, listed on the
// index, and the rest builds; the site's own folder below an input is not
// read as reports; two builds give the same bytes.
func TestSiteCommand(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	for _, r := range []string{"reports/a.json", "reports/b.json"} {
		run(t, dir, "run", "--json-out", r, "--commit", "abcdef12", "--repository", "o/r")
	}
	good, _ := os.ReadFile(filepath.Join(dir, "reports/a.json"))
	for name, data := range map[string][]byte{
		"reports/truncated.json": good[:len(good)/2],
		"reports/next.json":      bytes.Replace(good, []byte(`"report_version": "1.3"`), []byte(`"report_version": "2.0"`), 1),
		"reports/other.json":     []byte(`{"name": "not a report"}`),
		"more/c.json":            good,
	} {
		putFile(t, filepath.Join(dir, name), string(data))
	}
	code, out, errs := run(t, dir, "site", "--out", "reports/site", "reports", "more/*.json")
	if code != ExitOK {
		t.Fatalf("site: %d\n%s\n%s", code, out, errs)
	}
	// The three usable reports share one start: which is the latest is
	// the file names' choice, and the log says so, as the index does.
	for _, want := range []string{"reports/truncated.json: not a drp2-fixtures JSON report: line", "reports/next.json: report_version 2.0", `reports/other.json: not a drp2-fixtures JSON report: no "results" array`,
		"warning: drp2-fixtures: more/c.json and reports/a.json have the same start, 2026-01-01 00:00 UTC; ordered by file name"} {
		if !strings.Contains(errs, want) {
			t.Errorf("warnings lack %q:\n%s", want, errs)
		}
	}
	if !strings.Contains(out, "3 reports") {
		t.Errorf("stdout: %s", out)
	}
	first := readTree(t, filepath.Join(dir, "reports/site"))
	index := string(first["index.html"])
	if !strings.Contains(index, "reports/next.json: report_version 2.0") || !strings.Contains(index, "3 reports") {
		t.Errorf("index:\n%s", index)
	}
	// Again, with the site's folder below the input: nothing of it is read.
	if code, _, errs := run(t, dir, "site", "--out", "reports/site", "reports", "more/*.json"); code != ExitOK || strings.Count(errs, "warning") != 5 {
		t.Fatalf("second build: %d\n%s", code, errs)
	}
	second := readTree(t, filepath.Join(dir, "reports/site"))
	if len(first) != len(second) {
		t.Fatalf("%d files, then %d", len(first), len(second))
	}
	for p, data := range first {
		if !bytes.Equal(data, second[p]) {
			t.Errorf("%s differs between two builds", p)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"site", "reports"}, "--out is required"},
		{[]string{"site", "--out", "s"}, "no report given"},
		{[]string{"site", "--out", "s", "reports/truncated.json"}, "no usable report"},
		{[]string{"site", "--out", "s", "nothing/*.json"}, "nothing/*.json: no file matches"},
	} {
		if code, _, errs := run(t, dir, c.args...); code != ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d %q", c.args, code, errs)
		}
	}
}

// TestSiteSeriesBelongToTheirRepository: another repository's report of
// the same implementation, device and corpus never becomes the victim's
// latest report or badge. Dated in the future, it is refused naming its
// file; dated after the victim's, it is a series of its own that says
// whose it is; a report that records no repository is a series of its
// own too.
func TestSiteSeriesBelongToTheirRepository(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	run(t, dir, "run", "--json-out", "reports/victim/runtime/v1.json", "--commit", "abcdef12", "--repository", "victim/runtime")
	good, err := os.ReadFile(filepath.Join(dir, "reports/victim/runtime/v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	forge := func(name, started, repository string) {
		var doc map[string]any
		if err := json.Unmarshal(good, &doc); err != nil {
			t.Fatal(err)
		}
		summary := doc["summary"].(map[string]any)
		summary["started"] = started
		if repository == "" {
			delete(summary, "repository")
		} else {
			summary["repository"] = repository
		}
		data, _ := json.MarshalIndent(doc, "", "  ")
		putFile(t, filepath.Join(dir, name), string(data))
	}
	forge("reports/attacker/fork/future.json", "2099-01-01T00:00:00Z", "attacker/fork")
	code, out, errs := run(t, dir, "site", "--out", "site", "reports")
	if code != ExitOK {
		t.Fatalf("site: %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "reports/attacker/fork/future.json: started 2099-01-01T00:00:00Z, later than this build's clock") {
		t.Errorf("the report dated in the future is not refused naming its file:\n%s", errs)
	}
	victimBadge(t, dir, "reports/victim/runtime/v1.json")

	if err := os.Remove(filepath.Join(dir, "reports/attacker/fork/future.json")); err != nil {
		t.Fatal(err)
	}
	forge("reports/attacker/fork/later.json", "2026-01-01T06:00:00Z", "attacker/fork")
	forge("reports/anonymous/later.json", "2026-01-01T03:00:00Z", "")
	if code, out, errs := run(t, dir, "site", "--out", "site", "reports"); code != ExitOK || errs != "" {
		t.Fatalf("site: %d\n%s\n%s", code, out, errs)
	}
	series := victimBadge(t, dir, "reports/victim/runtime/v1.json")
	if len(series) != 3 || series["attacker/fork"] != "reports/attacker/fork/later.json" || series[""] != "reports/anonymous/later.json" {
		t.Errorf("series by repository: %v", series)
	}
	index := string(readTree(t, filepath.Join(dir, "site"))["index.html"])
	for _, want := range []string{"victim/runtime", "attacker/fork", "repository not recorded"} {
		if !strings.Contains(index, want) {
			t.Errorf("the index does not say %q", want)
		}
	}
}

// victimBadge checks that the series of victim/runtime has the report
// source as its latest, and its Level 1 badge that report's date; it
// returns each series' latest report by repository.
func victimBadge(t *testing.T, dir, source string) map[string]string {
	t.Helper()
	site := readTree(t, filepath.Join(dir, "site"))
	var index struct {
		Implementations []struct {
			Repository string   `json:"repository"`
			Badges     []string `json:"badges"`
			Latest     struct {
				Source     string `json:"source"`
				Repository string `json:"repository"`
			} `json:"latest"`
		} `json:"implementations"`
	}
	if err := json.Unmarshal(site["data/index.json"], &index); err != nil {
		t.Fatal(err)
	}
	latest := map[string]string{}
	for _, im := range index.Implementations {
		if im.Repository != im.Latest.Repository {
			t.Errorf("series of %q has a latest report of %q", im.Repository, im.Latest.Repository)
		}
		latest[im.Latest.Repository] = im.Latest.Source
		if im.Latest.Repository != "victim/runtime" {
			continue
		}
		badge := string(site[im.Badges[0]])
		if !strings.Contains(badge, "· 2026-01-01") {
			t.Errorf("the victim's badge:\n%s", badge)
		}
	}
	if latest["victim/runtime"] != source {
		t.Errorf("the latest report of victim/runtime is %q, want %q (series: %v)", latest["victim/runtime"], source, latest)
	}
	for p, data := range site {
		if strings.HasPrefix(p, "badges/") && strings.Contains(string(data), "2099") {
			t.Errorf("%s carries the report dated 2099", p)
		}
	}
	return latest
}
