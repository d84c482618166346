package escape

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCap(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdefgh", 3, "abc… (5 more bytes)"},
		// "é" is two bytes: a cut inside it steps back before it.
		{"aéb", 2, "a… (3 more bytes)"},
		{"abc", 0, "… (3 more bytes)"},
		{"abc", -1, "… (3 more bytes)"},
	} {
		if got := Cap(c.in, c.max); got != c.want {
			t.Errorf("Cap(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// TestCapHuge: a 30 MB value is held to its cap plus a short note, and the
// note counts what was left out.
func TestCapHuge(t *testing.T) {
	in := strings.Repeat("日", 10<<20) // 30 MB of three-byte characters
	got := Cap(in, NameBytes)
	if len(got) > NameBytes+40 || !utf8.ValidString(got) {
		t.Fatalf("capped to %d bytes (valid UTF-8: %v)", len(got), utf8.ValidString(got))
	}
	kept := got[:strings.Index(got, "…")]
	want := "… (" + itoa(len(in)-len(kept)) + " more bytes)"
	if !strings.HasSuffix(got, want) {
		t.Errorf("note = %q, want suffix %q", got[len(kept):], want)
	}
}
