package escape

import (
	"bytes"
	"io"
	"strings"
)

// LogWriter passes what is written to w so that none of its lines can act
// as a workflow command when w is an Actions log. Write holds back the
// last, unfinished line; Flush writes it. It is a type of its own, not a
// Lines, so that a writer is known to be log-safe by its type.
type LogWriter struct{ Lines }

// NewLogWriter is for a whole document (JUnit XML, Markdown): "##[" gets
// a zero-width space wherever it is, and so does "::" at the start of a
// line, after any white space the runner skips; nothing else changes, so
// a document without such a line passes byte for byte. Lines end at LF or
// CR, as the runner reads them.
func NewLogWriter(w io.Writer) *LogWriter {
	return &LogWriter{Lines{w: w, ends: "\r\n", change: LogDocument}}
}

// NewTextWriter is for the lines of a message stream (standard error):
// each goes through LogLine, which also shows control characters.
func NewTextWriter(w io.Writer) *LogWriter {
	return &LogWriter{Lines{w: w, ends: "\n", change: func(b []byte) []byte { return []byte(LogLine(string(b))) }}}
}

// Lines passes what is written to w through change, whole lines at a
// time, for a change that must see a line whole: Write holds back the
// last, unfinished line, and more until at least run bytes wait; Flush
// writes what is left.
type Lines struct {
	w       io.Writer
	ends    string // the bytes that end a line
	run     int
	change  func([]byte) []byte
	pending []byte
}

// NewLines is a Lines whose lines end at any byte of ends.
func NewLines(w io.Writer, ends string, run int, change func([]byte) []byte) *Lines {
	return &Lines{w: w, ends: ends, run: run, change: change}
}

// Write writes the complete lines of what was written so far, once they
// are run bytes or more.
func (l *Lines) Write(p []byte) (int, error) {
	l.pending = append(l.pending, p...)
	if len(l.pending) < l.run {
		return len(p), nil
	}
	end := bytes.LastIndexAny(l.pending, l.ends)
	if end < 0 {
		return len(p), nil
	}
	if _, err := l.w.Write(l.change(l.pending[:end+1])); err != nil {
		return 0, err
	}
	l.pending = append(l.pending[:0], l.pending[end+1:]...)
	return len(p), nil
}

// Flush writes the last line, unfinished or not.
func (l *Lines) Flush() error {
	if len(l.pending) == 0 {
		return nil
	}
	_, err := l.w.Write(l.change(l.pending))
	l.pending = l.pending[:0]
	return err
}

// LogDocument is doc with every line made inert as NewLogWriter's writer
// makes it.
func LogDocument(doc []byte) []byte {
	if !bytes.Contains(doc, []byte("##[")) && !bytes.Contains(doc, []byte("::")) {
		return doc
	}
	var out bytes.Buffer
	for len(doc) > 0 {
		line := doc
		if i := bytes.IndexAny(doc, "\r\n"); i >= 0 {
			line = doc[:i+1]
		}
		doc = doc[len(line):]
		line = bytes.ReplaceAll(line, []byte("##["), []byte("##"+zeroWidthSpace+"["))
		if rest := bytes.TrimLeftFunc(line, runnerSpace); bytes.HasPrefix(rest, []byte("::")) {
			out.Write(line[:len(line)-len(rest)])
			out.WriteString(":" + zeroWidthSpace)
			line = rest[1:]
		}
		out.Write(line)
	}
	return out.Bytes()
}

// LogJSON is encoded JSON that no Actions log runs as a legacy workflow
// command: every '#' before a '[' becomes the JSON escape \u0023. In JSON
// the two meet only inside strings, where \u0023 means '#', so the
// document decodes to the same values. (No line of it can start with "::"
// either: a string's line breaks are escaped.)
func LogJSON(encoded []byte) []byte {
	return bytes.ReplaceAll(encoded, []byte("#["), []byte(`\u0023[`))
}

// VisibleLogText is s made inert in an Actions log, for text that names
// every invisible character (Visible): a line-leading "::" reads
// ":[U+200B]:" and "##[" reads "#[U+200B]#[", so the break is seen and no
// name of it can start a legacy command again ("##[U+200B]" would).
func VisibleLogText(s string) string {
	// Each pass removes a "##" without making one, so this ends.
	for strings.Contains(s, "##[") {
		s = strings.ReplaceAll(s, "##[", "#"+visibleBreak+"#[")
	}
	return Visible(string(LogDocument([]byte(s))))
}

// visibleBreak is how Visible names the zero-width space.
const visibleBreak = "[U+200B]"
