package testkit

import (
	"strings"
	"testing"
)

func TestParseArchive(t *testing.T) {
	a := ParseArchive([]byte("about\n-- a.json --\n{}\n-- not a marker\n--  --\n-- b/c.json --\nx"))
	if string(a.Comment) != "about\n" || len(a.Files) != 2 {
		t.Fatalf("parsed %+v", a)
	}
	if a.Files[0].Name != "a.json" || string(a.Files[0].Data) != "{}\n-- not a marker\n--  --\n" {
		t.Errorf("first file %q: %q", a.Files[0].Name, a.Files[0].Data)
	}
	if a.Files[1].Name != "b/c.json" || string(a.Files[1].Data) != "x" {
		t.Errorf("second file %q: %q", a.Files[1].Name, a.Files[1].Data)
	}
	if got := string(ParseArchive(a.Format()).Format()); got != string(a.Format()) {
		t.Errorf("format does not round-trip: %q", got)
	}
	a.Set("a.json", []byte("[]\n"))
	a.Set("d.json", []byte("1"))
	if d, ok := a.File("a.json"); !ok || string(d) != "[]\n" || len(a.Files) != 3 {
		t.Errorf("Set: %+v", a.Files)
	}
}

func TestFixtureIsOneJSONObject(t *testing.T) {
	f := FixtureWith("n", Success, `"capabilities": {}`, Hello, Reply)
	for _, want := range []string{`"name": "n"`, `"capabilities": {}`, Hello + ",\n    " + Reply, `"expected": {"outcome": "success"}`} {
		if !strings.Contains(f, want) {
			t.Errorf("fixture lacks %s:\n%s", want, f)
		}
	}
}
