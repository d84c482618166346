package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRoundTrip drives the adapter side with the harness's own
// messages and reads its answers back with the harness's decoders.
func TestServeRoundTrip(t *testing.T) {
	var in bytes.Buffer
	for _, m := range []any{
		Hello{Type: TypeHello, Protocol: ProtocolVersion},
		Fixture{Type: TypeFixture, Seq: 1, Name: "a", Version: json.RawMessage(`{"major":2,"minor":0}`), Commands: json.RawMessage(`[]`)},
		Fixture{Type: TypeFixture, Seq: 2, Name: "b", Version: json.RawMessage(`{"major":2,"minor":0}`), Commands: json.RawMessage(`[{"cmd":"X"}]`)},
		Goodbye{Type: TypeGoodbye},
		Fixture{Type: TypeFixture, Seq: 3, Name: "after goodbye"},
	} {
		b, err := encode(m)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
	}
	judge := func(f *Fixture) Verdict {
		if f.Name == "a" {
			return Verdict{Outcome: "success", Replies: []json.RawMessage{json.RawMessage(`{"cmd":"QueueSubmitReply"}`)}}
		}
		idx := 0
		return Verdict{Outcome: "error", Phase: "schema_validation", Code: "DRP2_ERR_UNKNOWN_COMMAND", CommandIndex: &idx, Message: "no X"}
	}
	var out bytes.Buffer
	me := Hello{Name: "me", Version: "9", DRP2Versions: []string{"2.0"}, Executes: true, Capabilities: json.RawMessage(`{"max_buffer_size":1}`)}
	if err := Serve(&in, &out, me, judge, 1<<20); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d answers: %q", len(lines), out.String())
	}
	h, err := DecodeHello([]byte(lines[0]))
	if err != nil || h.Name != "me" || h.Version != "9" || !h.Executes || string(h.Capabilities) != `{"max_buffer_size":1}` {
		t.Fatalf("hello: %+v, %v", h, err)
	}
	v, err := DecodeVerdict([]byte(lines[1]), 1, ProtocolVersion)
	if err != nil || v.Outcome != "success" || len(v.Replies) != 1 {
		t.Fatalf("verdict 1: %+v, %v", v, err)
	}
	v, err = DecodeVerdict([]byte(lines[2]), 2, ProtocolVersion)
	if err != nil || v.Phase != "schema_validation" || v.Code != "DRP2_ERR_UNKNOWN_COMMAND" || *v.CommandIndex != 0 || v.Message != "no X" {
		t.Fatalf("verdict 2: %+v, %v", v, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	hellos := map[string]string{
		`{"type":"hello","protocol":3,"name":"x","future":1}`: "speaks protocol 3",
		`{"type":"hello","protocol":0,"name":"x"}`:            "speaks protocol 0",
		`{"type":"hello","protocol":1}`:                       "no name",
		`{"type":"hello","protocol":1,"name":"x","nmae":1}`:   "unknown field",
		`{"type":"verdict","seq":1}`:                          `expected a "hello"`,
		`hello`:                                               "not a protocol message",
	}
	// Protocol 2 members, and their own rules.
	for line, want := range map[string]string{
		`{"type":"hello","protocol":1,"name":"x","phases":["semantic_validation"]}`:                   "members of protocol 2",
		`{"type":"hello","protocol":1,"name":"x","error":"no GPU"}`:                                   "members of protocol 2",
		`{"type":"hello","protocol":2,"name":"x","phases":["linking"]}`:                               `"linking" is not one of`,
		`{"type":"hello","protocol":2,"name":"x","phases":["schema_validation","schema_validation"]}`: "listed twice",
		`{"type":"hello","protocol":2,"name":"x","phases":[]}`:                                        "phases is empty",
		`{"type":"hello","protocol":2,"name":"x","adapter":{"vendor":"v","drivr":"d"}}`:               "unknown field",
	} {
		hellos[line] = want
	}
	for line, want := range hellos {
		if _, err := DecodeHello([]byte(line)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
	verdicts := map[string]string{
		`{"type":"verdict","seq":2,"outcome":"success"}`:                                         "out of turn",
		`{"type":"hello","seq":1}`:                                                               "out of turn",
		`{"type":"verdict","seq":1,"outcome":"maybe"}`:                                           "neither",
		`{"type":"verdict","seq":1,"outcome":"error","code":"X"}`:                                "needs a phase and a code",
		`{"type":"verdict","seq":1,"outcome":"success","code":"X"}`:                              "carries no phase",
		`{"type":"verdict","seq":1,"outcome":"error","phase":"p","code":"X","command_index":-1}`: "negative",
		`{"type":"verdict","seq":1,"outcome":"success"} {}`:                                      "more than one JSON value",
	}
	for line, want := range verdicts {
		if _, err := DecodeVerdict([]byte(line), 1, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
	// Protocol 2 lets the phase out, never the code.
	if v, err := DecodeVerdict([]byte(`{"type":"verdict","seq":1,"outcome":"error","code":"X","command_index":3}`), 1, 2); err != nil || v.Phase != "" || *v.CommandIndex != 3 {
		t.Errorf("a protocol 2 error verdict without a phase: %+v, %v", v, err)
	}
	if _, err := DecodeVerdict([]byte(`{"type":"verdict","seq":1,"outcome":"error","phase":"semantic_validation"}`), 1, 2); err == nil || !strings.Contains(err.Error(), "needs a code") {
		t.Errorf("a protocol 2 error verdict without a code: %v", err)
	}
}

func TestHelloVersion2(t *testing.T) {
	h, err := DecodeHello([]byte(`{"type":"hello","protocol":2,"name":"webgpu","executes":true,"phases":["semantic_validation","capability_validation"],` +
		`"adapter":{"vendor":"google","architecture":"swiftshader","driver":"SwiftShader driver 5.0.0","platform":"node 20"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if h.Claims("schema_validation") || !h.Claims("semantic_validation") || !h.Claims("capability_validation") {
		t.Errorf("claims: %v", h.Phases)
	}
	if h.Adapter == nil || h.Adapter.Driver != "SwiftShader driver 5.0.0" || h.Adapter.Platform != "node 20" {
		t.Errorf("adapter: %+v", h.Adapter)
	}
	old, err := DecodeHello([]byte(`{"type":"hello","protocol":1,"name":"old"}`))
	if err != nil || !old.Claims("schema_validation") || !old.Claims("capability_validation") {
		t.Errorf("a protocol 1 implementation claims every phase: %+v, %v", old, err)
	}
}

// TestServeAnswersInTheHarnessVersion: an older harness gets an answer it
// can read.
func TestServeAnswersInTheHarnessVersion(t *testing.T) {
	for _, v := range []int{1, 2} {
		var out bytes.Buffer
		in := strings.NewReader(fmt.Sprintf(`{"type":"hello","protocol":%d}`+"\n", v))
		if err := Serve(in, &out, Hello{Name: "me"}, nil, 1<<20); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"type":"hello","protocol":%d,"name":"me"}`+"\n", v); out.String() != want {
			t.Errorf("to protocol %d: %s, want %s", v, out.String(), want)
		}
	}
	if err := Serve(strings.NewReader(`{"type":"hello","protocol":0}`+"\n"), io.Discard, Hello{Name: "me"}, nil, 1<<20); err == nil {
		t.Error("protocol 0 was answered")
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string]string{
		`python3 examples/python/adapter.py`:     "python3|examples/python/adapter.py",
		`  a   'b c'  "d e" f\ g 'it''s' "q\"q"`: `a|b c|d e|f g|its|q"q`,
		`x '' y`:                                 "x||y",
	} {
		got, err := SplitCommand(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{``, `   `, `a 'b`, `a "b`, `a\`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestTailIsBounded(t *testing.T) {
	tl := newTail(8)
	tl.Write([]byte("0123"))
	m := tl.mark()
	tl.Write([]byte("456789abcdef"))
	if got := tl.String(); got != "[earlier output dropped]\n456789abcdef"[0:len("[earlier output dropped]\n")]+"89abcdef" {
		t.Errorf("%q", got)
	}
	if s, cut := tl.since(m); s != "89abcdef" || !cut {
		t.Errorf("%q %v", s, cut)
	}
	tl.Write([]byte("X"))
	if s, cut := tl.since(tl.mark() - 1); s != "X" || cut {
		t.Errorf("%q %v", s, cut)
	}
}

func TestExpandCommands(t *testing.T) {
	dir := t.TempDir()
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }
	list := "# runtimes under test\n\n./native --adapter\n  python3 'my adapter.py'  \n"
	if err := os.WriteFile(filepath.Join(dir, "impls.txt"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ExpandCommands(read, []string{"first", "@impls.txt"})
	if err != nil || strings.Join(got, "|") != "first|./native --adapter|python3 'my adapter.py'" {
		t.Errorf("%q, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("ok\n'open\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ExpandCommands(read, []string{"@bad.txt"}); err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("%v", err)
	}
	if _, err := ExpandCommands(read, []string{"@missing.txt"}); err == nil {
		t.Error("a missing list gave no error")
	}
}

// A message quoting a fixture's "##[error]" is written so that no Actions
// log runs it, and reads back as the same text.
func TestEncodeCarriesNoLegacyCommand(t *testing.T) {
	want := Verdict{Type: TypeVerdict, Seq: 1, Outcome: "error", Message: `unknown command "##[error]boom"`}
	b, err := encode(want)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("##[")) {
		t.Errorf("the line carries ##[: %s", b)
	}
	var got Verdict
	if err := json.Unmarshal(b, &got); err != nil || got.Message != want.Message {
		t.Errorf("read back %q (%v), want %q", got.Message, err, want.Message)
	}
}
