package explore

import (
	"encoding/json"
	"strconv"

	"github.com/drp2/drp2-fixtures/internal/jsontree"
)

// Streams are edited as trees (jsontree.DecodeTree), so that a mutation can reach any
// value and an unchanged value keeps its bytes.

func cloneList(cmds []any) []any { return jsontree.Clone(cmds).([]any) }

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
		for _, k := range jsontree.SortedKeys(x) {
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
