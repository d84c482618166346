package jsonpos

import (
	"bytes"
	"encoding/json"
	"math"
)

// Checked is what Check learns of a document.
type Checked struct {
	// Valid is Valid(data); the rest holds only when it is true.
	Valid bool
	// Found, Object, Key and Offset are Scan's first repeated key.
	Found       bool
	Object, Key string
	Offset      int
	// Outline is Scan's outline, when no key repeats.
	Outline Outline
	// Elements are, when the top-level member Check was asked to index is
	// an array, the offsets of its elements in data, start and end of each
	// in turn: data[start:end] is each element as ValuesN gives it. They
	// are 32 bits (a million commands take 8 MB), so data of 4 GiB or more
	// is not indexed.
	Elements []uint32
	// Tight reports, with Elements, that no element holds white space
	// between its tokens: the array without white space is then its
	// elements joined by commas in brackets.
	Tight bool
}

// Check is Valid and Scan in one pass, and ValuesN of the top-level
// member named index (none when index is ""), its offsets appended to
// elements. A fixture is read once where the three would read it three
// times.
func Check(data []byte, index string, elements []uint32) Checked {
	if len(data) > math.MaxUint32 {
		index = ""
	}
	frames := framePool.Get().(*[]frame)
	defer putFrames(frames)
	c := checker{v: validator{data: data}, stack: (*frames)[:0], index: index, elements: elements[:0]}
	var out Outline
	c.o = outliner{out: &out}
	// The walk may append past the pooled capacity; the longer stack goes
	// back to the pool.
	defer func() { *frames = c.stack }()
	if !c.document() {
		return Checked{Elements: c.elements[:0]}
	}
	if c.found {
		return Checked{Valid: true, Found: true, Object: c.object, Key: c.dupKey, Offset: c.offset, Elements: c.elements[:0]}
	}
	return Checked{Valid: true, Outline: out, Elements: c.elements, Tight: !c.loose}
}

// checker walks the structure of a document, its tokens read by the
// validator, with scan's frames: the open containers with the keys read in
// each, and the outline of the top-level object. The first repeated key is
// recorded and the walk goes on, since a document that is not valid is
// reported as such whatever its keys.
type checker struct {
	v     validator
	stack []frame
	o     outliner

	// found, and where, once a key repeats.
	found          bool
	object, dupKey string
	offset         int

	// index is the top-level member whose elements are recorded, when
	// an array, in elements; wanted is set while its value is read, and
	// indexing while the array is open.
	index            string
	wanted, indexing bool
	elements         []uint32
	// loose is set by white space inside an element of the indexed array.
	loose bool
}

// inIndexed reports whether a value read now is an element of the indexed
// array.
func (c *checker) inIndexed() bool { return c.indexing && len(c.stack) == 2 }

// space skips white space, noting any inside an element of the indexed
// array (deeper than the array itself).
func (c *checker) space() {
	at := c.v.pos
	c.v.space()
	if c.v.pos != at && c.indexing && len(c.stack) > 2 {
		c.loose = true
	}
}

func (c *checker) document() bool {
	c.v.space()
	for {
		if !c.value() || !c.after() {
			return false
		}
		if len(c.stack) == 0 {
			c.v.space()
			return c.v.pos == len(c.v.data)
		}
	}
}

// value reads the start of a value at pos: a scalar whole, or the openings
// of containers up to the start of the first scalar in them (or the end of
// an empty one), keeping the frames and the outline as scan does.
func (c *checker) value() bool {
	d := c.v.data
	for {
		if c.v.pos >= len(d) {
			return false
		}
		ch := d[c.v.pos]
		c.o.start(c.v.pos)
		enterChild(c.stack)
		if c.inIndexed() {
			c.elements = append(c.elements, uint32(c.v.pos))
		}
		if ch != '{' && ch != '[' {
			if !c.v.scalar(ch) {
				return false
			}
			c.o.end(c.stack, c.v.pos, nil)
			if c.inIndexed() {
				c.elements = append(c.elements, uint32(c.v.pos))
			}
			return true
		}
		if len(c.stack) >= maxNesting {
			return false
		}
		if len(c.stack) == 1 && ch == '[' && c.wanted {
			c.indexing, c.elements = true, c.elements[:0]
		}
		c.push(ch == '{')
		c.v.pos++
		c.space()
		if c.v.pos < len(d) && d[c.v.pos] == ch+2 { // '}' or ']'
			c.v.pos++
			c.pop()
			return true
		}
		if ch == '{' && !c.readKey(true) {
			return false
		}
	}
}

// push opens a frame, reusing the one a closed sibling left and its keys.
func (c *checker) push(isObject bool) {
	if len(c.stack) < cap(c.stack) {
		c.stack = c.stack[:len(c.stack)+1]
		f := &c.stack[len(c.stack)-1]
		*f = frame{isObject: isObject, keys: f.keys[:0]}
		return
	}
	c.stack = append(c.stack, frame{isObject: isObject})
}

// pop closes the innermost frame, whose value ended at pos.
func (c *checker) pop() {
	closed := c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
	c.o.end(c.stack, c.v.pos, &closed)
	switch {
	case c.inIndexed():
		c.elements = append(c.elements, uint32(c.v.pos))
	case c.indexing && len(c.stack) == 1:
		c.indexing = false
	}
}

// after reads what follows a value: the closing of containers it ends,
// then, inside a container, a comma and the next member's key, leaving pos
// at the next value. At the top level it reads nothing.
func (c *checker) after() bool {
	d := c.v.data
	for len(c.stack) > 0 {
		c.space()
		if c.v.pos >= len(d) {
			return false
		}
		top := &c.stack[len(c.stack)-1]
		switch ch := d[c.v.pos]; {
		case ch == ',':
			c.v.pos++
			c.space()
			if top.isObject {
				return c.readKey(false)
			}
			return true
		case (ch == '}' && top.isObject) || (ch == ']' && !top.isObject):
			c.v.pos++
			c.pop()
		default:
			return false
		}
	}
	return true
}

// readKey reads `"key" :` into the innermost frame, and the white space after
// it. A key that repeats one of its object is recorded when it is the
// first; the first key of an object cannot.
func (c *checker) readKey(first bool) bool {
	d := c.v.data
	at := c.v.pos
	if at >= len(d) || d[at] != '"' || !c.v.str() {
		return false
	}
	raw := d[at:c.v.pos]
	c.space()
	if c.v.pos >= len(d) || d[c.v.pos] != ':' {
		return false
	}
	c.v.pos++
	c.space()
	f := &c.stack[len(c.stack)-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		f.token = raw[1 : len(raw)-1]
	} else {
		var k string
		if json.Unmarshal(raw, &k) != nil {
			return false
		}
		f.token = []byte(k)
	}
	if f.repeated() && !first && !c.found {
		c.found = true
		c.object, c.dupKey, c.offset = framePointer(c.stack[:len(c.stack)-1]), string(f.token), at
	}
	if len(c.stack) == 1 {
		c.wanted = c.index != "" && string(f.token) == c.index
	}
	c.o.key(c.stack)
	return true
}
