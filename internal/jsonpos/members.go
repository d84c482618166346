package jsonpos

// An object's members and an array's values, as slices of the input.

import (
	"bytes"
	"encoding/json"
)

// Member is one member of a JSON object: its decoded key and the byte range
// [Start, End) of its value.
type Member struct {
	Key        string
	Start, End int
}

// Members lists the members of the object that data holds, in document
// order, without decoding their values. It reports false when data is not
// an object.
func Members(data []byte) ([]Member, bool) {
	s := scanner{data: data}
	if !s.expect('{') {
		return nil, false
	}
	var out []Member
	s.space()
	if s.peek() == '}' {
		return out, true
	}
	for {
		s.space()
		k, ok := s.str()
		if !ok {
			return nil, false
		}
		if !s.expect(':') {
			return nil, false
		}
		s.space()
		start := s.pos
		if !s.skipValue() {
			return nil, false
		}
		out = append(out, Member{Key: k, Start: start, End: s.pos})
		s.space()
		switch s.next() {
		case ',':
		case '}':
			return out, true
		default:
			return nil, false
		}
	}
}

// ObjectIter walks the members of one JSON object without decoding their
// values or allocating: Key and Value are slices of the input. Start it
// with Object, then call Next until it reports false; Failed tells a
// malformed object from its end.
type ObjectIter struct {
	s          scanner
	key, value []byte
	escaped    bool
	started    bool
	failed     bool
}

// Object starts an ObjectIter over the object data holds (white space
// around it allowed). It reports false when data does not start an object.
func Object(data []byte) (ObjectIter, bool) {
	it := ObjectIter{s: scanner{data: data}}
	if !it.s.expect('{') {
		return it, false
	}
	return it, true
}

// Next moves to the next member.
func (it *ObjectIter) Next() bool {
	if it.failed {
		return false
	}
	it.s.space()
	if !it.started {
		it.started = true
		if it.s.peek() == '}' {
			it.s.pos++
			return false
		}
	} else {
		switch it.s.next() {
		case ',':
			it.s.space()
		case '}':
			return false
		default:
			it.failed = true
			return false
		}
	}
	if it.s.peek() != '"' {
		it.failed = true
		return false
	}
	start := it.s.pos
	if !it.s.skipString() {
		it.failed = true
		return false
	}
	it.key = it.s.data[start+1 : it.s.pos-1]
	it.escaped = bytes.IndexByte(it.key, '\\') >= 0
	if !it.s.expect(':') {
		it.failed = true
		return false
	}
	it.s.space()
	vs := it.s.pos
	if !it.s.skipValue() {
		it.failed = true
		return false
	}
	it.value = it.s.data[vs:it.s.pos]
	it.s.space()
	return true
}

// Key is the current member's key as written, without its quotes; Escaped
// reports whether it holds an escape (and so is not its decoded value).
func (it *ObjectIter) Key() []byte { return it.key }

// Escaped reports whether the current key holds an escape sequence.
func (it *ObjectIter) Escaped() bool { return it.escaped }

// Value is the current member's value as written.
func (it *ObjectIter) Value() []byte { return it.value }

// Failed reports whether the walk stopped at malformed JSON.
func (it *ObjectIter) Failed() bool { return it.failed }

// Values returns the elements of the array that data holds, in order, as
// slices of data (no copies). It reports false when data is not an array.
// The slice has exactly the length of the array: a stream of a million
// commands costs one allocation of its index, not a doubling series. alloc,
// when not nil, provides that allocation: an empty slice of capacity n.
func Values(data []byte, alloc func(n int) []json.RawMessage) ([]json.RawMessage, bool) {
	s := scanner{data: data}
	if !s.expect('[') {
		return nil, false
	}
	// A first pass counts the elements, a second records them.
	n := 0
	s.space()
	if s.peek() != ']' {
		for {
			if !s.skipValue() {
				return nil, false
			}
			n++
			s.space()
			c := s.next()
			if c == ']' {
				break
			}
			if c != ',' {
				return nil, false
			}
		}
	}
	return ValuesN(data, n, alloc)
}

// ValuesN is Values when the number of elements, n, is known (see Outline):
// one pass instead of two. It reports false when data is not an array of
// exactly n elements.
func ValuesN(data []byte, n int, alloc func(n int) []json.RawMessage) ([]json.RawMessage, bool) {
	s := scanner{data: data}
	if n < 0 || !s.expect('[') {
		return nil, false
	}
	var out []json.RawMessage
	if alloc != nil {
		out = alloc(n)
	}
	if cap(out) < n {
		out = make([]json.RawMessage, 0, n)
	}
	s.space()
	if n == 0 {
		return out, s.next() == ']'
	}
	for i := 0; i < n; i++ {
		s.space()
		from := s.pos
		if !s.skipValue() {
			return nil, false
		}
		out = append(out, data[from:s.pos:s.pos])
		s.space()
		want := byte(',')
		if i == n-1 {
			want = ']'
		}
		if s.next() != want {
			return nil, false
		}
	}
	return out, true
}

// AppendValues is Values in one pass, appending the elements to dst: a
// short array read into a buffer of the caller's costs no allocation.
func AppendValues(dst []json.RawMessage, data []byte) ([]json.RawMessage, bool) {
	s := scanner{data: data}
	if !s.expect('[') {
		return dst, false
	}
	s.space()
	if s.peek() == ']' {
		s.pos++
		return dst, true
	}
	for {
		from := s.pos
		if !s.skipValue() {
			return dst, false
		}
		dst = append(dst, data[from:s.pos:s.pos])
		s.space()
		switch s.next() {
		case ']':
			return dst, true
		case ',':
			s.space()
		default:
			return dst, false
		}
	}
}

// CountValues returns an upper bound of the number of JSON values in data,
// which json.Valid accepted: one more than the commas, brackets and braces
// outside strings. It stops counting once the count passes limit, so that
// judging the size of a value costs at most one pass over it.
func CountValues(data []byte, limit int) int {
	n := 1
	for i := 0; i < len(data) && n <= limit; i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case ',', '[', '{':
			n++
		}
	}
	return n
}
