package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// scriptEnv names the transcript TestScriptedAdapter plays.
const scriptEnv = "HARNESS_TEST_SCRIPT"

const transcriptDir = "../protocol/testdata/transcripts"

func loadTranscripts(t *testing.T) []*protocol.Transcript {
	t.Helper()
	ts, err := protocol.LoadTranscripts(os.DirFS(transcriptDir))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestTranscriptsHarness replays the harness side of every transcript: a
// session of the harness with a process that answers what the transcript's
// adapter answers, and checks the requests it gets on the way.
func TestTranscriptsHarness(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range loadTranscripts(t) {
		if !tr.Harness() {
			continue
		}
		t.Run(tr.Name, func(t *testing.T) {
			t.Parallel()
			path, err := filepath.Abs(filepath.Join(transcriptDir, tr.Name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Env: append(os.Environ(), scriptEnv+"="+path), MaxLine: tr.MaxLine, Timeout: 10 * time.Second}
			command := "'" + strings.ReplaceAll(exe, "'", `'\''`) + "' -test.run=^TestScriptedAdapter$"
			x := Open(context.Background(), cfg, command)
			defer x.Close()
			for _, s := range tr.Steps {
				if err := harnessStep(x, s); err != nil {
					t.Fatalf("line %d: %v\nthe adapter's stderr: %s", s.Line, err, x.Stderr())
				}
			}
		})
	}
}

// harnessStep makes the harness send one request and checks its
// conclusion.
func harnessStep(x *Session, s protocol.Step) error {
	switch s.Type {
	case protocol.TypeHello:
		var got any
		if h := x.Hello(); h != nil {
			got = h
		}
		return conclusion(s, got, x.Stopped())
	case protocol.TypeFixture:
		f, err := protocol.DecodeFixture(s.Request)
		if err != nil {
			return err
		}
		v, err := x.Ask(f.Name, f.Version, f.Capabilities, f.Commands)
		if err != nil {
			return conclusion(s, nil, err.Error())
		}
		return conclusion(s, v, "")
	}
	x.Close()
	return nil
}

// conclusion compares what the harness recorded (got, nil for nothing)
// and the error that ended the session with the step's conclusion.
func conclusion(s protocol.Step, got any, stopped string) error {
	if s.Recorded != nil {
		if got == nil {
			return fmt.Errorf("nothing recorded (%s), want %s", stopped, s.Recorded)
		}
		b, _ := protocol.Encode(got)
		var x, y any
		if json.Unmarshal(b, &x) != nil || json.Unmarshal(s.Recorded, &y) != nil || !reflect.DeepEqual(x, y) {
			return fmt.Errorf("recorded %s, want %s", bytes.TrimSpace(b), s.Recorded)
		}
	}
	if !strings.Contains(stopped, s.Refusal) || (s.Refusal == "") != (stopped == "") {
		return fmt.Errorf("the harness says %q, want %q", stopped, s.Refusal)
	}
	return nil
}

// TestScriptedAdapter is the adapter TestTranscriptsHarness starts: this
// test binary run with scriptEnv naming a transcript. It checks every
// request against the transcript's and answers the transcript's lines.
func TestScriptedAdapter(t *testing.T) {
	path := os.Getenv(scriptEnv)
	if path == "" {
		t.Skip("SKIPPED: the adapter TestTranscriptsHarness starts")
	}
	os.Exit(playScript(path, os.Stdin, os.Stdout))
}

func playScript(path string, in io.Reader, out io.Writer) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tr, err := protocol.ParseTranscript(filepath.Base(path), data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r := bufio.NewReader(in)
	for _, s := range tr.Steps {
		line, err := protocol.ReadLine(r, DefaultMaxLine)
		if err != nil {
			fmt.Fprintf(os.Stderr, "line %d: no request: %v\n", s.Line, err)
			return 1
		}
		if got := bytes.TrimSuffix(line, []byte("\n")); !bytes.Equal(got, s.Request) {
			fmt.Fprintf(os.Stderr, "line %d: the harness sent\n%s\nthe transcript has\n%s\n", s.Line, got, s.Request)
			return 1
		}
		for _, a := range s.Answers {
			if _, err := out.Write(append(append([]byte(nil), a...), '\n')); err != nil {
				return 1
			}
		}
	}
	// The harness ends the session: goodbye, or a kill after a refusal.
	_, _ = io.Copy(io.Discard, r)
	return 0
}

// TestTranscriptsAdapter replays the adapter side of the transcripts
// against drp2-fixtures adapter's server: Serve with the validator.
func TestTranscriptsAdapter(t *testing.T) {
	v, err := runner.NewValidator(runner.Config{Checker: drp2.New()})
	if err != nil {
		t.Fatal(err)
	}
	me := protocol.Hello{Name: "drp2-fixtures", Version: "test", DRP2Versions: []string{"2.0"}}
	serve := func(in io.Reader, out io.Writer) error { return Serve(in, out, me, ValidatorJudge(v), DefaultMaxLine) }
	versions := protocol.Versions{Min: protocol.MinProtocolVersion, Max: protocol.ProtocolVersion}
	n := 0
	for _, tr := range loadTranscripts(t) {
		if tr.Adapter() {
			n++
			if err := protocol.ReplayTranscript(tr, versions, serve); err != nil {
				t.Errorf("%s: %v", tr.Name, err)
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d transcripts for the adapter side", n)
	}
}
