package cli

import (
	"context"
	"io"
	"time"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/version"
	"github.com/drp2/drp2-fixtures/report"
)

// Env is the process environment a subcommand sees.
type Env struct {
	Stdout, Stderr io.Writer
	// Stdin is standard input, read by the adapter; nil means empty.
	Stdin io.Reader
	// Getenv reads an environment variable; nil means none are set.
	Getenv func(string) string
	// Now is the wall clock; nil means time.Now. SOURCE_DATE_EPOCH, when
	// set, replaces it with a fixed time.
	Now func() time.Time
	// WorkDir is the working directory; empty means the process's.
	WorkDir string
	// Action runs the action subcommand in this environment, once it is
	// protected: the action front end (internal/cli/action), which main
	// gives so that the command line and the action stand side by side.
	// Its error is already in the log; the command line maps it to the
	// exit code.
	Action func(ctx context.Context, env Env) error
	// IsTerminal reports whether Stdout is a terminal (for colour); nil
	// means it is not.
	IsTerminal func() bool
	// StderrIsTerminal reports whether Stderr is a terminal, where a long
	// run shows its progress; nil means it is not.
	StderrIsTerminal func() bool
	// Tick starts the ticker that redraws the progress line and returns
	// its channel and the function that stops it; nil means
	// time.NewTicker.
	Tick func(every time.Duration) (<-chan time.Time, func())
	// Sized is told the number of fixtures a run is about to run, before
	// they run: main scales the soft memory limit with it. Nil tells
	// nothing.
	Sized func(fixtures int)
	// Holds is told the number of results a merge holds as it reads its
	// reports: main scales the soft memory limit with it too. Nil tells
	// nothing.
	Holds func(results int)
	// LargestFixture is told each fixture size larger than any before it
	// in a run: main scales the soft memory limit with it too. Nil tells
	// nothing.
	LargestFixture func(bytes int64)
	// Secrets are values the process holds that no text it writes or
	// posts may show (main passes the variables named like secrets; the
	// action adds its token).
	Secrets []string

	// redact replaces the secrets in every text; rawStdout is standard
	// output before it, for the one line that must carry the token
	// (::add-mask::). Both are set by Protect.
	redact    *secret.Redactor
	rawStdout io.Writer
	rawStderr io.Writer
}

// Protect makes every text the subcommand writes to standard output and
// standard error go through one redactor of env's secrets, and returns
// the function that flushes them. It does nothing when already done.
func (e *Env) Protect() (flush func()) {
	if e.redact != nil {
		return func() {}
	}
	e.redact = secret.NewRedactor(e.Secrets...)
	e.rawStdout, e.rawStderr = e.Stdout, e.Stderr
	if e.rawStdout == nil {
		e.rawStdout = io.Discard
	}
	if e.rawStderr == nil {
		e.rawStderr = io.Discard
	}
	out, errw := e.redact.Writer(e.Stdout), e.redact.Writer(e.Stderr)
	e.Stdout, e.Stderr = out, errw
	return func() {
		out.Flush()
		errw.Flush()
	}
}

func (e Env) Var(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// ToolVersion is the version line of this build, as every report records
// it.
func (e Env) ToolVersion() string { return version.String() }

// gateEnv is the gate's view of the process.
func (e Env) gateEnv() (gate.Env, error) {
	return gate.NewEnv(gate.Env{WorkDir: e.WorkDir, Getenv: e.Var, Now: e.Now, ToolVersion: e.ToolVersion(),
		Redact: e.redact.Value, RedactBytes: e.redact.Bytes, ReadReport: report.ReadRun, Sized: e.Sized, Holds: e.Holds,
		LargestFixture: e.LargestFixture})
}

// Redactor is the redactor of env's secrets, once Protect has run.
func (e Env) Redactor() *secret.Redactor { return e.redact }

// RawStdout is standard output before the redactor, once Protect has run:
// for the one line that must carry the token (::add-mask::) and for a
// progress line rewritten in place.
func (e Env) RawStdout() io.Writer { return e.rawStdout }
