package jsonpos

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const doc = `{
  "name": "x",
  "commands": [
    {"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}},
    {
      "cmd": "CreateBuffer",
      "id": 1,
      "usage": ["VERTEX", "COPY_DST"]
    }
  ],
  "a/b": {"~k": [1, [2, 3]]},
  "expected": {"outcome": "success"}
}`

func TestFind(t *testing.T) {
	cases := []struct {
		pointer string
		want    string
		span    Range
	}{
		{"/name", `"x"`, Range{Line: 2, Column: 11, EndLine: 2, EndColumn: 13}},
		{"/commands/0", `{"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}}`, Range{Line: 4, Column: 5, EndLine: 4, EndColumn: 65}},
		{"/commands/1", "{\n      \"cmd\": \"CreateBuffer\",\n      \"id\": 1,\n      \"usage\": [\"VERTEX\", \"COPY_DST\"]\n    }", Range{Line: 5, Column: 5, EndLine: 9, EndColumn: 5}},
		{"/commands/1/usage/1", `"COPY_DST"`, Range{Line: 8, Column: 27, EndLine: 8, EndColumn: 36}},
		{"/commands/0/version/minor", `0`, Range{Line: 4, Column: 63, EndLine: 4, EndColumn: 63}},
		{"/a~1b/~0k/1/0", `2`, Range{Line: 11, Column: 22, EndLine: 11, EndColumn: 22}},
		{"/expected", `{"outcome": "success"}`, Range{Line: 12, Column: 15, EndLine: 12, EndColumn: 36}},
	}
	for _, c := range cases {
		start, end, ok := Find([]byte(doc), c.pointer)
		if !ok {
			t.Errorf("Find(%q): not found", c.pointer)
			continue
		}
		if got := doc[start:end]; got != c.want {
			t.Errorf("Find(%q) = %q, want %q", c.pointer, got, c.want)
		}
		if got := Span([]byte(doc), start, end); got != c.span {
			t.Errorf("Span(%q) = %+v, want %+v", c.pointer, got, c.span)
		}
	}
	for _, missing := range []string{"/nope", "/commands/2", "/commands/x", "/name/0", "relative", "/commands/-1"} {
		if _, _, ok := Find([]byte(doc), missing); ok {
			t.Errorf("Find(%q) found something", missing)
		}
	}
}

func TestLineColumnCountsCharacters(t *testing.T) {
	data := []byte("{\"é\": \"ü\", \"k\": 1}")
	off := strings.Index(string(data), `"k"`)
	if l, c := LineColumn(data, off); l != 1 || c != 12 {
		t.Errorf("LineColumn = %d:%d, want 1:12", l, c)
	}
	if l, c := LineColumn(data, 1<<20); l != 1 || c != 19 {
		t.Errorf("past the end = %d:%d", l, c)
	}
}

func TestDuplicateKey(t *testing.T) {
	cases := []struct {
		doc, object, key string
		found            bool
	}{
		{`{"a": 1, "b": 2}`, "", "", false},
		{`{"a": 1, "a": 2}`, "", "a", true},
		{`{"c": [{"x": {}, "y": [], "x": 3}]}`, "/c/0", "x", true},
		{`{"c": [{"x": 1}, {"x": 2}], "d": {"x": 1}}`, "", "", false},
		{`{"a/b": {"\u0041": 1, "A": 2}}`, "/a~1b", "A", true},
		{`[1, 2, {"k": {"k": {"k": 1}}}]`, "", "", false},
		{`"just a string"`, "", "", false},
		// Frames are reused by siblings: keys of one object never leak
		// into the next, and indexes past 9 are spelled in full.
		{`[{"a":1,"b":2},{"a":1,"c":3},{"b":1,"b":2}]`, "/2", "b", true},
		{`{"x":[{"k":1}],"y":{"k":1,"k":2}}`, "/y", "k", true},
		{`[0,1,2,3,4,5,6,7,8,9,10,{"q":[1,{"r":1,"r":2}]}]`, "/11/q/1", "r", true},
	}
	for _, c := range cases {
		obj, key, off, found := DuplicateKey([]byte(c.doc))
		if found != c.found || obj != c.object || key != c.key {
			t.Errorf("DuplicateKey(%s) = %q %q %v, want %q %q %v", c.doc, obj, key, found, c.object, c.key, c.found)
		}
		if found && c.doc[off] != '"' {
			t.Errorf("offset %d does not point at a key in %s", off, c.doc)
		}
	}
}

func TestDuplicateKeyInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, "%q: %d, ", fmt.Sprint("k", i), i)
	}
	b.WriteString(`"k99999": 0}`)
	if _, key, _, found := DuplicateKey([]byte(b.String())); !found || key != "k99999" {
		t.Errorf("DuplicateKey = %q %v", key, found)
	}
}

func TestDeepNestingDoesNotRecurse(t *testing.T) {
	depth := 100000
	data := []byte(`{"k": ` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `, "k": 1}`)
	if _, key, _, found := DuplicateKey(data); !found || key != "k" {
		t.Errorf("DuplicateKey on deep document: %q %v", key, found)
	}
	if start, end, ok := Find(data, "/k"); !ok || end-start != 2*depth {
		t.Errorf("Find on deep document: %d %d %v", start, end, ok)
	}
}

// FuzzFind checks that the resolver never panics and that whatever it finds
// for a valid document is itself valid JSON equal to the decoded value.
func FuzzFind(f *testing.F) {
	f.Add([]byte(doc), "/commands/1/usage/0")
	f.Add([]byte(`{"a": [1, {"b": "c\"d"}]}`), "/a/1/b")
	f.Add([]byte(`[[[[]]]]`), "/0/0")
	f.Add([]byte(`{"a":1,"a":2}`), "/a")
	f.Fuzz(func(t *testing.T, data []byte, pointer string) {
		start, end, ok := Find(data, pointer)
		DuplicateKey(data)
		if vals, ok := Values(data, nil); ok && json.Valid(data) {
			for _, v := range vals {
				if !json.Valid(v) {
					t.Fatalf("Values gave %q, not a JSON value", v)
				}
			}
		}
		if !ok {
			return
		}
		if start < 0 || end > len(data) || start > end {
			t.Fatalf("range %d:%d outside %d bytes", start, end, len(data))
		}
		Span(data, start, end)
		if !json.Valid(data) {
			return
		}
		if !json.Valid(data[start:end]) {
			t.Fatalf("Find(%q) = %q, not a JSON value", pointer, data[start:end])
		}
	})
}

func TestMembers(t *testing.T) {
	m, ok := Members([]byte(doc))
	if !ok || len(m) != 4 {
		t.Fatalf("Members = %v, %v", m, ok)
	}
	want := []string{"name", "commands", "a/b", "expected"}
	for i, mem := range m {
		if mem.Key != want[i] {
			t.Errorf("member %d = %q, want %q", i, mem.Key, want[i])
		}
	}
	if got := doc[m[3].Start:m[3].End]; got != `{"outcome": "success"}` {
		t.Errorf("expected value = %q", got)
	}
	for _, bad := range []string{`[]`, `"x"`, `{"a" 1}`, `{"a": 1,}`, ``} {
		if _, ok := Members([]byte(bad)); ok {
			t.Errorf("Members(%q) succeeded", bad)
		}
	}
	if m, ok := Members([]byte(` { } `)); !ok || len(m) != 0 {
		t.Errorf("empty object: %v %v", m, ok)
	}
}

func TestValues(t *testing.T) {
	data := []byte(` [ {"a": [1, "]"]}, "x\"y" ,3,[] ] `)
	got, ok := Values(data, nil)
	if !ok || len(got) != 4 || string(got[0]) != `{"a": [1, "]"]}` || string(got[1]) != `"x\"y"` || string(got[2]) != "3" || string(got[3]) != "[]" {
		t.Fatalf("Values = %q, %v", got, ok)
	}
	var asked int
	got, _ = Values(data, func(n int) []json.RawMessage { asked = n; return make([]json.RawMessage, 0, n) })
	if asked != 4 || len(got) != 4 || cap(got) != 4 {
		t.Errorf("alloc asked for %d, got len %d cap %d", asked, len(got), cap(got))
	}
	for _, bad := range []string{`{}`, `[1,]`, `[1 2]`, `[`} {
		if _, ok := Values([]byte(bad), nil); ok {
			t.Errorf("Values(%s) succeeded", bad)
		}
	}
	if got, ok := Values([]byte(`[]`), nil); !ok || len(got) != 0 {
		t.Errorf("empty array: %q %v", got, ok)
	}
}

// FuzzAppendValues: AppendValues finds what Values finds, after what dst
// held.
func FuzzAppendValues(f *testing.F) {
	for _, c := range []string{`[]`, ` [ ] `, `[1]`, `[1,2]`, `[1,]`, `[,1]`, `[1 2]`, `["a",{"b":[3]},null]`, `[`, `{}`, `[[],[[]]]`, `[1]x`} {
		f.Add([]byte(c))
	}
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantOK := Values(data, nil)
		held := json.RawMessage("held")
		got, ok := AppendValues([]json.RawMessage{held}, data)
		if ok != wantOK {
			t.Fatalf("AppendValues(%q) reports %v, Values %v", data, ok, wantOK)
		}
		if len(got) == 0 || string(got[0]) != "held" {
			t.Fatalf("AppendValues(%q) lost what dst held: %q", data, got)
		}
		if !ok {
			return
		}
		if len(got)-1 != len(want) {
			t.Fatalf("AppendValues(%q) = %q, Values %q", data, got[1:], want)
		}
		for i := range want {
			if string(got[i+1]) != string(want[i]) {
				t.Fatalf("AppendValues(%q) = %q, Values %q", data, got[1:], want)
			}
		}
	})
}

// MemberValue finds what Find finds for a top-level key.
func TestMemberValueAgreesWithFind(t *testing.T) {
	for _, doc := range []string{
		`{"cmd": "Draw", "id": 1}`,
		`{"id": {"cmd": "inner"}, "cmd" : ["x", {"y": 1}]}`,
		`{"c\u006dd": "escaped key"}`,
		`{"id": 1}`,
		`{}`,
		`[{"cmd": "x"}]`,
		`{"cmd" "x"}`,
		`{"id": 1 "cmd": 2}`,
		`  {"cmd": null}  `,
	} {
		s1, e1, ok1 := MemberValue([]byte(doc), "cmd")
		s2, e2, ok2 := Find([]byte(doc), "/cmd")
		if ok1 != ok2 || ok1 && (s1 != s2 || e1 != e2) {
			t.Errorf("%s: MemberValue %d, %d, %v; Find %d, %d, %v", doc, s1, e1, ok1, s2, e2, ok2)
		}
	}
}
