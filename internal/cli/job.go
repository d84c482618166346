package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/version"
)

// gateEnv is the gate's view of the process: the working directory, the
// clock, the variables that name the base commit, and the secrets to hide.
func gateEnv(env Env) (gate.Env, error) {
	wd := env.WorkDir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return gate.Env{}, fmt.Errorf("working directory: %w", err)
		}
	}
	now, err := env.clock()
	if err != nil {
		return gate.Env{}, err
	}
	return gate.Env{WorkDir: wd, Now: now, Getenv: env.getenv, ToolVersion: version.String(), Redact: env.redact.Value}, nil
}

// resolve resolves a job in the process's environment.
func resolve(env Env, job gate.Job) (*gate.Resolved, error) {
	ge, err := gateEnv(env)
	if err != nil {
		return nil, err
	}
	return gate.Resolve(ge, job)
}

// execute resolves and executes a job.
func execute(ctx context.Context, env Env, job gate.Job) (*gate.Resolved, *gate.Outcome, error) {
	r, err := resolve(env, job)
	if err != nil {
		return nil, nil, err
	}
	o, err := gate.Execute(ctx, r)
	return r, o, err
}

func usageErrorf(format string, args ...any) error { return gate.Usagef(format, args...) }

// exitFor is the exit code of an error that stopped a command.
func exitFor(err error) int { return gate.Code(err) }
