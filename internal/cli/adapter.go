package cli

import (
	"context"

	"github.com/drp2/drp2-fixtures/internal/gate"
)

// adapterCommand serves the runtime harness's adapter protocol on standard
// input and output with the project's own validator: the reference
// implementation of docs/harness.md, and a way to compare another
// implementation with this one side by side.
func adapterCommand(_ context.Context, args []string, env Env) error {
	const cmd = "drp2-fixtures adapter"
	fs := newFlagSet(cmd, "drp2-fixtures adapter [flags]  (serves docs/harness.md on standard input and output)", env)
	var commandSchema, fixtureSchema, name string
	fs.StringVar(&commandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: embedded)")
	fs.StringVar(&fixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: embedded)")
	fs.StringVar(&name, "name", "drp2-fixtures", "the `NAME` the adapter gives in the handshake")
	if err := fs.Parse(args); err != nil {
		return flagError(cmd, err)
	}
	if fs.NArg() > 0 {
		return usagef(cmd, "unexpected argument %q", fs.Arg(0))
	}
	ge, err := env.gateEnv()
	if err == nil {
		err = gate.Serve(ge, gate.ServeRequest{CommandSchema: commandSchema, FixtureSchema: fixtureSchema, Name: name, In: env.Stdin, Out: env.Stdout})
	}
	return fail(cmd, err)
}
