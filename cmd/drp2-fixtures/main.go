// Command drp2-fixtures runs a DRP2 fixture corpus and reports the result,
// on a laptop or as a GitHub Action.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/drp2/drp2-fixtures/internal/cli"
)

// softMemoryLimit is the heap size past which garbage is collected more
// often than GOGC says.
const softMemoryLimit = 112 << 20

func main() {
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
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv, IsTerminal: stdoutIsTerminal})
	stop()
	os.Exit(code)
}

// stdoutIsTerminal reports whether standard output is a character device
// (a terminal), where the text report may use colour.
func stdoutIsTerminal() bool {
	st, err := os.Stdout.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
