package protocol

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

const hello = `> {"type":"hello","protocol":2}` + "\n"

func TestParse(t *testing.T) {
	tr, err := ParseTranscript("t", []byte("# c\nside: harness\nmax-line: 9\n"+hello+
		"<\n<% a%25b%FF%0D\n= {}\n> {\"type\":\"goodbye\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := tr.Steps[0]
	if tr.MaxLine != 9 || len(tr.Steps) != 2 || s.Line != 4 || s.Type != "hello" ||
		len(s.Answers) != 2 || len(s.Answers[0]) != 0 || !bytes.Equal(s.Answers[1], []byte("a%b\xff\r")) || string(s.Recorded) != "{}" {
		t.Errorf("%+v", tr)
	}
	for text, want := range map[string]string{
		hello + "= {}\n":                                  "no side",
		"side: both\n> {\"type\":\"goodbye\"}\n":          "first request must be a hello",
		"side: both\n" + hello + "<\n= {}\n":              "not a blank line",
		"side: both\n" + hello + "< {}\n< {}\n= {}\n":     "at most one answer",
		"side: harness\n" + hello + "< {}\n":              "conclusion (= or !) is missing",
		"side: adapter\n" + hello + "< {}\n= {}\n":        "only the adapter side",
		"side: harness\n" + hello + "! x\n" + hello:       "ends the session",
		"side: harness\n" + hello + "<% %4\n":             "two hex digits",
		"side: harness\n" + hello + "<% %zz\n":            "two hex digits",
		"side: harness\n" + hello + "side: both\n":        "after the first request",
		"side: sideways\n":                                "unknown directive",
		"side: both\nmax-line: -1\n":                      "not a positive number",
		"side: both\n{}\n":                                "not a directive",
		"side: both\n" + hello + "< {}\r\n":               "carriage return",
		"side: both\n> {\"type\":\"ping\"}\n":             "first request must be a hello",
		"side: both\n" + hello + "< {}\n> {\"type\":1}\n": "not a protocol message",
		"< {}\n": "before the first request",
	} {
		if _, err := ParseTranscript("t", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// TestCompare holds the adapter-side comparison to the README's rules.
func TestCompare(t *testing.T) {
	v2 := Versions{Min: 2, Max: 2}
	for _, c := range []struct {
		want, got string
		v         Versions
		s         session
		ok        bool
	}{
		{`{"type":"hello","protocol":2,"name":"a"}`, `{"type":"hello","protocol":2,"name":"b","executes":true}`, v2, session{}, true},
		{`{"type":"hello","protocol":2,"name":"a"}`, `{"type":"hello","protocol":1,"name":"b"}`, Versions{1, 1}, session{}, true},
		{`{"type":"hello","protocol":1,"name":"a"}`, `{"type":"hello","protocol":2,"name":"b"}`, v2, session{}, true},
		{`{"type":"hello","protocol":1,"name":"a"}`, `{"type":"hello","protocol":2,"name":"b"}`, Versions{1, 2}, session{}, false},
		{`{"type":"hello","protocol":2,"name":"a"}`, `{"type":"hello","protocol":2,"name":" "}`, v2, session{}, false},
		{`{"type":"hello","protocol":1,"name":"a"}`, `{"type":"hello","protocol":1,"name":"b","phases":[]}`, Versions{1, 1}, session{}, false},
		{`{"type":"hello","protocol":2,"name":"a"}`, `{"type":"verdict","protocol":2,"name":"b"}`, v2, session{}, false},
		{`{"type":"verdict","seq":1,"outcome":"error","phase":"p","code":"C","message":"m"}`, `{"type":"verdict","seq":1,"outcome":"error","code":"C"}`, v2, session{protocol: 2}, true},
		{`{"type":"verdict","seq":1,"outcome":"error","phase":"p","code":"C"}`, `{"type":"verdict","seq":1,"outcome":"error","code":"C"}`, v2, session{protocol: 1}, false},
		{`{"type":"verdict","seq":1,"outcome":"error","phase":"p","code":"C"}`, `{"type":"verdict","seq":1,"outcome":"error","phase":"q","code":"C"}`, v2, session{protocol: 2}, false},
		{`{"type":"verdict","seq":1,"outcome":"error","code":"C","command_index":3}`, `{"type":"verdict","seq":1,"outcome":"error","code":"C","command_index":3.0}`, v2, session{protocol: 2}, true},
		{`{"type":"verdict","seq":1,"outcome":"success","replies":[{"readbacks":[{"data":"AAAA"}]}]}`, `{"type":"verdict","seq":1,"outcome":"success"}`, v2, session{protocol: 2}, true},
		{`{"type":"verdict","seq":1,"outcome":"success","replies":[{"readbacks":[{"data":"AAAA"}]}]}`, `{"type":"verdict","seq":1,"outcome":"success"}`, v2, session{protocol: 2, executes: true}, false},
		{`{"type":"verdict","seq":1,"outcome":"success","replies":[{"readbacks":[{"data":"AAAA"}]}]}`, `{"type":"verdict","seq":1,"outcome":"success","replies":[{"readbacks":[{"data":"KioqKg=="}]}]}`, v2, session{protocol: 2, executes: true}, false},
		{`{"type":"verdict","seq":1,"outcome":"success","replies":[{"readbacks":[{"data":"AAAA"}]}]}`, `{"type":"verdict","seq":1,"outcome":"success","replies":[{"readbacks":[{"data":"Kioq"}]}]}`, v2, session{protocol: 2, executes: true}, true},
		{`{"type":"verdict","seq":1,"outcome":"success"}`, `{"type":"verdict","seq":1,"outcome":"success","replies":[]}`, v2, session{protocol: 2, executes: true}, true},
		{`{"type":"verdict","seq":1,"outcome":"success"}`, `[]`, v2, session{}, false},
	} {
		s := c.s
		if err := compare([]byte(c.want), []byte(c.got), c.v, &s); (err == nil) != c.ok {
			t.Errorf("want %s got %s (%+v, %+v): %v", c.want, c.got, c.v, c.s, err)
		}
	}
}

// TestReplay: requests go one at a time, a fixture in a phase the hello
// does not claim is not sent, and every answer is accounted for.
func TestReplay(t *testing.T) {
	tr, err := ParseTranscript("t", []byte("side: adapter\n"+hello+`< {"type":"hello","protocol":2,"name":"x"}`+"\n"+
		`> {"type":"fixture","seq":1,"name":"f","version":{},"commands":[]}`+"\n"+
		`< {"type":"verdict","seq":1,"outcome":"error","phase":"schema_validation","code":"C"}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	// answers is an implementation that reads a request and writes the
	// next of its answers (lines, maybe none) until it runs out of them.
	answers := func(lines ...string) Server {
		return func(in io.Reader, out io.Writer) error {
			for _, l := range lines {
				var buf [1]byte
				for buf[0] != '\n' {
					if _, err := in.Read(buf[:]); err != nil {
						return nil
					}
				}
				if l != "" {
					io.WriteString(out, l+"\n")
				}
			}
			return nil
		}
	}
	schema := `{"type":"verdict","seq":1,"outcome":"error","phase":"schema_validation","code":"C"}`
	if err := ReplayTranscript(tr, Versions{2, 2}, answers(`{"type":"hello","protocol":2,"name":"y"}`, schema)); err != nil {
		t.Error(err)
	}
	notClaimed := `{"type":"hello","protocol":2,"name":"y","phases":["semantic_validation"]}`
	if err := ReplayTranscript(tr, Versions{2, 2}, answers(notClaimed, schema)); err != nil {
		t.Errorf("the schema fixture was sent: %v", err)
	}
	if err := ReplayTranscript(tr, Versions{2, 2}, answers(`{"type":"hello","protocol":2,"name":"y"}`, "")); err == nil || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("a missing answer: %v", err)
	}
	if err := ReplayTranscript(tr, Versions{2, 2}, answers(`{"type":"hello","protocol":2,"name":"y"}`)); err == nil || !strings.Contains(err.Error(), "stopped reading") {
		t.Errorf("an implementation that stops reading: %v", err)
	}
	if err := ReplayTranscript(tr, Versions{2, 2}, answers(`{"type":"hello","protocol":2,"name":"y"}`, schema+"\n"+schema)); err == nil || !strings.Contains(err.Error(), "no request asked for") {
		t.Errorf("an extra answer: %v", err)
	}
}
