package jsonout

import (
	"encoding/binary"
	"math/bits"
)

// Most of a report's bytes are in strings of printable ASCII (paths,
// messages, digests) and the indentation between them; looking at them a
// byte at a time, through a switch, was a third of reading a report.
// These scans look at eight bytes at a time for the first byte that needs
// a closer look, with the usual bit tricks: subtracting 0x01 from every
// byte of a word sets a byte's high bit where the byte was zero (and may
// set it in the bytes after that one, never before it, so the lowest byte
// found is the right one).

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroBytes has the high bit set in the lowest byte of x that is zero
// (and perhaps in higher ones); 0 when no byte is.
func zeroBytes(x uint64) uint64 { return (x - lows) & ^x & highs }

// plainRun is how many bytes b starts with that are printable ASCII other
// than '"' and '\\': the bytes a string holds as they are.
func plainRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if stop := unplain(binary.LittleEndian.Uint64(b[i:])); stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for ; i < len(b) && plainByte(b[i]); i++ {
	}
	return i
}

// unplain has the high bit set in the lowest byte of x that is not
// printable ASCII other than '"' and '\\' (and perhaps in higher ones); 0
// when every byte is. Below 0x20: x-0x20 borrows in that byte, as x-0x01
// does for a zero one.
func unplain(x uint64) uint64 {
	return (x-0x20*lows)&^x&highs | zeroBytes(x^('"'*lows)) | zeroBytes(x^('\\'*lows)) | x&highs
}

func plainByte(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }

// quoteOrEscape is the index of the first '"' or '\\' in b, or len(b).
func quoteOrEscape(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if stop := zeroBytes(x^('"'*lows)) | zeroBytes(x^('\\'*lows)); stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for ; i < len(b) && b[i] != '"' && b[i] != '\\'; i++ {
	}
	return i
}

// spaceRun is how many bytes of JSON whitespace b starts with.
func spaceRun(b []byte) int {
	i := 0
	// An indented report has runs of spaces after each newline.
	for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:]) == ' '*lows {
		i += 8
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return i
}
