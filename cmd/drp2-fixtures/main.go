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

func main() {
	// A run keeps little alive (one result per fixture) but allocates a lot
	// while decoding: collecting half as often saves about a sixth of the
	// time of a long run for a modest peak. GOGC, when set, still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
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
