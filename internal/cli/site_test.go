package cli

import (
	"bytes"
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
		"reports/next.json":      bytes.Replace(good, []byte(`"report_version": "1.0"`), []byte(`"report_version": "2.0"`), 1),
		"reports/other.json":     []byte(`{"name": "not a report"}`),
		"more/c.json":            good,
	} {
		putFile(t, filepath.Join(dir, name), string(data))
	}
	code, out, errs := run(t, dir, "site", "--out", "reports/site", "reports", "more/*.json")
	if code != ExitOK {
		t.Fatalf("site: %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"reports/truncated.json: not a drp2-fixtures JSON report: line", "reports/next.json: report_version 2.0", `reports/other.json: not a drp2-fixtures JSON report: no "results" array`} {
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
	if code, _, errs := run(t, dir, "site", "--out", "reports/site", "reports", "more/*.json"); code != ExitOK || strings.Count(errs, "warning") != 3 {
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
