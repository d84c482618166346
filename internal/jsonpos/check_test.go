package jsonpos

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkAgrees fails t when Check(data) is not Valid(data) and, on valid
// data, Scan(data).
func checkAgrees(t *testing.T, data []byte) {
	t.Helper()
	valid, object, key, offset, found, out := Check(data)
	if want := Valid(data); valid != want {
		t.Fatalf("Check(%.200q) valid = %v, Valid says %v", data, valid, want)
	}
	if !valid {
		return
	}
	o2, k2, off2, found2, out2 := Scan(data)
	if object != o2 || key != k2 || offset != off2 || found != found2 {
		t.Fatalf("Check(%.200q) found %q %q %d %v, Scan %q %q %d %v", data, object, key, offset, found, o2, k2, off2, found2)
	}
	if len(out.Members) != len(out2.Members) || (len(out.Members) > 0 && (!reflect.DeepEqual(out.Members, out2.Members) || !reflect.DeepEqual(out.Lengths, out2.Lengths))) {
		t.Fatalf("Check(%.200q) outline %+v, Scan's %+v", data, out, out2)
	}
}

var checkCases = append([]string{
	`{"a": 1, "a": 2}`, `{"a": {"b": 1, "c": {"d": [1, {"e": 1, "e": 2}]}}, "a": 3}`, `[{"x": 1}, {"x": 1, "y": 2, "x": 3}]`,
	`{"k\u0061": 1, "ka": 2}`, `{"a": [], "b": [1, [2, 3]], "c": {}, "d": "x", "e": [{}], "f": null}`,
	`{"a": 1, "a": 2, "b": [}`, `{"a": 1, "a": 2} x`, `{"commands": [{"cmd": "x"}, {"cmd": "y"}] , "n" : 1.5e3 }`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"a":19}`,
	"{\"\\ud800\": 1, \"\\ud801\": 2}", `{"\u00e9": 1, "é": 2}`, `{"":1,"":2}`,
}, validCases...)

func TestCheckIsValidAndScan(t *testing.T) {
	for _, c := range checkCases {
		checkAgrees(t, []byte(c))
	}
	for _, open := range []string{"[", `{"a":`} {
		for _, depth := range []int{maxNesting - 1, maxNesting, maxNesting + 1} {
			closing := "]"
			if open != "[" {
				closing = "}"
			}
			checkAgrees(t, []byte(strings.Repeat(open, depth)+"1"+strings.Repeat(closing, depth)))
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "*", "*.json"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkAgrees(t, data)
	}
}

// FuzzCheck: Check is Valid and Scan on any input.
func FuzzCheck(f *testing.F) {
	for _, c := range checkCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkAgrees(t, data) })
}

func BenchmarkCheck(b *testing.B) {
	data := benchStream(20000)
	b.Run("Check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			Check(data)
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
