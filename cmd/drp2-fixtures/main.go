// Command drp2-fixtures runs a DRP2 fixture corpus and reports the result,
// on a laptop or as a GitHub Action.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/drp2/drp2-fixtures/internal/cli"
	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/secret"
)

// softMemoryLimit is the heap size past which garbage is collected more
// often than GOGC says.
const softMemoryLimit = 112 << 20

func main() {
	// First of all: the implementations this process may start run as the
	// same user and could read its environment, the token in it, from
	// /proc. Hide executes the binary again without the secrets there.
	if err := secret.Hide(); err != nil {
		fmt.Fprintf(os.Stderr, "drp2-fixtures: warning: the secrets in the environment could not be hidden from child processes: %v\n", err)
	}
	// A run keeps little alive (one result per fixture) but allocates a lot
	// while decoding: collecting half as often saves about a sixth of the
	// time of a long run for a modest peak. GOGC, when set, still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// The soft limit makes the collector work harder only near it, so
	// that the slack GOGC=200 allows never takes a long stream past a
	// small runner's memory. GOMEMLIMIT, when set, still wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv, IsTerminal: isTerminal(os.Stdout),
		StderrIsTerminal: isTerminal(os.Stderr), Secrets: secret.FromEnviron(os.Environ()), Action: runAction})
	stop()
	os.Exit(code)
}

// runAction is the action subcommand: the action front end in the
// command line's protected environment. The two front ends stand side by
// side and meet only here.
func runAction(ctx context.Context, e cli.Env) int {
	return action.Run(ctx, action.Env{Log: e.Stdout, RawLog: e.RawStdout(), Getenv: e.Var, Now: e.Now,
		WorkDir: e.WorkDir, Redactor: e.Redactor(), ToolVersion: e.ToolVersion()})
}

// isTerminal reports whether f is a character device (a terminal): on
// standard output the text report may use colour, on standard error a
// long run shows its progress.
func isTerminal(f *os.File) func() bool {
	return func() bool {
		st, err := f.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0
	}
}
