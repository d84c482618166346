// Package jsonpos is the project's one raw JSON scanner. It locates values
// in a file's bytes as written, so that reports can point at the exact lines
// of a failing command or field (Find, Span, LineColumn); it lists an
// object's members and an array's values as slices of the input (Members,
// Values); and it finds duplicate keys (DuplicateKey). Decoding with
// numbers kept exact and bounded is internal/jsondecode's, a value's text
// without white space internal/jsoncompact's, values as trees to edit
// internal/jsontree's.
//
// The locating functions work on raw bytes without building a tree, and
// they never recurse: a document nested 100,000 levels deep costs a loop,
// not a stack. The input is expected to be JSON that a decoder already
// accepted; on anything else the functions report "not found" rather than
// fail. The package imports nothing from the module.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Find returns the byte range [start, end) of the value addressed by the
// JSON pointer (RFC 6901) in data. The empty pointer addresses the whole
// document.
func Find(data []byte, pointer string) (start, end int, ok bool) {
	tokens, ok := splitPointer(pointer)
	if !ok {
		return 0, 0, false
	}
	s := scanner{data: data}
	s.space()
	for _, tok := range tokens {
		if !s.enter(tok) {
			return 0, 0, false
		}
	}
	start = s.pos
	if !s.skipValue() {
		return 0, 0, false
	}
	return start, s.pos, true
}

// MemberValue returns where the value of the member key of the object data
// holds lies, as Find(data, "/"+key) does for a key without '/' or '~',
// without making a string of each key it passes: the runner looks up the
// cmd of every command of a long stream.
func MemberValue(data []byte, key string) (start, end int, ok bool) {
	s := scanner{data: data}
	if !s.expect('{') {
		return 0, 0, false
	}
	for {
		s.space()
		k, ok := s.key()
		if !ok {
			return 0, 0, false
		}
		if !s.expect(':') {
			return 0, 0, false
		}
		s.space()
		start := s.pos
		if !s.skipValue() {
			return 0, 0, false
		}
		if string(k) == key {
			return start, s.pos, true
		}
		if !s.expect(',') {
			return 0, 0, false
		}
	}
}

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

// Range is a 1-based line and column span, the shape of model.Span (the
// package imports nothing from the module, so callers convert).
type Range struct {
	Line, Column, EndLine, EndColumn int
}

// Span converts the byte range [start, end) of data to a 1-based span. The
// end position is that of the last byte of the range.
func Span(data []byte, start, end int) Range {
	line, col := LineColumn(data, start)
	last := end - 1
	if last < start {
		last = start
	}
	endLine, endCol := LineColumn(data, last)
	return Range{Line: line, Column: col, EndLine: endLine, EndColumn: endCol}
}

// LineColumn returns the 1-based line and column of byte offset off. Lines
// end at LF; columns count characters, so that they match what an editor
// shows for UTF-8 text. Offsets past the end address the end of the data.
func LineColumn(data []byte, off int) (line, column int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}

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

type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

func (s *scanner) next() byte {
	c := s.peek()
	s.pos++
	return c
}

// expect moves past white space and the byte after it, and reports whether
// that byte is c: the brace, bracket, colon or comma the grammar puts there.
func (s *scanner) expect(c byte) bool {
	s.space()
	return s.next() == c
}

func (s *scanner) space() { s.pos = spaceEnd(s.data, s.pos) }

// str reads a string token and returns its decoded value.
func (s *scanner) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.pos
	if !s.skipString() {
		return "", false
	}
	return unquote(s.data[start:s.pos])
}

// unquote decodes a string token. One without escapes in valid UTF-8 is
// its own bytes; any other is left to encoding/json, which decodes it the
// way every other reader here does.
func unquote(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return v, true
}

// skipString moves past a string token without decoding it.
func (s *scanner) skipString() bool {
	s.pos++
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case '"':
			s.pos++
			return true
		}
		s.pos++
	}
	return false
}

// key reads a string token and returns its decoded bytes: a slice of the
// input when the string holds no escape, else a decoded copy.
func (s *scanner) key() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.pos
	if !s.skipString() {
		return nil, false
	}
	raw := s.data[start:s.pos]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	return []byte(v), true
}

// skipValue moves past one value, counting brackets instead of recursing.
func (s *scanner) skipValue() bool {
	s.space()
	depth := 0
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; c {
		case '"':
			if !s.skipString() {
				return false
			}
		case '{', '[':
			depth++
			s.pos++
		case '}', ']':
			if depth == 0 {
				return false
			}
			depth--
			s.pos++
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return false
			}
			s.pos++
		default:
			// A number or a literal: up to the next delimiter.
			for s.pos < len(s.data) && !scalarEnd[s.data[s.pos]] {
				s.pos++
			}
		}
		if depth == 0 {
			return true
		}
	}
	return false
}

// enter moves from the start of a container into the value of its member
// named by tok (an object key or an array index).
func (s *scanner) enter(tok string) bool {
	s.space()
	switch s.next() {
	case '{':
		for {
			s.space()
			if s.peek() == '}' {
				return false
			}
			k, ok := s.str()
			if !ok || !s.expect(':') {
				return false
			}
			s.space()
			if k == tok {
				return true
			}
			// Not the one sought, which is still ahead: a comma follows.
			if !s.skipValue() || !s.expect(',') {
				return false
			}
		}
	case '[':
		want, err := strconv.Atoi(tok)
		if err != nil || want < 0 {
			return false
		}
		for i := 0; ; i++ {
			s.space()
			if s.peek() == ']' {
				return false
			}
			if i == want {
				return true
			}
			// Not the one sought, which is still ahead: a comma follows.
			if !s.skipValue() || !s.expect(',') {
				return false
			}
		}
	}
	return false
}

func splitPointer(p string) ([]string, bool) {
	if p == "" {
		return nil, true
	}
	if p[0] != '/' {
		return nil, false
	}
	parts := strings.Split(p[1:], "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// spaceEnd is the offset of the first byte at or after i in data that is
// not JSON white space.
func spaceEnd(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// scalarEnd marks the bytes that end a number or a literal.
var scalarEnd = [256]bool{',': true, ':': true, ']': true, '}': true, ' ': true, '\t': true, '\r': true, '\n': true}

// EscapeToken escapes a key as a JSON-pointer reference token (RFC 6901).
func EscapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

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
