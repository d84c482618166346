package cli

import (
	"context"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/github"
)

// The tests run the action subcommand as the binary's main does, with the
// GitHub API paced for a fake on loopback.
func init() {
	defaultAction = func(ctx context.Context, e Env) error {
		return ExitStatus(action.Run(ctx, action.Env{Log: e.Stdout, RawLog: e.RawStdout(), Getenv: e.Var, Now: e.Now,
			WorkDir: e.WorkDir, Redactor: e.Redactor(), ToolVersion: e.ToolVersion(),
			Pacing: github.Pacing{BaseDelay: 10 * time.Millisecond}}))
	}
}
