package explore

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// Streams are edited as generic JSON trees: objects as map[string]any,
// arrays as []any, numbers as json.Number (exactly as written), so that a
// mutation can reach any value and an unchanged value keeps its bytes.

// decodeValue decodes one JSON value, numbers kept as written.
func decodeValue(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// clone copies a tree deeply.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, c := range x {
			m[k] = clone(c)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, c := range x {
			l[i] = clone(c)
		}
		return l
	}
	return v
}

func cloneList(cmds []any) []any { return clone(cmds).([]any) }

// encode writes v as compact JSON, object members in sorted order with
// "cmd" first, so that a command reads as the corpus writes it and the
// same tree always gives the same bytes.
func encode(b []byte, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		b = append(b, '{')
		first := true
		member := func(k string) {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendString(b, k)
			b = append(b, ':')
			b = encode(b, x[k])
		}
		if _, ok := x["cmd"]; ok {
			member("cmd")
		}
		for _, k := range sortedKeys(x) {
			if k != "cmd" {
				member(k)
			}
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, c := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = encode(b, c)
		}
		return append(b, ']')
	case json.Number:
		return append(b, x...)
	case string:
		return appendString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case nil:
		return append(b, "null"...)
	}
	// Not reached for trees made by decodeValue and the mutations.
	out, _ := json.Marshal(v)
	return append(b, out...)
}

func appendString(b []byte, s string) []byte {
	out, _ := json.Marshal(s)
	return append(b, out...)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// slot is one value inside a tree, with a way to replace or remove it.
type slot struct {
	key string // the member name, or the key of the list holding it
	val any
	set func(any)
	// drop removes the value from its object or list.
	drop func()
}

// slots lists the values below v, depth first, object members in sorted
// order. key is the member name of v itself ("" at the top).
func slots(v any, key string, out *[]slot) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			*out = append(*out, slot{key: k, val: x[k], set: func(n any) { x[k] = n }, drop: func() { delete(x, k) }})
			slots(x[k], k, out)
		}
	case []any:
		for i := range x {
			*out = append(*out, slot{key: key, val: x[i], set: func(n any) { x[i] = n }})
			slots(x[i], key, out)
		}
	}
}

func allSlots(v any) []slot {
	var out []slot
	slots(v, "", &out)
	return out
}

// cmdName is a command's cmd member, "" when it has none.
func cmdName(c any) string {
	if m, ok := c.(map[string]any); ok {
		if s, ok := m["cmd"].(string); ok {
			return s
		}
	}
	return ""
}

// rng is a small deterministic generator (SplitMix64): the streams of a
// seed must be the same on every machine and every Go release.
type rng struct{ s uint64 }

func newRNG(seed int64, stream uint64) *rng {
	r := &rng{s: uint64(seed)*0x9E3779B97F4A7C15 ^ stream*0xD1B54A32D192ED03}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); 0 when n <= 0.
func (r *rng) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}
