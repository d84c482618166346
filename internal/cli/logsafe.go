package cli

import (
	"bytes"
	"io"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// logSafe wraps the standard error stream so that nothing printed there
// acts as a workflow command: messages on standard error quote fixture
// names, paths and schema text that a pull request wrote. Whole lines go
// through escape.LogLine; a line still open at the end is written by
// flush.
func logSafe(w io.Writer) *safeWriter {
	if w == nil {
		w = io.Discard
	}
	if s, ok := w.(*safeWriter); ok {
		return s
	}
	return &safeWriter{w: w}
}

type safeWriter struct {
	w       io.Writer
	pending []byte
}

func (s *safeWriter) Write(p []byte) (int, error) {
	s.pending = append(s.pending, p...)
	end := bytes.LastIndexByte(s.pending, '\n')
	if end < 0 {
		return len(p), nil
	}
	lines := s.pending[:end+1]
	if _, err := io.WriteString(s.w, escape.LogLine(string(lines))); err != nil {
		return 0, err
	}
	s.pending = append(s.pending[:0], s.pending[end+1:]...)
	return len(p), nil
}

// flush writes what is left of an unfinished line.
func (s *safeWriter) flush() {
	if len(s.pending) > 0 {
		io.WriteString(s.w, escape.LogLine(string(s.pending)))
		s.pending = s.pending[:0]
	}
}
