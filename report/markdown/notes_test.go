package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// What of the base could not be read is said under the comparison's
// headline, escaped.
func TestComparisonNotes(t *testing.T) {
	run := sample.Compared()
	run.Comparison.Notes = []string{"the base's folder neg_*x* (tree cdcdcdc) is a corrupt git object"}
	var b bytes.Buffer
	if err := WriteSummary(&b, run, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "> [!WARNING]\n> the base\\'s folder neg\\_\\*x\\* \\(tree cdcdcdc\\) is a corrupt git object") {
		t.Errorf("no note:\n%s", b.String())
	}
}
