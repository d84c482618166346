package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

func TestImplementationsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteImplementations(&b, sample.WithImplementations()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "implementations.txt", b.Bytes())
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.ContainsAny(line, "\r\x00\x1b") || strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("unsafe line %q", line)
		}
	}
	b.Reset()
	if err := WriteImplementations(&b, sample.Run()); err != nil || b.Len() != 0 {
		t.Errorf("a run without implementations wrote %q", b.String())
	}
}
