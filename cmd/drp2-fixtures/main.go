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

// The soft memory limit: the heap size past which garbage is collected
// more often than GOGC says. A run keeps one result per fixture and, while
// it writes its reports, a record of each in every report (each capped,
// report/explain.FullFailures), about 8 KiB a fixture at the peak. Under a
// fixed 112 MiB a run of 20,000 failing fixtures spent three quarters of
// its processor time collecting a heap it could not shrink. So the limit
// is 112 MiB plus 8 KiB a fixture, once the run knows its fixtures, and at
// most 1 GiB: a long stream (one fixture) or a small corpus stays under
// the 112 MiB that keeps a small runner's memory safe, and 50,000 fixtures
// get 503 MiB, which a 7 GB hosted runner holds many times over.
const (
	softMemoryLimit    = 112 << 20
	memoryPerFixture   = 8 << 10
	maxSoftMemoryLimit = 1 << 30
)

// GOGC is 200 at first: a long stream's heap is mostly garbage, and
// collecting half as often saves about a sixth of its time. A run of many
// fixtures keeps a result of each alive, which GOGC=200 lets the heap
// grow to three times: from manyFixtures on, GOGC is 60. On 50,000
// fixtures (about 65 MB of results) peak RSS went from 244-251 MB to
// 144-160 MB (178-185 MB at GOGC=100), with no difference in processor
// time that three runs of each could tell from the machine's noise.
const (
	startGCPercent = 200
	manyGCPercent  = 60
	manyFixtures   = 10000
)

// gcPercent is the GOGC of a run of n fixtures.
func gcPercent(n int) int {
	if n >= manyFixtures {
		return manyGCPercent
	}
	return startGCPercent
}

// memoryLimit is the soft memory limit of a run of n fixtures.
func memoryLimit(n int) int64 {
	return min(softMemoryLimit+memoryPerFixture*int64(max(n, 0)), maxSoftMemoryLimit)
}

func main() {
	// First of all: the implementations this process may start run as the
	// same user and could read its environment, the token in it, from
	// /proc. Hide executes the binary again without the secrets there.
	if err := secret.Hide(); err != nil {
		fmt.Fprintf(os.Stderr, "drp2-fixtures: warning: the secrets in the environment could not be hidden from child processes: %v\n", err)
	}
	// GOGC (gcPercent) and the soft memory limit (memoryLimit) are set at
	// start and again once the run knows its fixtures. The soft limit
	// makes the collector work harder only near it, so that the slack
	// GOGC=200 allows never takes a long stream past a small runner's
	// memory. GOGC and GOMEMLIMIT, when set, still win.
	gogc, memLimit := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	if gogc {
		debug.SetGCPercent(startGCPercent)
	}
	if memLimit {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	sized := func(n int) {
		if gogc {
			debug.SetGCPercent(gcPercent(n))
		}
		if memLimit {
			debug.SetMemoryLimit(memoryLimit(n))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv, IsTerminal: isTerminal(os.Stdout),
		StderrIsTerminal: isTerminal(os.Stderr), Sized: sized, Secrets: secret.FromEnviron(os.Environ()), Action: runAction})
	stop()
	os.Exit(code)
}

// runAction is the action subcommand: the action front end in the
// command line's protected environment. The two front ends stand side by
// side and meet only here.
func runAction(ctx context.Context, e cli.Env) error {
	return cli.ExitStatus(action.Run(ctx, action.Env{Log: e.Stdout, RawLog: e.RawStdout(), Getenv: e.Var, Now: e.Now,
		WorkDir: e.WorkDir, Redactor: e.Redactor(), ToolVersion: e.ToolVersion(), Sized: e.Sized}))
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
