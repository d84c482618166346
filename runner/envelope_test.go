package runner

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/jsontree"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// TestEnvelopeCacheDifferential: for every fixture of the project's corpus
// and of the real DRP2 corpus, under the embedded and the upstream fixture
// schemas, and for variants of each that change one value (a string to
// another length, to a const or enum string of the schema, to another
// string of the fixture; a number across the schema's bounds and to
// another number of the fixture; a boolean; a member left out), the
// verdict through the envelope cache is the schema library's verdict, and
// envelopes with one key get one verdict. The cache holds every passing
// shape of the variants before any is judged through it. Of the project's
// corpus, whose fixtures are many and alike, every third fixture is taken.
func TestEnvelopeCacheDifferential(t *testing.T) {
	type source struct {
		name   string
		fsys   fs.FS
		schema string // corpus root whose schemas to use; "" for the embedded ones
		every  int    // take every n-th fixture
	}
	sources := []source{{"own/embedded", fixtures.FS, "", 3}}
	upstream, err := filepath.Abs(filepath.Join(upstreamRoot, "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(upstream); err == nil {
		sources = append(sources, source{"real/upstream", os.DirFS(upstream), upstream, 1}, source{"real/embedded", os.DirFS(upstream), "", 1})
	} else {
		missingUpstream(t, "SKIPPED (the real corpus): the upstream DRP2 corpus is not at %s", upstream)
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			root := src.schema
			if root == "" {
				root = writeCorpus(t, map[string]string{"positive/ok.json": fixtureJSON("ok", success, hello, reply)})
			}
			_, sch := corpusSchemas(t, root)
			if newEnvelopeShapes(sch) == nil {
				t.Fatal("the fixture schema allows no envelope cache")
			}
			checked, hits := 0, 0
			for _, folder := range Folders {
				entries, _ := fs.ReadDir(src.fsys, folder)
				for i, e := range entries {
					if i%src.every != 0 {
						continue
					}
					data, err := fs.ReadFile(src.fsys, folder+"/"+e.Name())
					if err != nil {
						t.Fatal(err)
					}
					var mem fixtureMemory
					fx, cerr := decodeFixture(data, &mem)
					if cerr != nil {
						mem.free()
						continue
					}
					n, h := checkVariants(t, sch, e.Name(), fx.doc)
					checked, hits = checked+n, hits+h
					mem.free()
				}
			}
			if hits == 0 || checked < 1000 {
				t.Errorf("%d variants checked, %d cache hits: the test no longer tests the cache", checked, hits)
			}
			t.Logf("%d variants, %d answered from the cache", checked, hits)
		})
	}
}

// checkVariants checks doc and its variants (see
// TestEnvelopeCacheDifferential) with a cache of their own; it returns how
// many it checked and how many the cache answered.
func checkVariants(t *testing.T, sch *schemas, name string, doc map[string]any) (checked, hits int) {
	t.Helper()
	job := &fixtureJob{schemas: sch, envelopes: newEnvelopeShapes(sch)}
	variants := append([]any{doc}, envelopeVariants(doc, &job.envelopes.shape)...)
	want := make([]string, len(variants))
	byKey := map[string]string{}
	for i, v := range variants {
		want[i] = errString(sch.ValidateEnvelope(v))
		if key, ok := envelopeKey(v.(map[string]any), &job.envelopes.shape, nil); ok {
			pass := fmt.Sprint(want[i] == "")
			if other, seen := byKey[string(key)]; seen && other != pass {
				t.Errorf("%s, variant %d: two envelopes of one shape, one passing and one not", name, i)
			}
			byKey[string(key)] = pass
		}
	}
	// Every passing shape first, as the earlier fixtures of a run would
	// have left them.
	for i, v := range variants {
		if key, ok := envelopeKey(v.(map[string]any), &job.envelopes.shape, nil); ok && want[i] == "" {
			job.envelopes.passed.add(key)
		}
	}
	for i, v := range variants {
		key, shaped := envelopeKey(v.(map[string]any), &job.envelopes.shape, nil)
		cached := job.envelopes.passed.has(key)
		got := errString(job.validateEnvelope(v.(map[string]any)))
		if got != want[i] {
			t.Errorf("%s, variant %d: through the cache %q, the library says %q", name, i, got, want[i])
		}
		checked++
		if shaped && cached {
			hits++
		}
	}
	return checked, hits
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// envelopeVariants are copies of doc that each change one value of it:
// every value but those of commands past the fourth (a stream's stand-ins
// repeat a few kinds of value). A string becomes strings of other lengths,
// some of the schema's const and enum strings (a different few at each
// value, so that all are tried) and the fixture's first distinct strings.
func envelopeVariants(doc map[string]any, shape *schema.Shape) []any {
	var leaves [][]any // paths to every value
	var strs []string
	var nums []string
	seen := map[string]bool{}
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		if len(path) >= 2 && path[0] == "commands" && path[1].(int) >= 4 {
			return
		}
		leaves = append(leaves, append([]any(nil), path...))
		switch v := v.(type) {
		case map[string]any:
			for _, k := range jsontree.SortedKeys(v) {
				walk(v[k], append(path, k))
			}
		case []any:
			for i, x := range v {
				walk(x, append(path, i))
			}
		case string:
			if !seen[v] && len(strs) < 3 {
				seen[v] = true
				strs = append(strs, v)
			}
		case fmt.Stringer:
			nums = append(nums, v.String())
		}
	}
	walk(doc, nil)
	consts := make([]string, 0, len(shape.Strings))
	for s := range shape.Strings {
		consts = append(consts, s)
	}
	sort.Strings(consts)
	var out []any
	for n, path := range leaves {
		if len(path) == 0 {
			continue
		}
		var alts []any
		switch v := get(doc, path).(type) {
		case string:
			some := consts
			if len(consts) > 8 {
				some = nil
				for k := range 8 {
					some = append(some, consts[(8*n+k)%len(consts)])
				}
			}
			for _, s := range append(append([]string{"", "x", "xy", strings.Repeat("é", 300)}, some...), strs...) {
				if s != v {
					alts = append(alts, s)
				}
			}
		case bool:
			alts = append(alts, !v)
		case map[string]any, []any, nil:
		default:
			for _, num := range append([]string{"-1", "0", "1", "2", "3", "100000000000000000", "1.5"}, nums[:min(len(nums), 3)]...) {
				alts = append(alts, json.Number(num))
			}
		}
		for _, alt := range alts {
			out = append(out, set(jsontree.Clone(doc), path, alt))
		}
		if _, ok := path[len(path)-1].(string); ok {
			out = append(out, set(jsontree.Clone(doc), path, deleted{}))
		}
	}
	return out
}

// deleted, set at a path, removes the member there.
type deleted struct{}

func get(v any, path []any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		}
	}
	return v
}

func set(doc any, path []any, value any) any {
	parent := get(doc, path[:len(path)-1])
	switch s := path[len(path)-1].(type) {
	case string:
		if _, ok := value.(deleted); ok {
			delete(parent.(map[string]any), s)
		} else {
			parent.(map[string]any)[s] = value
		}
	case int:
		if _, ok := value.(deleted); !ok {
			parent.([]any)[s] = value
		}
	}
	return doc
}

// TestEnvelopeShapeOfOtherSchemas: under a fixture schema that compares
// strings for equality (uniqueItems), bounds their length both ways and
// lists strings and numbers, the cache still gives the library's verdicts;
// a schema that reads strings or numbers in a way a shape does not keep
// has no envelope cache.
func TestEnvelopeShapeOfOtherSchemas(t *testing.T) {
	const strict = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
		"properties": {
			"name": {"type": "string", "minLength": 2, "maxLength": 4},
			"tags": {"type": "array", "uniqueItems": true, "items": {"enum": ["a", "b", "c", "d", 1, 2]}},
			"ids": {"type": "array", "uniqueItems": true},
			"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"const": "z"}]},
			"version": {"type": "object", "properties": {"major": {"const": 2}, "minor": {"minimum": 0, "maximum": 9}}},
			"expected": {"type": "object", "properties": {"outcome": {"enum": ["success", "error"]}}}}}`
	doc := `{"name": "abc", "tags": ["a", "b", "c"], "ids": [1, 2, 3, "a", "x"], "pair": ["y", "z"],
		"version": {"major": 2, "minor": 0}, "commands": [], "expected": {"outcome": "success"}}`
	root := writeCorpus(t, map[string]string{"positive/ok.json": fixtureJSON("ok", success, hello, reply), "schema/drp_fixture.schema.json": strict})
	_, sch := corpusSchemas(t, root)
	if newEnvelopeShapes(sch) == nil {
		t.Fatal("no envelope cache for a schema a shape keeps")
	}
	var mem fixtureMemory
	defer mem.free()
	fx, cerr := decodeFixture([]byte(doc), &mem)
	if cerr != nil {
		t.Fatal(cerr.msg)
	}
	if n, hits := checkVariants(t, sch, "strict", fx.doc); hits == 0 {
		t.Errorf("none of %d variants answered from the cache", n)
	}
	for _, keyword := range []string{`"pattern": "^a"`, `"format": "email"`, `"multipleOf": 2`, `"contentMediaType": "application/json"`, `"minimum": 0.5`} {
		root := writeCorpus(t, map[string]string{"positive/ok.json": fixtureJSON("ok", success, hello, reply),
			"schema/drp_fixture.schema.json": `{"type": "object", "properties": {"name": {` + keyword + `}}}`})
		_, sch := corpusSchemas(t, root)
		if newEnvelopeShapes(sch) != nil {
			t.Errorf("an envelope cache for a schema with %s", keyword)
		}
	}
}

// classes numbers values in the order first met, as a map would, across
// the switch from its array to its map.
func TestClassesNumberInOrderFirstMet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var c classes[int64]
		want := map[int64]int{}
		for range rng.IntN(80) {
			v := rng.Int64N(int64(1 + round%40))
			if _, ok := want[v]; !ok {
				want[v] = len(want)
			}
			if got := c.of(v); got != want[v] {
				t.Fatalf("round %d: %d is class %d, want %d", round, v, got, want[v])
			}
		}
	}
}
