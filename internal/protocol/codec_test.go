package protocol_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Encode repeats escape.LogJSON so that the protocol imports no renderer;
// the two must write the same bytes, and a line that quotes a workflow
// command reads back as the same text.
func TestEncodeIsLogJSON(t *testing.T) {
	for _, msg := range []string{"", "##[error]boom", "#[", "a#b[c", "::error::x", `"\#[`, "#\u0023[", "##[##[group]"} {
		v := protocol.Verdict{Type: protocol.TypeVerdict, Seq: 1, Outcome: "error", Code: "X", Message: msg}
		got, err := protocol.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := json.Marshal(v)
		if want := string(escape.LogJSON(plain)) + "\n"; string(got) != want {
			t.Errorf("%q: Encode wrote %s, LogJSON %s", msg, got, want)
		}
		if strings.Contains(string(got), "#[") || strings.Count(string(got), "\n") != 1 {
			t.Errorf("%q: %q", msg, got)
		}
		back, err := protocol.DecodeVerdict(got, 1, 2)
		if err != nil || back.Message != msg {
			t.Errorf("%q read back as %+v, %v", msg, back, err)
		}
	}
}

// ReadLine keeps a last line without its end, and refuses a line over the
// bound however the reader's buffer cuts it.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 40)
	r := bufio.NewReaderSize(strings.NewReader(long+"\n"+long+"\nlast"), 16)
	if line, err := protocol.ReadLine(r, 40); err != nil || string(line) != long+"\n" {
		t.Errorf("a line at the bound: %q, %v", line, err)
	}
	var tooLong *protocol.LineTooLongError
	if _, err := protocol.ReadLine(r, 39); !errors.As(err, &tooLong) || tooLong.Max != 39 {
		t.Errorf("a line over the bound: %v", err)
	}
	r = bufio.NewReader(strings.NewReader("last"))
	if line, err := protocol.ReadLine(r, 40); !errors.Is(err, io.EOF) || string(line) != "last" {
		t.Errorf("the last line: %q, %v", line, err)
	}
	// The harness does not take a line cut short by the end of output.
	r = bufio.NewReader(strings.NewReader(" \r\n\n{}\r\n{"))
	if line, err := protocol.ReadAnswer(r, 40); err != nil || string(line) != "{}" {
		t.Errorf("answer: %q, %v", line, err)
	}
	if line, err := protocol.ReadAnswer(r, 40); !errors.Is(err, io.EOF) || line != nil {
		t.Errorf("an unfinished answer: %q, %v", line, err)
	}
}

// AnswerHello answers in the harness's version, or its own newest to a
// newer harness, and a version-1 answer has no member of version 2.
func TestAnswerHello(t *testing.T) {
	me := protocol.Hello{Name: "me", Phases: []string{"semantic_validation"}, Error: "no GPU", Adapter: &protocol.Adapter{Vendor: "v"}}
	for asked, want := range map[int]string{
		1: `{"type":"hello","protocol":1,"name":"me"}`,
		2: `{"type":"hello","protocol":2,"name":"me","phases":["semantic_validation"],"adapter":{"vendor":"v"},"error":"no GPU"}`,
		3: `{"type":"hello","protocol":2,"name":"me","phases":["semantic_validation"],"adapter":{"vendor":"v"},"error":"no GPU"}`,
	} {
		h, err := protocol.AnswerHello(me, asked)
		b, _ := protocol.Encode(h)
		if err != nil || string(b) != want+"\n" {
			t.Errorf("to protocol %d: %s, %v", asked, b, err)
		}
	}
	if _, err := protocol.AnswerHello(me, 0); err == nil || !strings.Contains(err.Error(), "the harness speaks protocol 0") {
		t.Errorf("to protocol 0: %v", err)
	}
}
