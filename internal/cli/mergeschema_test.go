package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A report the published schema rejects is refused when merge or site
// reads it, naming the file and the place: the reader alone filled a
// missing member with zero and took any word for a class or an outcome,
// and merge then wrote a report that failed its own schema. What merge
// writes is validated against the schema by run.
func TestMergeAndSiteRefuseReportsTheSchemaRejects(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	if code, _, stderr := run(t, dir, "run", "--json-out", "good.json"); code != ExitMismatch {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "good.json"))
	if code, _, stderr := run(t, dir, "merge", "good.json", "--json-out", "merged.json"); code != ExitMismatch {
		t.Fatalf("merge of a valid report: exit %d %s", code, stderr)
	}
	for _, c := range []struct{ from, to, place string }{
		{`"actual_outcome": "error"`, `"actual_outcome": "bogus"`, "/actual_outcome"},
		{`"class": "positive"`, `"class": "bogus"`, "/class"},
		{`"discovered": 4`, `"discovered": -1`, "/summary/discovered"},
		{`"findings": [`, `"findingz": [`, "at /: missing properties: 'findings'"},
		{`"passed": true`, `"passed": null`, "/passed"},
		{`"fixture_path": "`, `"fixture_pathz": "`, "missing properties: 'fixture_path'"},
		{`"by_class": [`, `"by_clas": [`, "missing properties: 'by_class'"},
	} {
		bad := bytes.Replace(good, []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(bad, good) {
			t.Fatalf("the report has no %s", c.from)
		}
		os.WriteFile(filepath.Join(dir, "bad.json"), bad, 0o644)
		for _, args := range [][]string{
			{"merge", "bad.json", "--json-out", "m.json"},
			{"site", "--out", "site", "bad.json"},
		} {
			code, _, stderr := run(t, dir, args...)
			if code != ExitUsage || !strings.Contains(stderr, "bad.json") || !strings.Contains(stderr, c.place) || !strings.Contains(stderr, "docs/report.schema.json") {
				t.Errorf("%s: %s: exit %d, want %d naming the file and %q:\n%s", c.to, args[0], code, ExitUsage, c.place, stderr)
			}
		}
	}
}
