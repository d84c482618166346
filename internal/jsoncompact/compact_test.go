package jsoncompact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCompact(t *testing.T) {
	data := []byte(" [ {\"a\\\" 1\": \"x  -2\\\\\"},\n\t1 , true,-2.5e3,[0]]\n")
	var pieces []string
	for piece, number := range Compact(data) {
		if number {
			piece = append([]byte("#"), piece...)
		}
		pieces = append(pieces, string(piece))
	}
	want := []string{"[", `{"a\" 1":`, `"x  -2\\"},`, "#1", ",", "true,", "#-2.5e3", ",[", "#0", "]]"}
	if strings.Join(pieces, "|") != strings.Join(want, "|") {
		t.Errorf("pieces %q, want %q", pieces, want)
	}
	for piece := range Compact(data) {
		if string(piece) != "[" {
			t.Errorf("first piece %q", piece)
		}
		break // stopping early is allowed
	}
}

// The pieces of valid JSON, joined, are encoding/json's compacted text,
// and the ones reported as numbers are exactly its number tokens.
func FuzzCompact(f *testing.F) {
	f.Add([]byte(`[{"cmd": "Draw", "name": "a b\"  c"}, 1, -0.5E+3, true, false, null]`))
	f.Add([]byte("{\"a\\\\\": [ \"\\\\\" , \"\\\" 5\" ] }"))
	f.Add([]byte(" \"" + strings.Repeat("x ", 400) + "\"\n"))
	f.Add([]byte(`{"a":[1,2,{"b":-3}],"c":4e1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var compacted bytes.Buffer
		if json.Compact(&compacted, data) != nil {
			return
		}
		var joined []byte
		var numbers []string
		for piece, number := range Compact(data) {
			if len(piece) == 0 {
				t.Fatalf("%q: an empty piece", data)
			}
			joined = append(joined, piece...)
			if number {
				numbers = append(numbers, string(piece))
			}
		}
		if !bytes.Equal(joined, compacted.Bytes()) {
			t.Errorf("%q: pieces %q, compacted %q", data, joined, compacted.Bytes())
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want []string
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if n, ok := tok.(json.Number); ok {
				want = append(want, string(n))
			}
		}
		if strings.Join(numbers, " ") != strings.Join(want, " ") {
			t.Errorf("%q: numbers %q, want %q", data, numbers, want)
		}
	})
}
