package runner

import (
	"encoding/json"
	"testing"
)

// TestShapeCacheKeepsVerdicts: commands judged valid by their shape never
// lend that verdict to a command whose numbers relate differently to the
// schema's bounds, or repeat where the others did not. Each pair is judged
// in one phase, the valid command first, so that the second one meets the
// first one's cached verdict if its key were the same.
// corpusSchemas opens the corpus at root and loads the schemas a run of it
// uses.
func corpusSchemas(t *testing.T, root string) (*corpus, *schemas) {
	t.Helper()
	cfg := Config{Corpus: root, WorkDir: root, Now: fixedNow}
	c, err := newCorpus(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := loadSchemas(cfg, c.workDir, c.dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, sch
}

func TestShapeCacheKeepsVerdicts(t *testing.T) {
	root := writeCorpus(t, map[string]string{"positive/ok.json": fixtureJSON("ok", success, hello, reply)})
	_, sch := corpusSchemas(t, root)
	for _, pair := range []struct{ valid, invalid string }{
		{`{"cmd":"CreateBuffer","id":7,"size":16,"usage":["COPY_DST"]}`, `{"cmd":"CreateBuffer","id":7,"size":-16,"usage":["COPY_DST"]}`},
		{`{"cmd":"CreateBuffer","id":7,"size":16,"usage":["COPY_DST"]}`, `{"cmd":"CreateBuffer","id":7,"size":16.5,"usage":["COPY_DST"]}`},
		{`{"cmd":"CreateBindGroupLayout","id":3,"entries":[{"binding":0,"binding_type":"uniform_buffer","visibility":["VERTEX"]},{"binding":1,"binding_type":"uniform_buffer","visibility":["VERTEX"]}]}`,
			`{"cmd":"CreateBindGroupLayout","id":3,"entries":[{"binding":0,"binding_type":"uniform_buffer","visibility":["VERTEX"]},{"binding":1,"binding_type":"uniform_buffer","visibility":["VERTEX","VERTEX"]}]}`},
	} {
		phase := newCommandPhase(sch)
		if phase.shapes == nil {
			t.Fatal("the embedded schema allows no shape cache")
		}
		var scratch []byte
		if f := phase.checkCommand(0, json.RawMessage(pair.valid), &scratch); f != nil {
			t.Errorf("%s: %s", pair.valid, f.Message)
			continue
		}
		if f := phase.checkCommand(1, json.RawMessage(pair.invalid), &scratch); f == nil {
			t.Errorf("%s passed after %s", pair.invalid, pair.valid)
		}
		// A command of the same shape as the valid one is answered from
		// the cache, and passes.
		if f := phase.checkCommand(2, json.RawMessage(pair.valid), &scratch); f != nil {
			t.Errorf("%s, again: %s", pair.valid, f.Message)
		}
	}
}

// TestShapeKey: a key keeps each number's relation to the bounds and which
// earlier number it equals, and nothing else of it.
func TestShapeKey(t *testing.T) {
	bounds := []int64{0, 1}
	key := func(raw string) string {
		k, ok := shapeKey([]byte(raw), bounds, nil)
		if !ok {
			return "(none)"
		}
		return string(k)
	}
	same := [][2]string{
		{`{"id": 7, "size": 16}`, `{"id":8,"size":2}`},
		{`[3, 5]`, `[4,9]`},
		{`[3, 3]`, `[9, 9]`},
	}
	for _, p := range same {
		if key(p[0]) != key(p[1]) || key(p[0]) == "(none)" {
			t.Errorf("%s and %s have different keys", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`[3, 3]`, `[3, 5]`}, {`{"n": 0}`, `{"n": 1}`}, {`{"n": 1}`, `{"n": 2}`}, {`{"n": -1}`, `{"n": 0}`},
		{`{"n": 2}`, `{"m": 2}`}, {`{"s": "a"}`, `{"s": "b"}`}, {`{"n": 2, "m": 2}`, `{"n": 2, "m": 3}`},
	}
	for _, p := range differ {
		if key(p[0]) == key(p[1]) {
			t.Errorf("%s and %s share a key", p[0], p[1])
		}
	}
	for _, raw := range []string{`{"n": 1.5}`, `{"n": 1e3}`, `{"n": 1234567890123456789}`} {
		if key(raw) != "(none)" {
			t.Errorf("%s has a shape key", raw)
		}
	}
}
