package jsonpos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzScan: on any valid JSON, Scan finds what DuplicateKey finds, and
// otherwise the members Members lists, with the element count of each
// array member that Values gives; ValuesN indexes such an array as Values
// does, and refuses any other count.
func FuzzScan(f *testing.F) {
	for _, s := range []string{doc, `{}`, `[]`, `{"a": []}`, `{"a": [1, [2, 3], {"b": [4]}], "c": {"d": [5, 6]}, "e": "f", "g": [ ]}`,
		`{"a":1,"a":2}`, `{"a": {"b": 1, "b": 2}}`, `{"commands": [{"cmd": "x"}, {"cmd": "y"}] , "n" : 1.5e3 }`, ` {"k\u0061": [true,false,null]} `, `"s"`, `3`} {
		f.Add([]byte(s))
	}
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		object, key, off, dup, out := Scan(data)
		if !json.Valid(data) {
			return
		}
		o2, k2, off2, dup2 := DuplicateKey(data)
		if object != o2 || key != k2 || off != off2 || dup != dup2 {
			t.Fatalf("Scan found %q %q %d %v, DuplicateKey %q %q %d %v", object, key, off, dup, o2, k2, off2, dup2)
		}
		if dup {
			return
		}
		members, ok := Members(data)
		if !ok {
			members = nil
		}
		if len(members) != len(out.Members) || (len(members) > 0 && !reflect.DeepEqual(members, out.Members)) {
			t.Fatalf("Scan's members %+v, Members %+v", out.Members, members)
		}
		for i, m := range members {
			raw := data[m.Start:m.End]
			vals, isArray := Values(raw, nil)
			want := -1
			if isArray {
				want = len(vals)
			}
			if out.Lengths[i] != want {
				t.Fatalf("member %q: length %d, Values gives %d", m.Key, out.Lengths[i], want)
			}
			if !isArray {
				continue
			}
			got, ok := ValuesN(raw, want, nil)
			if !ok || len(got) != len(vals) || (len(vals) > 0 && !reflect.DeepEqual(got, vals)) {
				t.Fatalf("member %q: ValuesN %q, Values %q", m.Key, got, vals)
			}
			for _, wrong := range []int{want - 1, want + 1} {
				if _, ok := ValuesN(raw, wrong, nil); ok {
					t.Fatalf("member %q: ValuesN took %d elements for %d", m.Key, wrong, want)
				}
			}
		}
	})
}

// addFixtureSeeds seeds f with every tenth fixture of the project's corpus.
func addFixtureSeeds(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "*", "*.json"))
	if err != nil {
		return
	}
	for i, p := range files {
		if data, err := os.ReadFile(p); err == nil && i%10 == 0 {
			f.Add(data)
		}
	}
}
