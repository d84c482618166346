package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestHugeValuesAreCapped (issue 12 item 6): the summary, the comment and
// the check output each say visibly that a value was cut, and how much.
func TestHugeValuesAreCapped(t *testing.T) {
	var b bytes.Buffer
	huge := bound.Run(sample.Huge())
	if err := WriteSummary(&b, huge, linked); err != nil {
		t.Fatal(err)
	}
	title, sum, text := CheckOutput(huge, linked)
	for name, s := range map[string]string{
		"summary": b.String(), "comment": Comment(huge, linked), "check summary": sum, "check text": title + text,
	} {
		if len(s) > 64<<10 {
			t.Errorf("%s is %d bytes", name, len(s))
		}
		if !strings.Contains(s, "more bytes") {
			t.Errorf("%s: no visible cap note", name)
		}
	}
}
