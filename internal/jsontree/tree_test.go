package jsontree

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := DecodeTree([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDecodeKeepsNumbersAsWritten(t *testing.T) {
	v := decode(t, `{"size": 1e3, "id": 9007199254740993}`).(map[string]any)
	if v["size"] != json.Number("1e3") || v["id"] != json.Number("9007199254740993") {
		t.Fatalf("numbers: %#v", v)
	}
	if _, err := DecodeTree([]byte(`{"a":`)); err == nil {
		t.Fatal("a truncated value decodes")
	}
}

func TestSlotsAreInOrderAndEditTheTree(t *testing.T) {
	v := decode(t, `{"usage": ["COPY_DST", "VERTEX"], "cmd": "CreateBuffer", "id": 1}`)
	all := Slots(v)
	var keys []string
	for _, s := range all {
		keys = append(keys, s.Key)
	}
	// Members in name order, depth first; list entries under the list's name.
	if got := strings.Join(keys, " "); got != "cmd id usage usage usage" {
		t.Fatalf("keys: %s", got)
	}
	if all[3].Drop != nil || all[1].Drop == nil {
		t.Fatal("a list entry can be dropped, or a member cannot")
	}
	all[1].Set(json.Number("2"))
	all[4].Set("INDEX")
	all[0].Drop()
	want := decode(t, `{"usage": ["COPY_DST", "INDEX"], "id": 2}`)
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("edited: %#v", v)
	}
}

func TestCloneIsDeep(t *testing.T) {
	v := decode(t, `{"a": [{"b": 1}]}`)
	c := Clone(v)
	Slots(c)[2].Set(json.Number("2"))
	if !reflect.DeepEqual(v, decode(t, `{"a": [{"b": 1}]}`)) {
		t.Fatalf("the original changed: %#v", v)
	}
}

func TestEditList(t *testing.T) {
	l := []any{"a", map[string]any{"b": "c"}, "d"}
	if got := EditList(l, 1, DropEntry); !reflect.DeepEqual(got, []any{"a", "d"}) {
		t.Errorf("drop: %#v", got)
	}
	got := EditList(l, 1, RepeatEntry)
	if !reflect.DeepEqual(got, []any{"a", map[string]any{"b": "c"}, "d", map[string]any{"b": "c"}}) {
		t.Errorf("repeat: %#v", got)
	}
	got[3].(map[string]any)["b"] = "x"
	if got := EditList(l, 0, EmptyList); len(got) != 0 {
		t.Errorf("empty: %#v", got)
	}
	if !reflect.DeepEqual(l, []any{"a", map[string]any{"b": "c"}, "d"}) {
		t.Errorf("the list or its entry changed: %#v", l)
	}
}

func TestStrings(t *testing.T) {
	s := Strings{}
	s.Add(decode(t, `{"cmd": "Draw", "format": "rgba8", "code": "DRP2_ERR_X", "usage": ["VERTEX", "COPY_DST"]}`))
	s.Add(decode(t, `{"cmd": "Draw", "format": "bgra8", "data": "AAAA", "label": "x", "long": "`+strings.Repeat("x", 33)+`"}`))
	s.Sort()
	want := Strings{"cmd": {"Draw"}, "format": {"bgra8", "rgba8"}, "usage": {"COPY_DST", "VERTEX"}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("strings: %v", s)
	}
}
