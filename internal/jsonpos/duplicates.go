package jsonpos

// Duplicate keys, and the outline of the top-level object, in one walk
// whose frames Check walks too.

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// DuplicateKey finds the first object key, in document order, that repeats
// a key of the same object. It returns the JSON pointer of the object, the
// key, and the byte offset of the repeated key.
func DuplicateKey(data []byte) (object, key string, offset int, found bool) {
	return scan(data, nil)
}

// Outline is what Scan learns of a document besides its duplicate keys:
// the members of its top-level object, as Members lists them, and for each
// member whose value is an array, the number of its elements (-1 for any
// other value), which lets ValuesN index the array in one pass.
type Outline struct {
	Members []Member
	Lengths []int
}

// Scan is DuplicateKey and Members in one walk of data: found and the
// pointer, key and offset of the first repeated key, or else the outline
// of the top-level object (empty when data is not an object).
func Scan(data []byte) (object, key string, offset int, found bool, out Outline) {
	object, key, offset, found = scan(data, &out)
	if found {
		return object, key, offset, found, Outline{}
	}
	return "", "", 0, false, out
}

// scan walks data for DuplicateKey, and records the outline of the
// top-level object in out when it is not nil.
func scan(data []byte, out *Outline) (object, key string, offset int, found bool) {
	s := scanner{data: data}
	frames := framePool.Get().(*[]frame)
	defer putFrames(frames)
	stack := (*frames)[:0]
	// The walk may append past the pooled capacity; the longer stack goes
	// back to the pool.
	defer func() { *frames = stack }()
	o := outliner{out: out}
	for {
		s.space()
		if s.pos >= len(data) {
			return "", "", 0, false
		}
		c := data[s.pos]
		if c != '}' && c != ']' && c != ',' {
			o.start(s.pos)
		}
		switch {
		case c == '{' || c == '[':
			enterChild(stack)
			s.pos++
			if len(stack) < cap(stack) {
				// Reuse the frame left by a closed sibling, and its key slice.
				stack = stack[:len(stack)+1]
				f := &stack[len(stack)-1]
				*f = frame{isObject: c == '{', keys: f.keys[:0]}
			} else {
				stack = append(stack, frame{isObject: c == '{'})
			}
			if c == '{' {
				s.space()
				if s.peek() == '}' {
					continue
				}
				if !readKey(&s, &stack[len(stack)-1]) {
					return "", "", 0, false
				}
				stack[len(stack)-1].repeated()
				o.key(stack)
			}
			continue
		case c == '}' || c == ']':
			if len(stack) == 0 {
				return "", "", 0, false
			}
			s.pos++
			closed := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			o.end(stack, s.pos, &closed)
		case c == ',':
			s.pos++
			if len(stack) == 0 {
				return "", "", 0, false
			}
			if f := &stack[len(stack)-1]; f.isObject {
				s.space()
				keyAt := s.pos
				if !readKey(&s, f) {
					return "", "", 0, false
				}
				if f.repeated() {
					return framePointer(stack[:len(stack)-1]), string(f.token), keyAt, true
				}
				o.key(stack)
			}
			continue
		default:
			enterChild(stack)
			if !s.skipValue() {
				return "", "", 0, false
			}
			o.end(stack, s.pos, nil)
		}
		if len(stack) == 0 {
			return "", "", 0, false
		}
	}
}

// framePool keeps the frames of finished walks, with their key and token
// buffers, so that a run of many small documents does not make them anew
// for each.
var framePool = sync.Pool{New: func() any { return new([]frame) }}

// putFrames returns frames to the pool without what they refer to: the
// keys are slices of a document that may be freed or unmapped, and a large
// object's map is not worth keeping.
func putFrames(frames *[]frame) {
	all := (*frames)[:cap(*frames)]
	if len(all) > 64 {
		return // a deep document's stack is left to the collector
	}
	for i := range all {
		clear(all[i].keys[:cap(all[i].keys)])
		all[i].keys, all[i].seen, all[i].token = all[i].keys[:0], nil, nil
	}
	framePool.Put(frames)
}

// enterChild records, in the innermost frame, which member is read next.
func enterChild(stack []frame) {
	// An array frame's token is its own buffer, never a slice of data.
	if n := len(stack); n > 0 && !stack[n-1].isObject {
		stack[n-1].token = strconv.AppendInt(stack[n-1].token[:0], int64(stack[n-1].index), 10)
		stack[n-1].index++
	}
}

// outliner records the Outline during scan; its out is nil for
// DuplicateKey alone.
type outliner struct {
	out *Outline
	// member is the key of the top-level member whose value starts next,
	// when pending.
	member  string
	pending bool
}

// key notes a key just read, when it is one of the top-level object's.
func (o *outliner) key(stack []frame) {
	if o.out != nil && len(stack) == 1 {
		o.member, o.pending = memberKey(stack[0].token), true
	}
}

// start notes a value that starts at pos: a top-level member's after key.
func (o *outliner) start(pos int) {
	if o.pending {
		if o.out.Members == nil {
			// A fixture has about eight members: room for them at once.
			o.out.Members, o.out.Lengths = make([]Member, 0, 8), make([]int, 0, 8)
		}
		o.out.Members = append(o.out.Members, Member{Key: o.member, Start: pos})
		o.out.Lengths = append(o.out.Lengths, -1)
	}
	o.pending = false
}

// end notes a value that ended at pos, closed when it was an object or an
// array: the value of the last top-level member when the walk is back in
// the top-level object.
func (o *outliner) end(stack []frame, pos int, closed *frame) {
	if o.out == nil || len(stack) != 1 || !stack[0].isObject || len(o.out.Members) == 0 {
		return
	}
	o.out.Members[len(o.out.Members)-1].End = pos
	if closed != nil && !closed.isObject {
		o.out.Lengths[len(o.out.Lengths)-1] = closed.index
	}
}

// memberKey is a key as Members gives it: a key read raw (no escape)
// whose bytes are not UTF-8 is decoded as the JSON decoder does, each
// invalid byte becoming U+FFFD.
func memberKey(token []byte) string {
	if utf8.Valid(token) {
		return string(token)
	}
	k, _ := unquote(append(append([]byte{'"'}, token...), '"'))
	return k
}

// frame is an open container during DuplicateKey's walk. The pointer of a
// value is built from the frames' tokens only when it is reported, so that
// deep documents cost linear time.
//
// Keys are kept as slices of the input when they hold no escape, so that a
// stream of a million small objects allocates no key strings; the frames
// themselves are reused as the walk goes up and down.
type frame struct {
	isObject bool
	keys     [][]byte            // keys so far, while few
	seen     map[string]struct{} // keys so far, once many
	index    int                 // next array index
	token    []byte              // key or index of the member being read
}

func framePointer(stack []frame) string {
	var b strings.Builder
	for _, f := range stack {
		b.WriteByte('/')
		b.WriteString(EscapeToken(string(f.token)))
	}
	return b.String()
}

// readKey reads `"key" :` into f.
func readKey(s *scanner, f *frame) bool {
	k, ok := s.key()
	if !ok {
		return false
	}
	if !s.expect(':') {
		return false
	}
	f.token = k
	return true
}

// repeated reports whether the key just read was seen before in this object,
// and remembers it. Small objects use a slice; large ones switch to a map so
// that an object with a million keys stays linear.
func (f *frame) repeated() bool {
	const few = 16
	if f.seen != nil {
		if _, dup := f.seen[string(f.token)]; dup {
			return true
		}
		f.seen[string(f.token)] = struct{}{}
		return false
	}
	for _, k := range f.keys {
		if bytes.Equal(k, f.token) {
			return true
		}
	}
	f.keys = append(f.keys, f.token)
	if len(f.keys) > few {
		f.seen = make(map[string]struct{}, 2*few)
		for _, k := range f.keys {
			f.seen[string(k)] = struct{}{}
		}
		f.keys = nil
	}
	return false
}
