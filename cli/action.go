package cli

import (
	"context"

	"github.com/drp2/drp2-fixtures/action"
)

// actionCommand runs drp2-fixtures as a GitHub Action.
func actionCommand(ctx context.Context, env Env) int {
	return action.Main(ctx, action.Env{Getenv: env.Getenv, Stdout: env.Stdout, Stderr: env.Stderr, Now: env.Now, WorkDir: env.WorkDir})
}
