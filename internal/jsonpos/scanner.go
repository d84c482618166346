package jsonpos

// The lexical steps every walk of the package takes: white space, strings,
// keys, and whole values skipped without recursion.

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

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
