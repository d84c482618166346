package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestExpectations: the counts per implementation, each result its
// expectations cover said so, the validator's stale entry and the diff of
// the written expectations, hostile text kept to one printable line.
func TestExpectations(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, bound.Run(sample.WithExpectations()), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	golden.Check(t, "expectations.txt", []byte(out))
	for _, want := range []string{"failed 3 (1 unexpected, 1 known failure, 1 flaky), 1 unexpected pass, 1 flaky passed, skipped 1", "STALE ", "1 flaky, passed this run",
		"Expectations written to", "-rt negative/a.json fail"} {
		if !strings.Contains(out, want) {
			t.Errorf("report without %q", want)
		}
	}
	if strings.ContainsAny(out, "\x00\x1b\r") {
		t.Errorf("control characters in the report")
	}
}
