// Package cli is the one front end of drp2-fixtures: the run, action and
// version subcommands. run's flags and the action's INPUT_* variables both
// become a Job; one resolve chooses the defaults and one execute runs it,
// so the two differ only in where the Job comes from and where the results
// go. It runs in-process in tests; only cmd/ touches os.Args and os.Exit.
package cli

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/version"
	"github.com/drp2/drp2-fixtures/report/github"
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
	// Pacing overrides the GitHub API retry and pacing settings of the
	// action. Zero fields fall back to the DRP2_FIXTURES_API_* variables,
	// then to the production defaults of report/github.
	Pacing github.Pacing
	// IsTerminal reports whether Stdout is a terminal (for colour); nil
	// means it is not.
	IsTerminal func() bool
	// Secrets are values the process holds that no text it writes or
	// posts may show (main passes the variables named like secrets; the
	// action adds its token).
	Secrets []string

	// redact replaces the secrets in every text; rawStdout is standard
	// output before it, for the one line that must carry the token
	// (::add-mask::). Both are set by protect.
	redact    *secret.Redactor
	rawStdout io.Writer
}

// protect makes every text the subcommand writes to standard output and
// standard error go through one redactor of env's secrets, and returns
// the function that flushes them. It does nothing when already done.
func (e *Env) protect() (flush func()) {
	if e.redact != nil {
		return func() {}
	}
	e.redact = secret.NewRedactor(e.Secrets...)
	e.rawStdout = e.Stdout
	if e.rawStdout == nil {
		e.rawStdout = io.Discard
	}
	out, errw := e.redact.Writer(e.Stdout), e.redact.Writer(e.Stderr)
	e.Stdout, e.Stderr = out, errw
	return func() {
		out.Flush()
		errw.Flush()
	}
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// clock returns the clock a run uses: SOURCE_DATE_EPOCH frozen when set
// (reproducible reports), else Now.
func (e Env) clock() (func() time.Time, error) {
	if v := e.getenv("SOURCE_DATE_EPOCH"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, usageErrorf("SOURCE_DATE_EPOCH=%q is not a whole number of seconds", v)
		}
		t := time.Unix(secs, 0).UTC()
		return func() time.Time { return t }, nil
	}
	if e.Now != nil {
		return e.Now, nil
	}
	return time.Now, nil
}

const usage = `drp2-fixtures runs a DRP2 fixture corpus and reports the result.

Usage:
  drp2-fixtures run [flags] [PATH...]   run a corpus (default: ./fixtures, else the embedded corpus)
  drp2-fixtures action                  run as a GitHub Action (reads INPUT_* variables)
  drp2-fixtures manifest write|check    record the corpus in a manifest, or compare it with one
  drp2-fixtures coverage                which validator rules the corpus exercises
  drp2-fixtures merge REPORT.json...    merge the JSON reports of several jobs or shards
  drp2-fixtures adapter                 serve the runtime harness protocol with this validator
  drp2-fixtures explore                 generate streams, find where implementations disagree, write candidates
  drp2-fixtures diff BASE.json HEAD.json compare two JSON reports fixture by fixture
  drp2-fixtures version                 print the version
  drp2-fixtures help                    show this help

Run "drp2-fixtures run -h" for the flags of run.
`

// Main runs the command line and returns the exit code. A panic anywhere
// below is the tool's own failure (exit 3), never unusable input (exit 2).
func Main(ctx context.Context, args []string, env Env) (code int) {
	defer env.protect()()
	stderr := logSafe(env.Stderr)
	env.Stderr = stderr
	defer stderr.flush()
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(env.Stderr, "drp2-fixtures: internal error: %v\n%s", p, debug.Stack())
			code = ExitInternal
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, args[1:], env)
	case "action":
		return actionCommand(ctx, env)
	case "manifest":
		return manifestCommand(ctx, args[1:], env)
	case "coverage":
		return coverageCommand(ctx, args[1:], env)
	case "merge":
		return mergeCommand(ctx, args[1:], env)
	case "adapter":
		return adapterCommand(ctx, args[1:], env)
	case "explore":
		return exploreCommand(ctx, args[1:], env)
	case "diff":
		return diffCommand(args[1:], env)
	case "version", "--version":
		fmt.Fprintln(env.Stdout, "drp2-fixtures", version.String())
		return ExitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "drp2-fixtures: unknown command %q\n\n%s", args[0], usage)
	return ExitUsage
}
