package gate

import (
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// ServeRequest is what the adapter subcommand asks Serve for: the harness
// protocol served on In and Out, with the validator of these schemas,
// under Name.
type ServeRequest struct {
	CommandSchema, FixtureSchema, Name string
	In                                 io.Reader
	Out                                io.Writer
}

// Serve serves the runtime harness's adapter protocol with the project's
// own validator: the reference implementation of docs/harness.md. A
// protocol error is unusable input.
func Serve(env Env, a ServeRequest) error {
	v, err := runner.NewValidator(runner.Config{CommandSchema: a.CommandSchema, FixtureSchema: a.FixtureSchema,
		WorkDir: env.WorkDir, Checker: drp2.New()})
	if err != nil {
		return err
	}
	if a.In == nil {
		a.In = strings.NewReader("")
	}
	if a.Out == nil {
		a.Out = io.Discard
	}
	// The validator checks streams; it does not execute them, so it does
	// not claim Level 2.
	me := harness.Hello{Name: a.Name, Version: env.ToolVersion, DRP2Versions: []string{"2.0"}}
	if err := harness.Serve(a.In, a.Out, me, harness.ValidatorJudge(v), harness.DefaultMaxLine); err != nil {
		return usagef("%w", err)
	}
	return nil
}
