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
	src := gate.Source{Spelling: gate.FlagSpelling}
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &src)
	format := addFormatFlag(fs, report.KindCoverage)
	if err := parseNoArgs(fs, args, &src); err != nil {
		return flagError(name, err)
	}
	ge, err := env.gateEnv()
	var out *gate.Outcome
	if err == nil {
		out, err = gate.Coverage(ctx, ge, src)
	}
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
