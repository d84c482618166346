package runner

import (
	"encoding/binary"
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/runner/schema"
)

// envelopeShapes keys the envelope schema's verdicts by what they depend
// on (schema.Set.EnvelopeShape): fixtures that differ only in their names,
// descriptions, ids and the like are judged once. Only passing verdicts
// are kept: a failure's message names the value, and failures are rare.
type envelopeShapes struct {
	shape  schema.Shape
	passed verdictCache
}

// newEnvelopeShapes is the envelope cache of a run, or nil when the
// fixture schema reads its values in a way a shape does not keep.
func newEnvelopeShapes(sch *schemas) *envelopeShapes {
	shape, ok := sch.EnvelopeShape()
	if !ok {
		return nil
	}
	return &envelopeShapes{shape: shape}
}

// envelopeKey is the shape of a decoded envelope: its structure and keys
// as they are; each number as its relation to the schema's bounds and the
// first earlier number of equal value, if any; each string as itself when
// it is one of the schema's const or enum strings, else as the relation of
// its length to the schema's length bounds and the first earlier equal
// string, if any. The encoding is prefix-free (a tag before each value,
// lengths before keys, strings and lists), so two envelopes share a key
// only when every check of the schema treats them alike. It reports false,
// and the envelope is judged on its own, for a number that is not a plain
// integer of at most 18 digits, a value of a kind the decoder does not
// make, or a key longer than maxCachedCommandBytes.
func envelopeKey(v any, shape *schema.Shape, buf []byte) ([]byte, bool) {
	k := keyer{shape: shape, buf: buf, ok: true}
	k.value(v)
	return k.buf, k.ok && len(k.buf) <= maxCachedCommandBytes
}

type keyer struct {
	shape *schema.Shape
	buf   []byte
	ok    bool
	// nums and strs give each number value and each string not in
	// shape.Strings the order in which it was first met.
	nums map[int64]int
	strs map[string]int
}

func (k *keyer) uvarint(n int) { k.buf = binary.AppendUvarint(k.buf, uint64(n)) }

func (k *keyer) value(v any) {
	if !k.ok || len(k.buf) > maxCachedCommandBytes {
		k.ok = false
		return
	}
	switch v := v.(type) {
	case map[string]any:
		k.buf = append(k.buf, 'o')
		k.uvarint(len(v))
		// Most objects of an envelope are small (a stand-in has one key):
		// their keys are sorted on the stack.
		var small [8]string
		keys := small[:0]
		for key := range v {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			k.uvarint(len(key))
			k.buf = append(k.buf, key...)
			k.value(v[key])
		}
	case []any:
		k.buf = append(k.buf, 'a')
		k.uvarint(len(v))
		for _, x := range v {
			k.value(x)
		}
	case string:
		k.str(v)
	case json.Number:
		n, ok := plainInteger([]byte(v))
		if !ok {
			k.ok = false
			return
		}
		if k.nums == nil {
			k.nums = map[int64]int{}
		}
		k.buf = append(k.buf, 'n')
		k.uvarint(boundsCode(n, k.shape.Numbers))
		k.uvarint(class(k.nums, n))
	case bool:
		k.buf = append(k.buf, "ft"[btoi(v)])
	case nil:
		k.buf = append(k.buf, 'z')
	default:
		k.ok = false
	}
}

func (k *keyer) str(s string) {
	if k.shape.Strings[s] {
		k.buf = append(k.buf, 's')
		k.uvarint(len(s))
		k.buf = append(k.buf, s...)
		return
	}
	if k.strs == nil {
		k.strs = map[string]int{}
	}
	k.buf = append(k.buf, 'S')
	k.uvarint(boundsCode(int64(utf8.RuneCountInString(s)), k.shape.Lengths))
	k.uvarint(class(k.strs, s))
}

// class is the order in which v was first met among the values of seen,
// adding it when new.
func class[T comparable](seen map[T]int, v T) int {
	if c, ok := seen[v]; ok {
		return c
	}
	seen[v] = len(seen)
	return len(seen) - 1
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
