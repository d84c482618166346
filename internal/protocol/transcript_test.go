package protocol_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

func transcripts(t *testing.T) []*protocol.Transcript {
	t.Helper()
	ts, err := protocol.LoadTranscripts(os.DirFS("testdata/transcripts"))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestTranscriptsCodec replays the harness side of every transcript
// through the codec alone: each request is what Encode writes for it, and
// each answer, read as the harness reads the adapter's output, decodes to
// the transcript's conclusion.
func TestTranscriptsCodec(t *testing.T) {
	for _, tr := range transcripts(t) {
		t.Run(tr.Name, func(t *testing.T) {
			for _, s := range tr.Steps {
				if err := reencode(s); err != nil {
					t.Errorf("line %d: %v", s.Line, err)
				}
			}
			if tr.Harness() {
				if err := decodeAnswers(tr); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// reencode checks that a request is the line Encode writes for the
// message it holds.
func reencode(s protocol.Step) error {
	var msg any
	switch s.Type {
	case protocol.TypeHello:
		head, err := protocol.DecodeHead(s.Request)
		if err != nil {
			return err
		}
		msg = protocol.Hello{Type: head.Type, Protocol: head.Protocol}
	case protocol.TypeFixture:
		f, err := protocol.DecodeFixture(s.Request)
		if err != nil {
			return err
		}
		msg = f
	default:
		msg = protocol.Goodbye{Type: s.Type}
	}
	b, err := protocol.Encode(msg)
	if err != nil {
		return err
	}
	if want := string(s.Request) + "\n"; string(b) != want {
		return fmt.Errorf("Encode writes\n%s\nthe transcript has\n%s", b, want)
	}
	return nil
}

// decodeAnswers reads the adapter's output as one stream, as the harness
// does, and checks every conclusion.
func decodeAnswers(tr *protocol.Transcript) error {
	var out bytes.Buffer
	for _, s := range tr.Steps {
		for _, a := range s.Answers {
			out.Write(a)
			out.WriteByte('\n')
		}
	}
	maxLine := tr.MaxLine
	if maxLine == 0 {
		maxLine = 64 << 20
	}
	r := bufio.NewReader(&out)
	session := 0 // the protocol version of the accepted hello
	for _, s := range tr.Steps {
		if s.Type == protocol.TypeGoodbye {
			continue
		}
		var msg any
		line, err := protocol.ReadAnswer(r, maxLine)
		if err == nil && s.Type == protocol.TypeHello {
			var h *protocol.Hello
			if h, err = protocol.DecodeHello(line); err == nil {
				msg, session = h, h.Protocol
			}
		} else if err == nil {
			f, _ := protocol.DecodeFixture(s.Request)
			msg, err = protocol.DecodeVerdict(line, f.Seq, session)
		}
		if err := conclude(s, msg, err); err != nil {
			return fmt.Errorf("line %d: %v", s.Line, err)
		}
		if err != nil {
			return nil
		}
	}
	return nil
}

// conclude compares what the codec made of an answer with the
// transcript's conclusion.
func conclude(s protocol.Step, msg any, err error) error {
	switch {
	case err != nil && s.Recorded != nil:
		return fmt.Errorf("refused (%v), the transcript records %s", err, s.Recorded)
	case err != nil && !strings.Contains(err.Error(), s.Refusal):
		return fmt.Errorf("refused with %q, want %q", err, s.Refusal)
	case err != nil:
		return nil
	case s.Recorded == nil:
		return fmt.Errorf("accepted, the transcript says %q", s.Refusal)
	}
	b, err := protocol.Encode(msg)
	if err != nil {
		return err
	}
	if !sameJSON(b, s.Recorded) {
		return fmt.Errorf("recorded %s, want %s", bytes.TrimSpace(b), s.Recorded)
	}
	return nil
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// TestPythonExampleReplays runs the example adapter's own replay of the
// transcripts (examples/python/test_drp2_adapter.py), so that go test
// covers it where python3 is installed.
func TestPythonExampleReplays(t *testing.T) {
	script := testkit.PythonFile(t, "test_drp2_adapter.py")
	out, err := exec.Command("python3", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}
