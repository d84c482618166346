package runner

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCompactSumIgnoresWhiteSpaceOnly(t *testing.T) {
	a := []byte(`[{"cmd": "Draw", "name": "a b\"  c"}, 1]`)
	b := []byte("[\n  {\"cmd\":\"Draw\",\n   \"name\":\"a b\\\"  c\"},\t1\n]")
	if compactSum(a) != compactSum(b) {
		t.Error("re-indented JSON sums differently")
	}
	c := []byte(`[{"cmd": "Draw", "name": "a b\"   c"}, 1]`)
	if compactSum(a) == compactSum(c) {
		t.Error("white space inside a string was ignored")
	}
	var compacted = []byte(`[{"cmd":"Draw","name":"a b\"  c"},1]`)
	if compactSum(a) != sum(compacted) {
		t.Error("compactSum is not the sum of the compacted text")
	}
	if !json.Valid(compacted) {
		t.Fatal("test input")
	}
}

// compactSum is the sum of encoding/json's compacted text, for any valid
// JSON, long strings and escapes included.
func FuzzCompactSum(f *testing.F) {
	f.Add([]byte(`[{"cmd": "Draw", "name": "a b\"  c"}, 1]`))
	f.Add([]byte("{\"a\\\\\": [ \"\\\\\" , \"\\\" \" ] }"))
	f.Add([]byte(`"` + strings.Repeat("x ", 40000) + `"`))
	f.Add([]byte(`[` + strings.Repeat(`{"k": "v\n"} , `, 5000) + `0]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var compacted bytes.Buffer
		if json.Compact(&compacted, data) != nil {
			return
		}
		if compactSum(data) != sum(compacted.Bytes()) {
			t.Errorf("compactSum(%q) differs from the sum of %q", data, compacted.Bytes())
		}
	})
}
