package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/internal/version"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// adapterCommand serves the runtime harness's adapter protocol on standard
// input and output with the project's own validator: the reference
// implementation of docs/harness.md, and a way to compare another
// implementation with this one side by side.
func adapterCommand(_ context.Context, args []string, env Env) int {
	fs := newFlagSet("drp2-fixtures adapter", "drp2-fixtures adapter [flags]  (serves docs/harness.md on standard input and output)", env)
	var commandSchema, fixtureSchema, name string
	fs.StringVar(&commandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: embedded)")
	fs.StringVar(&fixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: embedded)")
	fs.StringVar(&name, "name", "drp2-fixtures", "the `NAME` the adapter gives in the handshake")
	if err := fs.Parse(args); err != nil {
		return flagError("drp2-fixtures adapter", err, env)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "drp2-fixtures adapter: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	v, err := runner.NewValidator(runner.Config{CommandSchema: commandSchema, FixtureSchema: fixtureSchema,
		WorkDir: env.WorkDir, Checker: drp2.New()})
	if err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures adapter: %v\n", err)
		return exitFor(err)
	}
	in := env.Stdin
	if in == nil {
		in = strings.NewReader("")
	}
	out := env.Stdout
	if out == nil {
		out = io.Discard
	}
	// The validator checks streams; it does not execute them, so it does
	// not claim Level 2.
	me := harness.Hello{Name: name, Version: version.String(), DRP2Versions: []string{"2.0"}}
	if err := harness.Serve(in, out, me, harness.ValidatorJudge(v), harness.DefaultMaxLine); err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures adapter: %v\n", err)
		return ExitUsage
	}
	return ExitOK
}
