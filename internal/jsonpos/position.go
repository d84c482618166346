// Package jsonpos is the project's one raw JSON scanner: where values lie
// in a file's bytes as written. It locates a value, so that reports can
// point at the exact lines of a failing command or field (Find, Span,
// LineColumn; position.go); it lists an object's members and an array's
// values as slices of the input (Members, Values; members.go); it finds
// duplicate keys (DuplicateKey; duplicates.go); it checks a file in one
// walk, its validity, its duplicate keys and where each of its commands
// lies (Check; check.go, valid.go); and it decodes values with numbers
// kept exact and bounded (Decode, InRange; decode.go), which shares the
// scanner's string and white-space steps (scanner.go): apart, it would
// need a copy of them or a layer of its own. A value's text without white
// space is internal/jsoncompact's, values as trees to edit
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
	"strconv"
	"strings"
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

// EscapeToken escapes a key as a JSON-pointer reference token (RFC 6901).
func EscapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
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
