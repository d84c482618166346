package cli

// The coverage subcommand: per rule of the validator, the negative
// fixtures that fail by it and the positive fixtures whose streams pass
// through its check.

import (
	"context"
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/explain"
)

func coverageCommand(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures coverage"
	var job gate.Job
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &job)
	format := addFormatFlag(fs, report.KindCoverage)
	if err := parseNoArgs(fs, args, &job); err != nil {
		return flagError(name, err)
	}
	job.FailOn, job.Spelling, job.Coverage = gate.DefaultFailOn, gate.FlagSpelling, true
	_, out, err := execute(ctx, env, job, nil)
	if err == nil {
		err = out.Err
	}
	if err == nil {
		err = format.Format().ToLog(env.Stdout, func(w io.Writer) error { return format.Format().WriteCoverage(w, out.Coverage) })
	}
	if err != nil {
		return fail(name, err)
	}
	// Fixtures that fail are left out of the counts; the run's verdict
	// says so in the exit code, as run would.
	for _, w := range explain.Judgement(out.Run).Reasons {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, w)
	}
	return outcomeEnd(out)
}
