package junit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestHugeValuesAreCapped (issue 12 item 6): a 30 MB fixture once gave a
// 60 MB JUnit file; each value is now capped with a visible note.
func TestHugeValuesAreCapped(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, bound.Run(sample.Huge()), Options{}); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 64<<10 {
		t.Errorf("report is %d bytes", b.Len())
	}
	if !strings.Contains(b.String(), "more bytes)") {
		t.Error("no visible cap note")
	}
}
