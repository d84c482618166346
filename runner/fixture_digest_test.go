package runner

import (
	"encoding/json"
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
