package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestHugeValuesAreCapped: a fixture's oversized name, code and reason and
// a message listing unknown keys by the hundred thousand give short lines
// that say how much was left out (issue 12 item 6).
func TestHugeValuesAreCapped(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, bound.Run(sample.Huge()), Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 64<<10 {
		t.Errorf("report is %d bytes", b.Len())
	}
	for i, line := range strings.Split(b.String(), "\n") {
		if len(line) > 8<<10 {
			t.Errorf("line %d is %d bytes", i+1, len(line))
		}
	}
	if !strings.Contains(b.String(), "more bytes)") {
		t.Errorf("no visible cap note:\n%s", b.String())
	}
}
