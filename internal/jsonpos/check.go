package jsonpos

import (
	"bytes"
	"encoding/json"
)

// Check is Valid and Scan in one pass: valid is Valid(data), and when it
// is true the rest is what Scan(data) returns. A fixture is read once
// where the two would read it twice.
func Check(data []byte) (valid bool, object, key string, offset int, found bool, out Outline) {
	frames := framePool.Get().(*[]frame)
	defer putFrames(frames)
	c := checker{v: validator{data: data}, stack: (*frames)[:0], o: outliner{out: &out}}
	// The walk may append past the pooled capacity; the longer stack goes
	// back to the pool.
	defer func() { *frames = c.stack }()
	if !c.document() {
		return false, "", "", 0, false, Outline{}
	}
	if c.found {
		return true, c.object, c.dupKey, c.offset, true, Outline{}
	}
	return true, "", "", 0, false, out
}

// checker is the validator's walk with scan's frames: the open containers
// with the keys read in each, and the outline of the top-level object. The
// first repeated key is recorded and the walk goes on, since a document
// that is not valid is reported as such whatever its keys.
type checker struct {
	v     validator
	stack []frame
	o     outliner

	// found, and where, once a key repeats.
	found          bool
	object, dupKey string
	offset         int
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

// value reads the start of a value at pos, as validator.value does,
// keeping the frames and the outline as scan does.
func (c *checker) value() bool {
	d := c.v.data
	for {
		if c.v.pos >= len(d) {
			return false
		}
		ch := d[c.v.pos]
		c.o.start(c.v.pos)
		enterChild(c.stack)
		if ch != '{' && ch != '[' {
			if !c.v.scalar(ch) {
				return false
			}
			c.o.end(c.stack, c.v.pos, nil)
			return true
		}
		if len(c.stack) >= maxNesting {
			return false
		}
		c.push(ch == '{')
		c.v.pos++
		c.v.space()
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
}

// after reads what follows a value, as validator.after does.
func (c *checker) after() bool {
	d := c.v.data
	for len(c.stack) > 0 {
		c.v.space()
		if c.v.pos >= len(d) {
			return false
		}
		top := &c.stack[len(c.stack)-1]
		switch ch := d[c.v.pos]; {
		case ch == ',':
			c.v.pos++
			c.v.space()
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
	c.v.space()
	if c.v.pos >= len(d) || d[c.v.pos] != ':' {
		return false
	}
	c.v.pos++
	c.v.space()
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
	c.o.key(c.stack)
	return true
}
