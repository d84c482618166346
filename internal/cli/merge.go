package cli

import (
	"context"
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/gate"
)

// mergeCommand joins the JSON reports of several jobs or shards into one
// report, written and judged as run's would be: one JSON, one JUnit, one
// summary, one verdict.
func mergeCommand(ctx context.Context, args []string, env Env) int {
	o := &runOptions{}
	failOn := gate.DefaultFailOn.String()
	fs := newFlagSet("drp2-fixtures merge", "drp2-fixtures merge [flags] REPORT.json...  (paths or glob patterns)", env)
	o.outputFlags(fs, &failOn)
	// The reports keep the expectations their jobs applied; a list given
	// here judges every one of them by it instead.
	var expectations stringList
	fs.Var(&expectations, "expectations", "expectations `FILE` to judge the merged reports by, instead of the expectations their runs applied (repeatable)")
	patterns, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("drp2-fixtures merge", err, env)
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(env.Stderr, "drp2-fixtures merge: %v\n", err)
		return code
	}
	if err := o.checkOutput(failOn); err != nil {
		return fail(ExitUsage, err)
	}
	if len(patterns) == 0 {
		return fail(ExitUsage, fmt.Errorf("no report given: name the JSON reports to merge"))
	}
	o.job.Results, o.job.MergeOnly, o.job.Spelling = patterns, true, gate.FlagSpelling
	o.job.Expectations = expectations
	r, out, err := execute(ctx, env, o.job, nil)
	if err != nil {
		return fail(exitFor(err), err)
	}
	return finish(env, "drp2-fixtures merge", out, r.WorkDir, o)
}
