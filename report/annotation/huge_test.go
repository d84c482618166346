package annotation

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestHugeValuesAreCapped (issue 12 item 6): annotations and their workflow
// commands cap each oversized value with a visible note.
func TestHugeValuesAreCapped(t *testing.T) {
	anns := Build(bound.Run(sample.Huge()))
	total := 0
	for _, a := range anns {
		total += len(a.Path) + len(a.Title) + len(a.Message) + len(a.RawDetails)
		if !strings.Contains(a.Message+a.Path, "more bytes)") {
			t.Errorf("annotation %q: no visible cap note", a.Title)
		}
	}
	if total > 64<<10 {
		t.Errorf("annotations hold %d bytes", total)
	}
	var b bytes.Buffer
	if err := WriteCommands(&b, anns, CommandOptions{}); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 32<<10 {
		t.Errorf("workflow commands are %d bytes", b.Len())
	}
}
