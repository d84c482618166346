package jsonpos

import "unicode/utf8"

// maxNesting is encoding/json's limit on open objects and arrays: its
// scanner refuses the 10,001st, so json.Valid does too.
const maxNesting = 10000

// Valid reports whether data is JSON text in valid UTF-8: the same answer
// as utf8.Valid(data) && json.Valid(data), in one pass and without the
// standard scanner's call per byte. It only answers; a caller explains a
// false answer with the standard library, which says why.
func Valid(data []byte) bool { return Check(data, "", nil).Valid }

// validator reads the tokens of JSON text at pos, checking each as the
// standard scanner and utf8.Valid would; Check walks the structure.
type validator struct {
	data []byte
	pos  int
}

// scalar reads a string, number or literal starting with c at pos.
func (v *validator) scalar(c byte) bool {
	switch {
	case c == '"':
		return v.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return v.number()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	}
	return false
}

func (v *validator) space() { v.pos = spaceEnd(v.data, v.pos) }

// plain marks the bytes a string holds as themselves: printable ASCII but
// the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string token: no control character, known escapes only, and
// valid UTF-8 (which the standard scanner alone does not check).
func (v *validator) str() bool {
	d := v.data
	i := v.pos + 1
	for {
		for i < len(d) && plain[d[i]] {
			i++
		}
		if i >= len(d) {
			return false
		}
		switch c := d[i]; {
		case c == '"':
			v.pos = i + 1
			return true
		case c == '\\':
			n, ok := escape(d[i+1:])
			if !ok {
				return false
			}
			i += 1 + n
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		default: // a control character
			return false
		}
	}
}

// escape reads the escape after a backslash and returns its length.
func escape(d []byte) (int, bool) {
	if len(d) == 0 {
		return 0, false
	}
	switch d[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1, true
	case 'u':
		if len(d) < 5 {
			return 0, false
		}
		for _, h := range d[1:5] {
			if !isHex(h) {
				return 0, false
			}
		}
		return 5, true
	}
	return 0, false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; what may
// follow it is after's to judge.
func (v *validator) number() bool {
	d := v.data
	i := v.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		if i+1 >= len(d) || !isDigit(d[i+1]) {
			return false
		}
		i = digits(d, i+1)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return false
		}
		i = digits(d, i)
	}
	v.pos = i
	return true
}

func digits(d []byte, i int) int {
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (v *validator) literal(word string) bool {
	if len(v.data)-v.pos < len(word) || string(v.data[v.pos:v.pos+len(word)]) != word {
		return false
	}
	v.pos += len(word)
	return true
}
