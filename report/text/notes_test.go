package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// What of the base could not be read is said with the comparison.
func TestComparisonNotes(t *testing.T) {
	run := sample.Compared()
	run.Comparison.Notes = []string{"the base's folder negative (tree cdcdcdc) is a corrupt git object (zlib: invalid header), so its fixtures count as added"}
	var b bytes.Buffer
	if err := Write(&b, run, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "WARN  the base's folder negative (tree cdcdcdc) is a corrupt git object") {
		t.Errorf("no note:\n%s", b.String())
	}
}
