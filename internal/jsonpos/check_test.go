package jsonpos

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/drp2/drp2-fixtures/internal/jsoncompact"
)

// checkAgrees fails t when Check(data) is not Valid(data) and, on valid
// data, Scan(data), with the elements of the member index as ValuesN
// gives them.
func checkAgrees(t *testing.T, data []byte, index string) {
	t.Helper()
	c := Check(data, index, nil)
	if want := Valid(data); c.Valid != want {
		t.Fatalf("Check(%.200q) valid = %v, Valid says %v", data, c.Valid, want)
	}
	if !c.Valid {
		return
	}
	o2, k2, off2, found2, out2 := Scan(data)
	if c.Object != o2 || c.Key != k2 || c.Offset != off2 || c.Found != found2 {
		t.Fatalf("Check(%.200q) found %q %q %d %v, Scan %q %q %d %v", data, c.Object, c.Key, c.Offset, c.Found, o2, k2, off2, found2)
	}
	out := c.Outline
	if len(out.Members) != len(out2.Members) || (len(out.Members) > 0 && (!reflect.DeepEqual(out.Members, out2.Members) || !reflect.DeepEqual(out.Lengths, out2.Lengths))) {
		t.Fatalf("Check(%.200q) outline %+v, Scan's %+v", data, out, out2)
	}
	if c.Found {
		return
	}
	var want []uint32
	for i, m := range out2.Members {
		if m.Key != index || out2.Lengths[i] < 0 {
			continue
		}
		values, ok := ValuesN(data[m.Start:m.End], out2.Lengths[i], nil)
		if !ok {
			t.Fatalf("ValuesN of %q in %.200q failed", m.Key, data)
		}
		for _, v := range values {
			start := m.Start + bytesIndex(data[m.Start:m.End], v)
			want = append(want, uint32(start), uint32(start+len(v)))
		}
		parts := make([][]byte, len(values))
		for k, v := range values {
			parts[k] = v
		}
		joined := "[" + string(bytes.Join(parts, []byte(","))) + "]"
		if compact := compactOf(data[m.Start:m.End]); c.Tight != (compact == joined) {
			t.Fatalf("Check(%.200q, %q) tight = %v, but the array compacted is %.200q and its elements joined %.200q", data, index, c.Tight, compact, joined)
		}
	}
	if len(want) != len(c.Elements) || (len(want) > 0 && !reflect.DeepEqual(want, c.Elements)) {
		t.Fatalf("Check(%.200q, %q) elements %v, ValuesN's %v", data, index, c.Elements, want)
	}
}

// compactOf is data without white space between tokens, from Compact.
func compactOf(data []byte) string {
	var b []byte
	for run := range jsoncompact.Compact(data) {
		b = append(b, run...)
	}
	return string(b)
}

// bytesIndex is the offset of sub, a slice of b, in b.
func bytesIndex(b, sub []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

var checkCases = append([]string{
	`{"a": 1, "a": 2}`, `{"a": {"b": 1, "c": {"d": [1, {"e": 1, "e": 2}]}}, "a": 3}`,
	`{"commands": [ {"cmd": "x"} , [], {}, 1, "s", [1, [2]] ,{"commands": [3]}], "b": {"commands": [4]}}`, `{"commands": []}`, `{"commands": {}}`,
	`{"x": [1], "commands": 5, "y": [2]}`, `[{"commands": [1]}]`, `{"commands": [1], "commands": [2, 3]}`, `[{"x": 1}, {"x": 1, "y": 2, "x": 3}]`,
	`{"k\u0061": 1, "ka": 2}`, `{"a": [], "b": [1, [2, 3]], "c": {}, "d": "x", "e": [{}], "f": null}`,
	`{"a": 1, "a": 2, "b": [}`, `{"a": 1, "a": 2} x`, `{"commands": [{"cmd": "x"}, {"cmd": "y"}] , "n" : 1.5e3 }`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"a":19}`,
	"{\"\\ud800\": 1, \"\\ud801\": 2}", `{"\u00e9": 1, "é": 2}`, `{"":1,"":2}`,
}, validCases...)

func TestCheckIsValidAndScan(t *testing.T) {
	for _, c := range checkCases {
		for _, index := range []string{"commands", "a", ""} {
			checkAgrees(t, []byte(c), index)
		}
	}
	for _, open := range []string{"[", `{"a":`} {
		for _, depth := range []int{maxNesting - 1, maxNesting, maxNesting + 1} {
			closing := "]"
			if open != "[" {
				closing = "}"
			}
			checkAgrees(t, []byte(strings.Repeat(open, depth)+"1"+strings.Repeat(closing, depth)), "a")
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "*", "*.json"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkAgrees(t, data, "commands")
	}
}

// FuzzCheck: Check is Valid and Scan on any input.
func FuzzCheck(f *testing.F) {
	for _, c := range checkCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgrees(t, data, "commands")
		checkAgrees(t, data, "a")
	})
}

func BenchmarkCheck(b *testing.B) {
	data := benchStream(20000)
	b.Run("Check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			Check(data, "commands", nil)
		}
	})
	b.Run("ValidThenScan", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			Valid(data)
			Scan(data)
		}
	})
}
