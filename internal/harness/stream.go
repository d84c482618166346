package harness

import (
	"context"
	"encoding/json"
	"time"

	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Session is one implementation answering streams one at a time, for
// callers that make their streams as they go (drp2-fixtures explore)
// rather than run a corpus. It keeps Run's rules: a crash, a hang, a line
// that is not the protocol or an answer out of turn costs that one stream,
// and the implementation is started again for the next.
type Session struct {
	s *session
	// Command is the command line the session was opened with.
	Command  string
	restarts int
}

// Open starts the implementation command (SplitCommand) and completes the
// handshake. It never fails: an implementation that cannot be started
// answers every stream with an error, and Stopped says why.
func Open(ctx context.Context, cfg Config, command string) *Session {
	cfg = withDefaults(cfg)
	s := &session{ctx: ctx, cfg: cfg, stderr: newTail(cfg.MaxStderr), impl: &model.Implementation{}}
	argv, err := SplitCommand(command)
	if err != nil {
		s.stopped = err.Error()
	}
	s.argv = argv
	if s.stopped == "" {
		if err := s.start(); err != nil {
			s.stopped = "the implementation could not be started: " + err.Error()
		}
	}
	return &Session{s: s, Command: command}
}

// Hello is the implementation's handshake answer, nil when it never
// completed one.
func (x *Session) Hello() *protocol.Hello { return x.s.hello }

// Label is the implementation's name and version as it gave them, capped
// like a report's, else its command line.
func (x *Session) Label() string {
	h := x.s.hello
	if h == nil {
		return escape.Cap(x.Command, escape.MessageBytes)
	}
	l := escape.Cap(h.Name, escape.MessageBytes)
	if h.Version != "" {
		l += " " + escape.Cap(h.Version, escape.MessageBytes)
	}
	return l
}

// Executes reports whether the implementation claims to execute streams
// (Level 2).
func (x *Session) Executes() bool { return x.s.hello != nil && x.s.hello.Executes }

// Claims reports whether the implementation performs phase (protocol 2
// lets it perform only some). A stream that fails in a phase it does not
// perform says nothing about it.
func (x *Session) Claims(phase string) bool { return x.s.hello == nil || x.s.hello.Claims(phase) }

// Stopped is why the session no longer sends streams, empty while it does.
func (x *Session) Stopped() string { return x.s.stopped }

// Restarts counts the times the implementation was started again after a
// failed exchange.
func (x *Session) Restarts() int { return x.restarts }

// Stderr is the tail of the implementation's standard error.
func (x *Session) Stderr() string { return x.s.stderr.String() }

// Ask sends one stream and returns the verdict. An error is a stream
// without a verdict (the exchange failed, or the session stopped); the
// implementation is started again before the next stream.
func (x *Session) Ask(name string, version, capabilities, commands json.RawMessage) (*protocol.Verdict, error) {
	s := x.s
	if s.stopped == "" && s.proc == nil {
		x.restarts++
		if err := s.start(); err != nil {
			s.stopped = "the implementation could not be started again: " + err.Error()
		}
	}
	if s.stopped != "" {
		return nil, errStopped(s.stopped)
	}
	return s.ask(protocol.Fixture{Name: name, Version: version, Capabilities: capabilities, Commands: commands})
}

// Close says goodbye and waits (a second at most) for the implementation
// to end.
func (x *Session) Close() {
	if x.s.proc != nil {
		goodbye, _ := protocol.Encode(protocol.Goodbye{Type: protocol.TypeGoodbye})
		x.s.proc.stop(goodbye, time.Second)
		x.s.proc = nil
	}
}

type errStopped string

func (e errStopped) Error() string { return "not run: " + string(e) }
