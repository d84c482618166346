package cli

import (
	"bytes"
	"io"
)

// zwsp is a zero-width space: it breaks a workflow command without
// changing what a reader sees.
const zwsp = "\u200b"

// logSafe wraps the standard error stream so that nothing printed there
// acts as a workflow command: the Actions runner executes "::cmd::" at the
// start of a line and the legacy "##[cmd]" anywhere in one, and messages on
// standard error quote fixture names, paths and schema text that a pull
// request wrote.
func logSafe(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	if _, ok := w.(*safeWriter); ok {
		return w
	}
	return &safeWriter{w: w, lineStart: true}
}

type safeWriter struct {
	w         io.Writer
	lineStart bool
	// hashes counts the '#' at the end of the previous write, so that a
	// "##[" split across two writes is still caught.
	hashes int
}

func (s *safeWriter) Write(p []byte) (int, error) {
	var b bytes.Buffer
	for i := 0; i < len(p); i++ {
		c := p[i]
		if s.lineStart && c == ':' && i+1 < len(p) && p[i+1] == ':' {
			b.WriteString(zwsp)
		}
		if c == '[' && s.hashes >= 2 {
			b.WriteString(zwsp)
		}
		b.WriteByte(c)
		switch c {
		case '\n', '\r':
			s.lineStart = true
		case ' ', '\t':
			// A command may be indented.
		default:
			s.lineStart = false
		}
		if c == '#' {
			s.hashes++
		} else {
			s.hashes = 0
		}
	}
	if _, err := s.w.Write(b.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}
