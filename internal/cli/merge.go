package cli

import (
	"context"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
)

// mergeCommand joins the JSON reports of several jobs or shards into one
// report, written and judged as run's would be: one JSON, one JUnit, one
// summary, one verdict.
func mergeCommand(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures merge"
	o := &runOptions{}
	failOn := gate.DefaultFailOn.String()
	fs := newFlagSet(name, "drp2-fixtures merge [flags] REPORT.json...  (paths or glob patterns)", env)
	o.outputFlags(fs, &failOn)
	// The reports keep the expectations their jobs applied; a list given
	// here judges every one of them by it instead.
	var expectations stringList
	fs.Var(&expectations, "expectations", "expectations `FILE` to judge the merged reports by, instead of the expectations their runs applied (repeatable)")
	patterns, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(name, err)
	}
	if err := o.checkOutput(failOn); err != nil {
		return fail(name, exit.New(exit.Invocation, err))
	}
	if len(patterns) == 0 {
		return usagef(name, "no report given: name the JSON reports to merge")
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	out, err := gate.Merge(ctx, ge, gate.MergeRequest{Results: patterns, Require: o.job.Require, Expectations: expectations, FailOn: o.job.FailOn,
		Commit: o.job.Commit, Repository: o.job.Repository, RunURL: o.job.RunURL, Spelling: gate.FlagSpelling})
	if err != nil {
		return fail(name, err)
	}
	return finish(env, name, out, ge.WorkDir, o)
}
