package drp2

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestDecodeFastSkipsUnknownKeys holds decodeFast to reading commands with
// members the validator has no field for (a handshake's client_name, a
// shader's code) directly, and to handing json.Unmarshal every key it could
// match to a field without regard to case. FuzzWireDecode checks that both
// paths give what json.Unmarshal gives.
func TestDecodeFastSkipsUnknownKeys(t *testing.T) {
	for _, c := range []struct {
		raw  string
		fast bool
	}{
		{`{"cmd":"HelloRenderer","version":null,"client_name":"c"}`, true},
		{`{"cmd":"CreateShaderModule","id":1,"code":"@vertex fn main() {}","label":{"a":[1,"x"]}}`, true},
		{`{"cmd":"CreateBuffer","id":1,"an_unknown_member_whose_name_is_longer_than_any_field_of_wire_is":0}`, true},
		{`{"cmd":"CreateBuffer","ID":1}`, false},                  // matches id without regard to case
		{`{"cmd":"CreateBuffer","ſize":16}`, false},               // encoding/json folds ſ into s
		{`{"cmd":"CreateBuffer","id":1,"x":[1,}`, false},          // not JSON
		{`{"cmd":"CreateBuffer","id":1,"l\u0061bel":"x"}`, false}, // an escaped key
		{`{"cmd":"CreateBindGroup","id":5,"entries":[{"binding":0,"resource_id":3,"label":"x"}]}`, true},
		{`{"cmd":"QueueSubmit","command_buffer_ids":[7],"submission_id":1,"readbacks":[{"buffer_id":2,"offset":0,"size":16}]}`, true},
		{`{"cmd":"BeginRenderPass","id":1,"color_attachments":[{"texture_id":3,"load_op":"clear"}],"depth_stencil_attachment":null}`, true},
		{`{"cmd":"SetBindGroup","dynamic_offsets":[0,256],"version":{"major":2,"minor":0}}`, true},
		{`{"cmd":"CreateBindGroup","entries":[{"Binding":0}]}`, false},                // a nested key matching without regard to case
		{`{"cmd":"SetBindGroup","dynamic_offsets":[1],"dynamic_offsets":[2]}`, false}, // a repeated list
	} {
		var w wire
		if got := w.decodeFast([]byte(c.raw), nil); got != c.fast {
			t.Errorf("decodeFast(%s) = %v, want %v", c.raw, got, c.fast)
		}
	}
}

// TestFieldTableIsAMap holds the field table to the fields it is built
// from: every name finds its field, and no other key finds one.
func TestFieldTableIsAMap(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[wire](), reflect.TypeFor[entryWire](), reflect.TypeFor[readbackWire](), reflect.TypeFor[originWire]()} {
		fields := fieldsOf(typ)
		table := tableOf(fields)
		for name, f := range fields {
			if got, ok := table.lookup([]byte(name)); !ok || got.offset != f.offset {
				t.Fatalf("%s: %q not found", typ, name)
			}
			for _, other := range []string{name + "x", "x" + name, name[1:], strings.ToUpper(name), ""} {
				if _, known := fields[other]; !known {
					if _, ok := table.lookup([]byte(other)); ok {
						t.Fatalf("%s: %q found", typ, other)
					}
				}
			}
		}
	}
}

// TestSmallNumbers: a number read from the table is the text read.
func TestSmallNumbers(t *testing.T) {
	for _, v := range []string{"0", "7", "10", "99", "100", "999", "1000", "01", "00", "-1", "1e2", "1.5", "12x"} {
		var n json.Number
		if !numberField([]byte(v), &n, newInterner()) || string(n) != v {
			t.Fatalf("numberField(%q) = %q", v, n)
		}
	}
}

// TestInternerSharesRepeatedStrings: a text read again is the string made
// the first time, up to internedMax texts, after which the interner starts
// over; a long text, or a nil interner, makes a string each time.
func TestInternerSharesRepeatedStrings(t *testing.T) {
	in := newInterner()
	first := in.of([]byte("CreateBuffer"))
	if again := in.of([]byte("CreateBuffer")); again != first || unsafe.StringData(again) != unsafe.StringData(first) {
		t.Fatalf("a repeated text made a new string")
	}
	if allocs := testing.AllocsPerRun(100, func() { in.of([]byte("CreateBuffer")) }); allocs != 0 {
		t.Errorf("a repeated text costs %v allocations", allocs)
	}
	long := []byte(strings.Repeat("x", internedMaxLen+1))
	if a, b := in.of(long), in.of(long); a != b || unsafe.StringData(a) == unsafe.StringData(b) {
		t.Errorf("a text past internedMaxLen was interned")
	}
	for i := range internedMax - 1 {
		in.of([]byte(strconv.Itoa(i)))
	}
	if len(in.m) != internedMax || in.of([]byte("CreateBuffer")) != first {
		t.Fatalf("%d texts kept, want %d", len(in.m), internedMax)
	}
	in.of([]byte("one more"))
	if again := in.of([]byte("CreateBuffer")); again != first || unsafe.StringData(again) == unsafe.StringData(first) || len(in.m) != 2 {
		t.Errorf("past internedMax, the interner kept %d texts and gave %q", len(in.m), again)
	}
	var none *interner
	if s := none.of([]byte("x")); s != "x" {
		t.Errorf("a nil interner gave %q", s)
	}
}

// FuzzValidValue: validValue is json.Valid.
func FuzzValidValue(f *testing.F) {
	for _, v := range []string{"0", "7", "999", "1000", "01", "-1", "1e2", "1.5", "", " 1", "1 ", "x", `"s"`, "[1]", "{}", "00", "9999999999999999999999"} {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if got, want := validValue(v), json.Valid(v); got != want {
			t.Fatalf("validValue(%q) = %v, json.Valid %v", v, got, want)
		}
	})
}
