package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

func TestGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "sample.txt", b.Bytes())
	b.Reset()
	if err := Write(&b, sample.Passing()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "passing.txt", b.Bytes())
}

// TestHostileTextIsInert: fixture text cannot forge a line, start a
// workflow command, or send terminal escapes.
func TestHostileTextIsInert(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.Run()); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("line %d starts a workflow command: %q", i+1, line)
		}
		if strings.ContainsAny(line, "\r\x00\x1b") {
			t.Errorf("line %d has a control character: %q", i+1, line)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"a\nb":             `a\nb`,
		"\x1b[31mred":      `\x1b[31mred`,
		"bad \xff byte":    `bad \xff byte`,
		"é and \u2028 sep": "é and \\u2028 sep",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestComparisonGolden: the run's report ends with the comparison; a known
// failure says so under its fixture.
func TestComparisonGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.Compared()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compared.txt", b.Bytes())
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") || strings.ContainsAny(line, "\r\x00\x1b") {
			t.Errorf("line %d is not inert: %q", i+1, line)
		}
	}
	b.Reset()
	if err := WriteComparison(&b, sample.Unavailable().Comparison); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "`fetch-depth: 2` on actions/checkout") {
		t.Errorf("unavailable comparison: %s", b.String())
	}
}
