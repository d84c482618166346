package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadOutputs reads a GITHUB_OUTPUT file as the runner writes it:
// name<<DELIM, the value's lines, DELIM.
func TestReadOutputs(t *testing.T) {
	p := filepath.Join(t.TempDir(), "set_output")
	if got := ReadOutputs(t, p); len(got) != 0 {
		t.Errorf("a missing file: %v", got)
	}
	os.WriteFile(p, []byte("a<<EOF_1\none\ntwo\nEOF_1\nb<<X\nX\n"), 0o644)
	got := ReadOutputs(t, p)
	if len(got) != 2 || got["a"] != "one\ntwo" || got["b"] != "" {
		t.Errorf("outputs %q", got)
	}
	if s := FormatOutputs(got); s != "a=one\ntwo\nb=\n" {
		t.Errorf("formatted %q", s)
	}
}

// TestFormatRequests shows a JSON body one member a line and a text of
// several lines as its lines.
func TestFormatRequests(t *testing.T) {
	got := FormatRequests([]Request{
		{Method: "GET", Path: "/a", RawQuery: "x=1"},
		{Method: "POST", Path: "/b", Body: []byte(`{"z": 1, "a": ["s", "l1\nl2"]}`)},
		{Method: "PUT", Path: "/c", Body: []byte("not json")},
	})
	want := "GET /a?x=1\nPOST /b\n  a[0] = \"s\"\n  a[1] =\n    | l1\n    | l2\n  z = 1\nPUT /c\nnot json\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if FormatRequests(nil) != "(none)\n" {
		t.Errorf("no requests: %q", FormatRequests(nil))
	}
}

// TestScrubber replaces the given words and stop-commands tokens, and
// marks an empty text.
func TestScrubber(t *testing.T) {
	clean := Scrubber("/tmp/ws", "$WORKSPACE")
	got := string(clean("/tmp/ws/a\n::stop-commands::0123456789abcdef0123456789abcdef\n::0123456789abcdef0123456789abcdef::\n"))
	if got != "$WORKSPACE/a\n::stop-commands::TOKEN\n::TOKEN::\n" {
		t.Errorf("scrubbed %q", got)
	}
	if string(clean("")) != "(none)\n" {
		t.Errorf("empty: %q", clean(""))
	}
}
