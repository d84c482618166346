// Command drp2-fixtures runs a DRP2 fixture corpus and reports the result,
// on a laptop or as a GitHub Action.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/drp2/drp2-fixtures/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
