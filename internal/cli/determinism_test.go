package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

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
