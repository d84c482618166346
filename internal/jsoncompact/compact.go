// Package jsoncompact yields JSON text without the white space between
// its tokens, its numbers apart (Compact), for digests and cache keys. It
// reads tokens by their first bytes alone, with none of the structure the
// scanner (internal/jsonpos) walks, and imports nothing from the module.
package jsoncompact

import "iter"

// Compact yields valid JSON text without the white space between its
// tokens, in pieces that are slices of data (no copies): each number token
// alone, reported true, and the text between numbers (strings, literals,
// punctuation) in runs as long as white space allows. Joined, the pieces
// are the text json.Compact writes; a caller that only needs the compacted
// bytes (a digest) or the numbers apart from the rest (a key made of a
// value's shape) pays for one pass over the input and allocates nothing.
//
// Outside strings the scan stops only at white space, quotes and the bytes
// a number starts with; inside them, at quotes and backslashes. Like the
// scanner, it expects text that a decoder already accepted.
func Compact(data []byte) iter.Seq2[[]byte, bool] {
	return func(yield func(piece []byte, number bool) bool) {
		start, i := 0, 0 // the run of text being read is data[start:i]
		for i < len(data) {
			switch c := data[i]; {
			case c == '"':
				i, _ = stringEnd(data, i)
			case isSpace(c):
				if i > start && !yield(data[start:i], false) {
					return
				}
				for i < len(data) && isSpace(data[i]) {
					i++
				}
				start = i
			case c == '-' || (c >= '0' && c <= '9'):
				if i > start && !yield(data[start:i], false) {
					return
				}
				end := i + 1
				for end < len(data) && !scalarEnd[data[end]] {
					end++
				}
				if !yield(data[i:end], true) {
					return
				}
				start, i = end, end
			default:
				for i < len(data) && !compactStop[data[i]] {
					i++
				}
			}
		}
		if i > start {
			yield(data[start:], false)
		}
	}
}

// stringEnd is the offset just past the string token that starts at
// data[i]; for one that does not end, it is len(data) and false.
func stringEnd(data []byte, i int) (int, bool) {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(data), false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scalarEnd marks the bytes that end a number or a literal, as the
// scanner's table does.
var scalarEnd = [256]bool{',': true, ':': true, ']': true, '}': true, ' ': true, '\t': true, '\r': true, '\n': true}

// compactStop marks the bytes Compact stops at outside strings: white
// space, a quote, and the start of a number (outside strings, no other
// token holds a digit or a minus).
var compactStop = func() (stop [256]bool) {
	for _, c := range []byte(" \t\r\n\"-0123456789") {
		stop[c] = true
	}
	return stop
}()
