// Package transcript reads the protocol transcripts of
// internal/protocol/testdata/transcripts (their README defines the
// format) and replays their adapter side against a Go implementation. The
// Node and Python replays of the same files follow the same README.
package protocol

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Transcript is one session between the harness and an adapter.
type Transcript struct {
	Name string
	// Side is "both", "harness" or "adapter": which side replays it.
	Side string
	// MaxLine bounds one answer line on the harness side; 0 is the
	// harness's default.
	MaxLine int
	Steps   []Step
}

// Step is one request of the harness and what follows it.
type Step struct {
	// Line is the request's line in the file, for messages.
	Line int
	// Request is the harness's line, without its '\n'; Type is its type.
	Request []byte
	Type    string
	// Answers are the adapter's lines after it, without their '\n'.
	Answers [][]byte
	// Recorded is the message the harness decodes the answer to (a
	// "=" line); nil when it refuses the answer or none is due.
	Recorded []byte
	// Refusal is the text of the error that ends the session (a "!"
	// line), empty when there is none.
	Refusal string
}

// Harness reports whether the harness side replays t.
func (t *Transcript) Harness() bool { return t.Side != "adapter" }

// Adapter reports whether the adapter side replays t.
func (t *Transcript) Adapter() bool { return t.Side != "harness" }

// Load parses every *.txt file of fsys's root, in name order.
func LoadTranscripts(fsys fs.FS) ([]*Transcript, error) {
	names, err := fs.Glob(fsys, "*.txt")
	if err != nil {
		return nil, err
	}
	var out []*Transcript
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		t, err := ParseTranscript(strings.TrimSuffix(path.Base(name), ".txt"), data)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no transcripts")
	}
	return out, nil
}

// ParseTranscript reads one transcript and checks that it is well formed.
func ParseTranscript(name string, data []byte) (*Transcript, error) {
	t := &Transcript{Name: name}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if err := t.parseLine(i+1, line); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return t, nil
}

func (t *Transcript) parseLine(n int, line string) error {
	if strings.Contains(line, "\r") {
		return fmt.Errorf("a carriage return: write it as %%0D in a <%% line")
	}
	if line == "" || line[0] == '#' {
		return nil
	}
	kind, text := line[:1], strings.TrimPrefix(line[1:], " ")
	if strings.HasPrefix(line, "<%") {
		kind, text = "<%", strings.TrimPrefix(line[2:], " ")
	}
	if !strings.Contains("><=!", kind[:1]) {
		return t.directive(line)
	}
	if kind == ">" {
		head, err := DecodeHead([]byte(text))
		if err != nil {
			return err
		}
		t.Steps = append(t.Steps, Step{Line: n, Request: []byte(text), Type: head.Type})
		return nil
	}
	if len(t.Steps) == 0 {
		return fmt.Errorf("%q before the first request", kind)
	}
	s := &t.Steps[len(t.Steps)-1]
	switch kind {
	case "<":
		s.Answers = append(s.Answers, []byte(text))
	case "<%":
		b, err := unpercent(text)
		if err != nil {
			return err
		}
		s.Answers = append(s.Answers, b)
	case "=":
		s.Recorded = []byte(text)
	case "!":
		s.Refusal = text
	}
	return nil
}

// directive reads "side: ..." or "max-line: N".
func (t *Transcript) directive(line string) error {
	key, value, ok := strings.Cut(line, ":")
	value = strings.TrimSpace(value)
	switch {
	case !ok:
		return fmt.Errorf("not a directive, comment or exchange line: %q", line)
	case len(t.Steps) > 0:
		return fmt.Errorf("directive %q after the first request", key)
	case key == "side" && slices.Contains([]string{"both", "harness", "adapter"}, value):
		t.Side = value
	case key == "max-line":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return fmt.Errorf("max-line %q is not a positive number", value)
		}
		t.MaxLine = n
	default:
		return fmt.Errorf("unknown directive %q", line)
	}
	return nil
}

// unpercent decodes %HH to the byte HH; every other byte stands for
// itself.
func unpercent(s string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out = append(out, s[i])
			continue
		}
		if i+3 > len(s) {
			return nil, fmt.Errorf("%% at %d is not followed by two hex digits", i)
		}
		b, err := hex.DecodeString(s[i+1 : i+3])
		if err != nil {
			return nil, fmt.Errorf("%% at %d is not followed by two hex digits", i)
		}
		out = append(out, b[0])
		i += 2
	}
	return out, nil
}

// check holds a transcript to the README's rules.
func (t *Transcript) check() error {
	if t.Side == "" {
		return fmt.Errorf("no side: directive")
	}
	if len(t.Steps) == 0 || t.Steps[0].Type != TypeHello {
		return fmt.Errorf("the first request must be a hello")
	}
	for i, s := range t.Steps {
		answered := s.Type == TypeHello || s.Type == TypeFixture
		switch {
		case !slices.Contains([]string{TypeHello, TypeFixture, TypeGoodbye}, s.Type):
			return fmt.Errorf("line %d: a request of type %q", s.Line, s.Type)
		case s.Refusal != "" && i != len(t.Steps)-1:
			return fmt.Errorf("line %d: a refusal ends the session, but requests follow", s.Line)
		case t.Harness() && answered && s.Recorded == nil && s.Refusal == "":
			return fmt.Errorf("line %d: the harness's conclusion (= or !) is missing", s.Line)
		case !t.Harness() && (s.Recorded != nil || s.Refusal != ""):
			return fmt.Errorf("line %d: a conclusion in a transcript only the adapter side replays", s.Line)
		case t.Adapter() && len(s.Answers) > 1:
			return fmt.Errorf("line %d: the adapter side expects at most one answer a request", s.Line)
		case t.Adapter() && len(s.Answers) == 1 && len(bytes.TrimSpace(s.Answers[0])) == 0:
			return fmt.Errorf("line %d: the adapter side expects a message, not a blank line", s.Line)
		}
	}
	return nil
}
