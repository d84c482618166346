package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestImplementationsSection: the implementations come after the run's
// details and before the final line, best first, every line log-safe.
func TestImplementationsSection(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.WithImplementations(), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	start := strings.Index(out, "Implementations (best first):")
	if start < 0 || start < strings.Index(out, "Run details:") || start > strings.LastIndex(out, "DRP2 conformance:") {
		t.Fatalf("section misplaced:\n%s", out)
	}
	section := out[start:strings.LastIndex(out, "\nDRP2 conformance:")]
	golden.Check(t, "implementations.txt", []byte(section))
	if strings.Index(section, "native-vk 2.0.1") > strings.Index(section, "./no-such-runtime") {
		t.Error("not best first")
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.ContainsAny(line, "\r\x00\x1b") || strings.HasPrefix(line, "::") {
			t.Errorf("unsafe line %q", line)
		}
	}
	b.Reset()
	if err := Write(&b, sample.Run(), Options{}); err != nil || strings.Contains(b.String(), "Implementations") {
		t.Errorf("a run without implementations: %v\n%s", err, b.String())
	}
}
