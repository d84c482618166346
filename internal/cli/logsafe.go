package cli

import (
	"io"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// logSafe wraps the standard error stream so that nothing printed there
// acts as a workflow command: messages on standard error quote fixture
// names, paths and schema text that a pull request wrote. Whole lines go
// through escape.LogLine; a line still open at the end is written by
// Flush.
func logSafe(w io.Writer) *escape.LogWriter {
	if w == nil {
		w = io.Discard
	}
	if s, ok := w.(*escape.LogWriter); ok {
		return s
	}
	return escape.NewTextWriter(w)
}
