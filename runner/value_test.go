package runner

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func stdDecode(raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v)
	return v
}

func TestDecodeValueMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"cmd": "CreateBuffer", "id": 18446744073709551616, "size": 1e400, "usage": ["COPY_DST"]}`,
		`  [1, -2.5e-3, true, false, null, "a\"b\\u00e9\n", {}, [], {"": [[]]}]  `,
		`"\ud83d\ude00 and \/"`, `0`, `-0.0E+1`, `{"a":{"b":{"c":[1,{"d":null}]}}}`,
	} {
		if got, want := decodeValue([]byte(s)), stdDecode([]byte(s)); !reflect.DeepEqual(got, want) {
			t.Errorf("decodeValue(%s) = %#v, want %#v", s, got, want)
		}
	}
}

func FuzzDecodeValue(f *testing.F) {
	f.Add([]byte(`{"cmd": "Draw", "n": [1, 2.5, "x\\y"], "ok": true, "z": null}`))
	f.Add([]byte(`"\u00e9"`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		if got, want := decodeValue(raw), stdDecode(raw); !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeValue(%q) = %#v, want %#v", raw, got, want)
		}
	})
}
