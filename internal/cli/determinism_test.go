package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/corpusgen"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// Under SOURCE_DATE_EPOCH two runs with an implementation write the same
// JUnit report, byte for byte: the implementation's suite and testcases
// take their times from the run's clock, as the validator's do.
func TestJUnitWithAnImplementationIsReproducible(t *testing.T) {
	dir := testkit.Corpus(t, harnessCorpus)
	var reports [2][]byte
	for i := range reports {
		name := filepath.Join(dir, "junit.xml")
		if code, _, errs := run(t, dir, "run", "--implementation", selfAdapter(t), "--fail-on", "never", "--junit", name); code != ExitOK {
			t.Fatalf("run %d: exit %d\n%s", i, code, errs)
		}
		var err error
		if reports[i], err = os.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(reports[0], reports[1]) {
		t.Errorf("two runs wrote different JUnit reports:\n%s", firstDifference(reports[0], reports[1]))
	}
	if !bytes.Contains(reports[0], []byte(`<testsuite name="implementation: `)) {
		t.Errorf("no implementation suite:\n%.2000s", reports[0])
	}
}

// firstDifference shows the line where a and b first differ.
func firstDifference(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("line %d:\n%s\n%s", i+1, la[i], lb[i])
		}
	}
	return "one is a prefix of the other"
}

// The text report of four shards merged is the whole run's, byte for byte,
// its failures' reasons and fixes (the fixture's own words) included: 300
// fixtures generated from the embedded corpus, every second one a
// mismatch and every seventh malformed.
func TestTextReportOfMergedShardsIsTheWholeRuns(t *testing.T) {
	dir := t.TempDir()
	if err := corpusgen.Corpus(fixtures.FS, filepath.Join(dir, "corpus"), corpusgen.Options{Count: 300, MismatchEvery: 2, BrokenEvery: 7}); err != nil {
		t.Fatal(err)
	}
	code, whole, errs := run(t, dir, "run", "--corpus", "corpus", "--fail-on", "never")
	if code != ExitOK {
		t.Fatalf("whole run: exit %d\n%s", code, errs)
	}
	for k := 1; k <= 4; k++ {
		if code, _, errs := run(t, dir, "run", "--corpus", "corpus", "--shard", fmt.Sprintf("%d/4", k), "--fail-on", "never",
			"--json-out", fmt.Sprintf("shards/%d.json", k)); code != ExitOK {
			t.Fatalf("shard %d: exit %d\n%s", k, code, errs)
		}
	}
	code, merged, errs := run(t, dir, "merge", "--fail-on", "never", "shards/*.json")
	if code != ExitOK {
		t.Fatalf("merge: exit %d\n%s", code, errs)
	}
	if merged != whole {
		t.Errorf("the merge's text report differs from the whole run's:\n%s", firstDifference([]byte(whole), []byte(merged)))
	}
	if n := strings.Count(whole, "fixture's reason: "); n == 0 {
		t.Errorf("no failure of the corpus has a reason: the test tests nothing")
	}
}
