package escape

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
)

// inertInLog fails when a line of doc, as the runner splits it, would run
// as a workflow command.
func inertInLog(t *testing.T, doc string) {
	t.Helper()
	for _, line := range strings.FieldsFunc(doc, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.Contains(line, "##[") || strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			t.Errorf("a command survives: %q", line)
		}
	}
}

func TestLogWriter(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"<testsuites>\n  <x/>\n</testsuites>\n", "<testsuites>\n  <x/>\n</testsuites>\n"},
		{"a::b\n", "a::b\n"},
		{"<![CDATA[line1\n  ::error title=x::y\r::warning::z]]>", "<![CDATA[line1\n  :\u200b:error title=x::y\r:\u200b:warning::z]]>"},
		{"name=\"x##[stop-commands]y\"", "name=\"x##\u200b[stop-commands]y\""},
		{"\u00a0::error::nbsp\n\u3000::error::ideographic\n", "\u00a0:\u200b:error::nbsp\n\u3000:\u200b:error::ideographic\n"},
	} {
		// Written a byte at a time, so that no command can hide across
		// two writes.
		var b bytes.Buffer
		w := NewLogWriter(&b)
		for i := range len(c.in) {
			if _, err := w.Write([]byte{c.in[i]}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, b.String(), c.want)
		}
		inertInLog(t, b.String())
	}
}

func FuzzLogDocument(f *testing.F) {
	for _, s := range []string{"::error::x", " \t::x", "\u2003::x\r::y", "##[set-output]", "#", "##", ":\n:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(LogDocument([]byte(s)))
		inertInLog(t, out)
		if strings.ReplaceAll(out, zeroWidthSpace, "") != strings.ReplaceAll(s, zeroWidthSpace, "") {
			t.Errorf("%q became %q: more than zero-width spaces changed", s, out)
		}
	})
}

func TestVisibleLogText(t *testing.T) {
	for in, want := range map[string]string{
		"a\n::error::x":    "a\n:[U+200B]:error::x",
		" \u3000::warning": " \u3000:[U+200B]:warning",
		"x##[error]y":      "x#[U+200B]#[error]y",
		"###[x":            "#[U+200B]#[U+200B]#[x",
		"a\u200bb":         "a[U+200B]b",
		"a\r::b":           "a\r:[U+200B]:b",
	} {
		got := VisibleLogText(in)
		if got != want {
			t.Errorf("VisibleLogText(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(got, "##[") || strings.Contains(got, "\u200b") {
			t.Errorf("VisibleLogText(%q) = %q", in, got)
		}
	}
}
