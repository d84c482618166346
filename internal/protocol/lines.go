package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
)

// LineTooLongError is a line over the bound its reader set: a peer that
// prints without end costs one error, never the reader's memory.
type LineTooLongError struct{ Max int }

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("longer than the %d-byte limit of one line", e.Max)
}

// ReadLine reads one line of at most max bytes before its '\n', which it
// keeps. It returns the reader's error as is: at the end of the input, the
// unfinished last line (maybe empty) with io.EOF. Bytes are read only as
// far as the line's end, so a line over the bound is refused before it is
// kept whole.
func ReadLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, &LineTooLongError{Max: max}
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// ReadAnswer reads the next answer of an implementation as the harness
// does: lines of white space only are skipped (a stray print of an empty
// line costs nothing), the line end ("\n" or "\r\n") is cut off, and a
// last line the input ended before finishing is no answer: its error is
// the reader's.
func ReadAnswer(r *bufio.Reader, max int) ([]byte, error) {
	for {
		line, err := ReadLine(r, max)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return bytes.TrimRight(line, "\r\n"), nil
		}
	}
}
