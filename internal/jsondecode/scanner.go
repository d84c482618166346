package jsondecode

// The lexical steps of the raw scanner (internal/jsonpos) that the decoder
// takes, as the scanner writes them: both packages are leaves, since the
// runner that imports them lies one layer above the last the import budget
// allows, so neither imports the other. FuzzDecode holds the decoder, and
// with it these steps, to encoding/json.

import (
	"bytes"
	"encoding/json"
	"strings"
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

// escapeToken escapes a key as a JSON-pointer reference token (RFC 6901).
func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}
