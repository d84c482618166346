package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// Versions are the protocol versions an implementation speaks.
type Versions struct{ Min, Max int }

// Server is an implementation under an adapter-side replay: it reads the
// requests from in and writes its answers to out until goodbye or the end
// of in.
type Server func(in io.Reader, out io.Writer) error

// ReplayTranscript plays t's requests to serve, one at a time, each once the answer
// to the one before is written, and compares the answers with t's as the
// README says. A fixture that fails in a phase the implementation's hello
// does not claim is not sent, as the harness does not send it.
func ReplayTranscript(t *Transcript, v Versions, serve Server) error {
	var out bytes.Buffer
	in := &requests{t: t, out: &out}
	if err := serve(in, &out); err != nil {
		return fmt.Errorf("the implementation failed: %v", err)
	}
	// It reads every request up to goodbye, and may stop there.
	last := len(t.Steps)
	if i := slices.IndexFunc(t.Steps, func(s Step) bool { return s.Type == "goodbye" }); i >= 0 {
		last = i + 1
	}
	if in.next < last {
		return fmt.Errorf("line %d: the implementation stopped reading before this request", t.Steps[in.next].Line)
	}
	var got [][]byte
	for _, line := range bytes.Split(out.Bytes(), []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			got = append(got, line)
		}
	}
	var s session
	n := 0
	for _, step := range in.sent {
		for _, want := range step.Answers {
			if n >= len(got) {
				return fmt.Errorf("line %d: no answer, want %s", step.Line, want)
			}
			if err := compare(want, got[n], v, &s); err != nil {
				return fmt.Errorf("line %d: %v\nwant %s\ngot  %s", step.Line, err, want, got[n])
			}
			n++
		}
	}
	if n < len(got) {
		return fmt.Errorf("an answer no request asked for: %s", got[n])
	}
	return nil
}

// requests is the input of a replay: one request line per Read, chosen
// when the implementation asks for it, so that the answers so far (the
// hello's phases) decide whether a fixture is sent.
type requests struct {
	t       *Transcript
	out     *bytes.Buffer
	next    int
	pending []byte
	sent    []Step
}

func (r *requests) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.next >= len(r.t.Steps) {
			return 0, io.EOF
		}
		step := r.t.Steps[r.next]
		r.next++
		if r.next > 1 && !claimed(step, firstLine(r.out.Bytes())) {
			continue
		}
		r.sent = append(r.sent, step)
		r.pending = append(append([]byte(nil), step.Request...), '\n')
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(bytes.TrimLeft(b, " \t\r\n"), []byte("\n"))
	return line
}

// claimed reports whether step is sent to an implementation that said
// hello: all but a fixture whose expected verdict fails in a phase the
// hello's phases leave out.
func claimed(step Step, hello []byte) bool {
	if step.Type != "fixture" || len(step.Answers) == 0 {
		return true
	}
	var h struct{ Phases []string }
	var want struct{ Outcome, Phase string }
	if json.Unmarshal(hello, &h) != nil || json.Unmarshal(step.Answers[0], &want) != nil {
		return true
	}
	return h.Phases == nil || want.Outcome != "error" || want.Phase == "" || slices.Contains(h.Phases, want.Phase)
}

// session is what the comparison has learnt from the implementation's
// hello.
type session struct {
	protocol int
	executes bool
}

// compare holds one answer to the expected one, normalising both as the
// README defines.
func compare(want, got []byte, v Versions, s *session) error {
	var w, g map[string]any
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("the transcript's answer: %v", err)
	}
	if err := json.Unmarshal(got, &g); err != nil || g == nil {
		return fmt.Errorf("not one JSON object: %v", err)
	}
	switch w["type"] {
	case "hello":
		return compareHello(w, g, v, s)
	case "verdict":
		normaliseVerdict(w, g, s)
	}
	if !reflect.DeepEqual(w, g) {
		return errors.New("the answers differ")
	}
	return nil
}

// compareHello compares what is the protocol's in a hello: its type, a
// name, and the version, which is the expected one brought within the
// versions the implementation speaks. The rest describes the
// implementation.
func compareHello(w, g map[string]any, v Versions, s *session) error {
	name, _ := g["name"].(string)
	p, _ := g["protocol"].(float64)
	asked, _ := w["protocol"].(float64)
	want := min(max(asked, float64(v.Min)), float64(v.Max))
	switch {
	case g["type"] != "hello":
		return fmt.Errorf("type %v, want hello", g["type"])
	case strings.TrimSpace(name) == "":
		return errors.New("no name")
	case p != want:
		return fmt.Errorf("protocol %v, want %v", g["protocol"], want)
	case p < 2 && (g["phases"] != nil || g["adapter"] != nil || g["error"] != nil):
		return errors.New("members of protocol 2 in a protocol 1 hello")
	}
	s.protocol, s.executes = int(p), g["executes"] == true
	return nil
}

// normaliseVerdict leaves in a verdict what the harness judges: never the
// message; the phase only where the implementation gives one or must
// (protocol 1); the replies only from an implementation that executes,
// none being the same as an empty list, and of their data only the
// number of bytes (the bytes themselves are Level 3).
func normaliseVerdict(w, g map[string]any, s *session) {
	delete(w, "message")
	delete(g, "message")
	if _, ok := g["phase"]; !ok && s.protocol >= 2 {
		delete(w, "phase")
	}
	for _, m := range []map[string]any{w, g} {
		replies, _ := m["replies"].([]any)
		if !s.executes || len(replies) == 0 {
			delete(m, "replies")
		}
		for _, r := range replies {
			rm, _ := r.(map[string]any)
			rbs, _ := rm["readbacks"].([]any)
			for _, rb := range rbs {
				if e, ok := rb.(map[string]any); ok {
					e["data"] = dataLength(e["data"])
				}
			}
		}
	}
}

// dataLength is the number of bytes a readback's base64 data holds, or
// the data as it is when it is not base64.
func dataLength(data any) any {
	s, ok := data.(string)
	if !ok {
		return data
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return data
	}
	return float64(len(b))
}
