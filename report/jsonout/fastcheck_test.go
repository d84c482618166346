package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/drp2/drp2-fixtures/docs"
	"github.com/drp2/drp2-fixtures/internal/jsonpos"
)

// schemaAccepts is the judgement the fast check must agree with:
// jsonschema's, on one JSON value with no key twice.
func schemaAccepts(data []byte) bool {
	if !json.Valid(data) {
		return false
	}
	if _, _, _, dup := jsonpos.DuplicateKey(data); dup {
		return false
	}
	return checkSchema(data) == nil
}

// TestFastCheckCompiles: every keyword of the published schema is one the
// fast check knows; a keyword it does not would send every report to
// jsonschema, the cost this check exists to avoid.
func TestFastCheckCompiles(t *testing.T) {
	if _, err := reportCheck(); err != nil {
		t.Fatal(err)
	}
	if _, err := compileCheck([]byte(`{"type": "string", "format": "date"}`)); err == nil {
		t.Error("a schema with a keyword the check ignores compiled")
	}
	if _, err := compileCheck([]byte(`{"$ref": "#/$defs/a", "minimum": 1, "$defs": {"a": {}}}`)); err == nil {
		t.Error("a $ref with a constraint beside it compiled")
	}
}

// TestFastCheckAgreesWithSchema feeds the fast check and jsonschema the
// same reports: a document holding every member the schema describes,
// then that document with each value replaced in turn by values of every
// kind, each member removed and an unknown one added. The two must agree
// on every one, and between them the documents must break every
// constraint of the schema (its types, enums, patterns, bounds, lengths
// and required members) at least once.
func TestFastCheckAgreesWithSchema(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(docs.ReportSchema, &schema); err != nil {
		t.Fatal(err)
	}
	g := &generator{defs: schema["$defs"].(map[string]any)}
	doc := g.value(schema)
	if t.Failed() || len(g.missing) > 0 {
		t.Fatalf("no example for the patterns %q", g.missing)
	}
	full := marshal(t, doc)
	if !schemaAccepts(full) || !checkReport(full) {
		t.Fatalf("the full document: schema %v, fast check %v\n%s", schemaAccepts(full), checkReport(full), full)
	}
	broken := map[string]bool{}
	cases, accepted, decoded := 0, 0, 0
	var data []byte
	judge := func(where, change string) {
		cases++
		want, got := failedKeywords(data, broken), checkReport(data)
		if want != got {
			t.Errorf("%s %s: schema accepts %v, fast check %v", where, change, want, got)
		}
		if got {
			accepted++
		}
		if got && sameDecoding(t, data) {
			decoded++
		}
	}
	for _, r := range replacements {
		data = marshal(t, r)
		judge("the document", fmt.Sprintf("= %#v", r))
	}
	m := mutator{seen: map[string]bool{}}
	m.mutate(doc, "", func(where, change string) {
		data = marshal(t, doc)
		judge(where, change)
	})
	for _, k := range constraints(schema, "#") {
		if !broken[k] {
			t.Errorf("no case breaks %s", k)
		}
	}
	t.Logf("%d cases, %d constraints broken, %d accepted, %d of them decoded without encoding/json", cases, len(broken), accepted, decoded)
	if decoded < accepted*3/4 {
		t.Errorf("only %d of %d accepted cases decoded without encoding/json", decoded, accepted)
	}
}

// generator writes a value for a schema, with every member it names.
type generator struct {
	defs    map[string]any
	missing []string
}

// patternExamples are values that match the schema's patterns.
var patternExamples = map[string]string{
	`^1\.[0-9]+$`:    "1.3",
	`^[0-9a-f]{64}$`: strings.Repeat("0f", 32),
	`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`: "2026-01-02T03:04:05Z",
	`^[0-9a-fA-F]{4,64}$`:               "abcd0123",
	`^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$`: "owner/name",
	`^https://[A-Za-z0-9.:-]+/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/actions/runs/[0-9]{1,20}(/attempts/[0-9]{1,20})?$`: "https://github.com/owner/name/actions/runs/1/attempts/2",
}

func (g *generator) value(s map[string]any) any {
	if ref, ok := s["$ref"].(string); ok {
		return g.value(g.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any))
	}
	if enum, ok := s["enum"].([]any); ok {
		return enum[len(enum)-1]
	}
	switch kindOf(s) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			out[name] = g.value(p.(map[string]any))
		}
		if extra, ok := s["additionalProperties"].(map[string]any); ok {
			out["some/key.json"] = g.value(extra)
		}
		if len(out) == 0 {
			out["any"] = []any{1.5, map[string]any{"x": nil}}
		}
		return out
	case "array":
		items, _ := s["items"].(map[string]any)
		return []any{g.value(items)}
	case "string":
		if p, ok := s["pattern"].(string); ok {
			ex, known := patternExamples[p]
			if !known {
				g.missing = append(g.missing, p)
			}
			return ex
		}
		return "text"
	case "integer":
		return json.Number("7")
	case "number":
		return json.Number("12.5")
	case "boolean":
		return true
	}
	return nil
}

// kindOf is the kind to write for a schema: the first of its types, null
// last; an object for a schema without one, whose value may be anything.
func kindOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, k := range t {
			if k != "null" {
				return k.(string)
			}
		}
		return "null"
	}
	return "object"
}

// replacements are values of every kind, and those near the schema's
// bounds, patterns and enums.
var replacements = []any{
	nil, true, json.Number("0"), json.Number("-0"), json.Number("-1"), json.Number("1.5"), json.Number("1.0"),
	json.Number("1e2"), json.Number("8640000000.5"), json.Number("8640000001"),
	json.Number("123456789012345678901234"), json.Number("-123456789012345678901"),
	"", "x", "positive", "failure", "1.2", "2.0", strings.Repeat("a", 64), strings.Repeat("A", 64),
	"2026-01-02T03:04:05", "abc", "a b/c", "é",
	[]any{}, []any{"x"}, []any{json.Number("1")}, map[string]any{}, map[string]any{"k": json.Number("1")},
}

// mutator changes a document in place, once for each value it holds.
type mutator struct {
	// seen holds the objects and arrays already changed: the results of
	// an implementation are written as the top-level ones, and their
	// changes would be judged twice.
	seen map[string]bool
}

// mutate calls check with each change of v in place, and undoes it.
func (m mutator) mutate(v any, where string, check func(where, change string)) {
	if b, err := json.Marshal(v); err == nil && len(b) > 2 {
		if m.seen[string(b)] {
			return
		}
		m.seen[string(b)] = true
	}
	switch v := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		sort.Strings(names)
		v["zz_unknown"] = json.Number("1")
		check(where, "with an unknown member")
		delete(v, "zz_unknown")
		// encoding/json takes a member for a field of another case.
		for _, name := range names {
			v[strings.ToUpper(name)] = v[name]
		}
		check(where, "with every member again in upper case")
		for _, name := range names {
			if strings.ToUpper(name) != name {
				delete(v, strings.ToUpper(name))
			}
		}
		for _, name := range names {
			old := v[name]
			at := where + "/" + name
			delete(v, name)
			check(at, "removed")
			for _, r := range replacements {
				v[name] = r
				check(at, fmt.Sprintf("= %#v", r))
			}
			v[name] = old
			m.mutate(old, at, check)
		}
	case []any:
		for i, old := range v {
			at := fmt.Sprintf("%s/%d", where, i)
			for _, r := range replacements {
				v[i] = r
				check(at, fmt.Sprintf("= %#v", r))
			}
			v[i] = old
			m.mutate(old, at, check)
		}
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// failedKeywords is jsonschema's judgement of a document that has no key
// twice; it adds the schema places of every keyword the data breaks.
func failedKeywords(data []byte, into map[string]bool) bool {
	s, _ := reportSchema()
	var doc any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if d.Decode(&doc) != nil {
		return false
	}
	var ve *jsonschema.ValidationError
	if !errors.As(s.Validate(doc), &ve) {
		return true
	}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			_, at, _ := strings.Cut(e.AbsoluteKeywordLocation, "#")
			into["#"+at] = true
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	return false
}

// constraints are the places of every constraining keyword of a schema.
func constraints(s any, at string) []string {
	var out []string
	switch s := s.(type) {
	case map[string]any:
		for k, v := range s {
			switch k {
			case "type", "enum", "pattern", "minimum", "maximum", "minLength", "required":
				out = append(out, at+"/"+k)
			case "properties", "$defs":
				for name, p := range v.(map[string]any) {
					out = append(out, constraints(p, at+"/"+k+"/"+name)...)
				}
			case "items", "additionalProperties":
				out = append(out, constraints(v, at+"/"+k)...)
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestFastCheckRawCases: what a value-level mutation cannot write. A key
// twice, escapes, bytes that are not UTF-8, trailing data, broken syntax
// and deep nesting are refused, or accepted, as the schema and the reader
// together judge them.
func TestFastCheckRawCases(t *testing.T) {
	golden, edit := goldenEdits(t)
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	cases := map[string][]byte{
		"golden":                           golden,
		"a key twice":                      edit(`"passed": true,`, `"passed": true, "passed": true,`),
		"an escaped key":                   edit(`"passed": true,`, `"p\u0061ssed": true,`),
		"an escaped enum value":            edit(`"class": "positive"`, `"class": "p\u006fsitive"`),
		"an escaped value not in the enum": edit(`"class": "positive"`, `"class": "p\u006fsitivE"`),
		"a lone surrogate":                 edit(`"corpus": "`, `"corpus": "\ud800`),
		"not UTF-8":                        edit(`"corpus": "`, "\"corpus\": \"\xff\xfe"),
		"not UTF-8 in an enum":             edit(`"class": "positive"`, "\"class\": \"positive\xff\""),
		"a bad escape":                     edit(`"corpus": "`, `"corpus": "\q`),
		"a control character":              edit(`"corpus": "`, "\"corpus\": \"\t"),
		"trailing data":                    append(append([]byte{}, golden...), "{}"...),
		"a trailing comma":                 edit(`"passed": true,`, `"passed": true,,`),
		"a number with a plus":             edit(`"restarts": 0`, `"restarts": +0`),
		"a leading zero":                   edit(`"restarts": 0`, `"restarts": 00`),
		"a bare fraction":                  edit(`"restarts": 0`, `"restarts": 0.`),
		"a long exponent":                  edit(`"restarts": 0`, `"restarts": 0e00000`),
		"deep unknown member":              edit(`"passed": true,`, `"passed": true, "deep": `+deep+`,`),
		"truncated":                        golden[:len(golden)/2],
		"cut after a backslash":            []byte(`{"report_version": "1.3\`),
		"cut after a backslash, a key":     []byte(`{"report_version\`),
		"empty":                            nil,
	}
	for name, data := range cases {
		want, got := schemaAccepts(data), checkReport(data)
		switch {
		case got && !want:
			t.Errorf("%s: the fast check vouches for a report the schema refuses", name)
		case want && !got && name != "a long exponent" && name != "deep unknown member":
			t.Errorf("%s: the fast check refuses a report the schema accepts", name)
		}
	}
}

// FuzzFastCheck: the fast check never vouches for a report the schema
// or the reader's syntax refuses (it may refuse more: a report it does
// not vouch for is judged by jsonschema, only slower), and what the fast
// decoder reads of one it vouches for is what encoding/json reads.
func FuzzFastCheck(f *testing.F) {
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range goldens {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !checkReport(data) {
			return
		}
		if !schemaAccepts(data) {
			t.Errorf("the fast check vouches for a report the schema refuses:\n%s", data)
		}
		sameDecoding(t, data)
	})
}

// sameDecoding reports whether decodeChecked decoded a report the fast
// check vouched for, and fails the test when what it decoded differs from
// what encoding/json decodes.
func sameDecoding(t *testing.T, data []byte) bool {
	t.Helper()
	var fast, slow Document
	spans, decodable, ok := checkReportSpans(data)
	if !ok {
		return false
	}
	// The spans the check found on its way are those a walk that looks
	// for them alone finds.
	want, wantDecodable := resultSpansAlone(data)
	if decodable != wantDecodable || decodable && !reflect.DeepEqual(spans, want) {
		t.Errorf("the check found the results arrays at %v (decodable %v), a walk of its own at %v (%v):\n%s", spans, decodable, want, wantDecodable, data)
		return false
	}
	if !decodable || !decodeChecked(data, spans, &fast) {
		return false
	}
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Errorf("decoded a report encoding/json refuses (%v):\n%s", err, data)
		return false
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("decoded otherwise than encoding/json:\n%s", data)
		return false
	}
	return true
}

// resultSpansAlone finds the results arrays of a valid report, in order,
// by a walk of its own; false when a member's name differs from
// "results" or "implementations" only in case.
func resultSpansAlone(data []byte) (resultSpanList, bool) {
	var spans resultSpanList
	w := walker{data: data}
	span := func(implementation int) resultSpan {
		w.space()
		from := w.pos
		n := 0
		if w.peek() == '[' {
			w.elements(func(int) bool { n++; return w.skip() })
		}
		w.pos = from
		w.skip()
		return resultSpan{from: from, to: w.pos, implementation: implementation, length: n}
	}
	ok := w.members(func(key []byte) bool {
		switch {
		case string(key) == "results":
			spans = append(spans, span(-1))
			return true
		case string(key) == "implementations" && w.peek() == '[':
			return w.elements(func(i int) bool {
				if w.peek() != '{' {
					return w.skip()
				}
				return w.members(func(key []byte) bool {
					if string(key) == "results" {
						spans = append(spans, span(i))
						return true
					}
					return !bytes.EqualFold(key, []byte("results")) && w.skip()
				})
			})
		}
		return !bytes.EqualFold(key, []byte("results")) && !bytes.EqualFold(key, []byte("implementations")) && w.skip()
	})
	return spans, ok
}

// TestMistakableMembers: a member encoding/json would take for the
// results or the implementations, its name differing only in case, is
// left to encoding/json, which reads it as it always has: the schema
// lets such a member through, so the check vouches for the report.
func TestMistakableMembers(t *testing.T) {
	_, edit := goldenEdits(t)
	for name, data := range map[string][]byte{
		"the report's Results":         edit(`  "results": [`, `  "Results": [], "results": [`),
		"the report's IMPLEMENTATIONS": edit(`  "implementations": [`, `  "IMPLEMENTATIONS": [], "implementations": [`),
		"an implementation's rESULTS":  edit(`      "results": [`, `      "rESULTS": [], "results": [`),
	} {
		_, decodable, ok := checkReportSpans(data)
		if !ok || decodable {
			t.Errorf("%s: vouched for %v, decodable %v; want true, false", name, ok, decodable)
		}
		sameDecoding(t, data)
		run, err := ReadReport(data)
		want, werr := Read(bytes.NewReader(data))
		if err != nil || werr != nil || !reflect.DeepEqual(run, want) {
			t.Errorf("%s: ReadReport read otherwise than Read (%v, %v)", name, err, werr)
		}
	}
}

// goldenEdits is the golden report of implementations and a function that
// returns a copy with the first old replaced by new (failing the test
// when the golden holds no old).
func goldenEdits(t *testing.T) ([]byte, func(old, new string) []byte) {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join("testdata", "implementations.json"))
	if err != nil {
		t.Fatal(err)
	}
	return golden, func(old, new string) []byte {
		if !bytes.Contains(golden, []byte(old)) {
			t.Fatalf("the golden holds no %s", old)
		}
		return bytes.Replace(golden, []byte(old), []byte(new), 1)
	}
}
