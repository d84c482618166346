package frontend

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/version"
)

// GateEnv is the gate's view of the process: the working directory, the
// clock, the variables that name the base commit, and the secrets to hide.
func GateEnv(env Env) (gate.Env, error) {
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
	return gate.Env{WorkDir: wd, Now: now, Getenv: env.Var, ToolVersion: version.String(), Redact: env.Redactor().Value}, nil
}

// Resolve resolves a job in the process's environment.
func Resolve(env Env, job gate.Job) (*gate.Resolved, error) {
	ge, err := GateEnv(env)
	if err != nil {
		return nil, err
	}
	return gate.Resolve(ge, job)
}

// Execute resolves and executes a job.
func Execute(ctx context.Context, env Env, job gate.Job) (*gate.Resolved, *gate.Outcome, error) {
	r, err := Resolve(env, job)
	if err != nil {
		return nil, nil, err
	}
	o, err := gate.Execute(ctx, r)
	return r, o, err
}

// ErrorLines are the messages of err, one for each joined error.
func ErrorLines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}
