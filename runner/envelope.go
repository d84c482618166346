package runner

import (
	"encoding/binary"
	"encoding/json"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/runner/schema"
)

// envelopeShapes keys the envelope schema's verdicts by what they depend
// on (schema.Set.EnvelopeShape): fixtures that differ only in their names,
// descriptions, ids and the like are judged once. Only passing verdicts
// are kept: a failure's message names the value, and failures are rare.
type envelopeShapes struct {
	shape  schema.Shape
	passed shapesPassed
}

// keyBuffers hold the keys of envelopes and commands while they are built
// and looked up, from one fixture to the next.
var keyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// putKeyBuffer keeps b for the next key unless a huge command grew it.
func putKeyBuffer(b *[]byte) {
	if cap(*b) <= 64<<10 {
		keyBuffers.Put(b)
	}
}

// shapesPassed holds the keys of envelopes that passed, within the
// command cache's bounds. A lookup indexes the map with the key's bytes,
// where a sync.Map's would box a copy of them; there is one lookup a
// fixture, so the lock costs nothing that shows.
type shapesPassed struct {
	mu   sync.RWMutex
	keys map[string]struct{}
	used int
}

func (p *shapesPassed) has(key []byte) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	_, ok := p.keys[string(key)]
	return ok
}

func (p *shapesPassed) add(key []byte) {
	if len(key) > maxCachedCommandBytes {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used += len(key) + cacheEntryOverhead; p.used > maxCacheBytes {
		p.used -= len(key) + cacheEntryOverhead
		return
	}
	if p.keys == nil {
		p.keys = map[string]struct{}{}
	}
	p.keys[string(key)] = struct{}{}
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
	nums classes[int64]
	strs classes[string]
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
		k.buf = append(k.buf, 'n')
		k.uvarint(boundsCode(n, k.shape.Numbers))
		k.uvarint(k.nums.of(n))
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
	k.buf = append(k.buf, 'S')
	k.uvarint(boundsCode(int64(utf8.RuneCountInString(s)), k.shape.Lengths))
	k.uvarint(k.strs.of(s))
}

// classes numbers values in the order they were first met. An envelope
// holds a few strings and numbers: they are searched in a small array,
// which lives with the keyer on the stack, and put in a map only past it.
type classes[T comparable] struct {
	few  [32]T
	n    int // of few in use
	many map[T]int
}

// of is the order in which v was first met, adding it when new.
func (c *classes[T]) of(v T) int {
	if c.many != nil {
		if i, ok := c.many[v]; ok {
			return i
		}
		c.many[v] = len(c.many)
		return len(c.many) - 1
	}
	for i, x := range c.few[:c.n] {
		if x == v {
			return i
		}
	}
	if c.n < len(c.few) {
		c.few[c.n] = v
		c.n++
		return c.n - 1
	}
	c.many = make(map[T]int, 2*len(c.few))
	for i, x := range c.few {
		c.many[x] = i
	}
	c.many[v] = len(c.many)
	return len(c.many) - 1
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
