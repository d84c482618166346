package cli

// The coverage subcommand: per rule of the validator, the negative
// fixtures that fail by it and the positive fixtures whose streams pass
// through its check.

import (
	"context"
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/internal/coverage"
	"github.com/drp2/drp2-fixtures/internal/frontend"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/report/text"
)

func coverageCommand(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures coverage"
	var job gate.Job
	var format string
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &job)
	fs.StringVar(&format, "format", "text", "output format: text, json or markdown")
	if err := parseNoArgs(fs, args, &job); err != nil {
		return flagError(name, err, env)
	}
	write := map[string]func(w io.Writer, c *model.Coverage) error{
		"text":     text.Coverage,
		"json":     coverage.WriteJSON,
		"markdown": markdown.Coverage,
	}[format]
	if write == nil {
		fmt.Fprintf(env.Stderr, "%s: --format %q: want text, json or markdown\n", name, format)
		return ExitUsage
	}
	job.FailOn, job.Spelling, job.Coverage = gate.DefaultFailOn, gate.FlagSpelling, true
	_, out, err := frontend.Execute(ctx, env, job)
	if err == nil {
		err = out.Err
	}
	if err == nil {
		err = write(env.Stdout, out.Coverage)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	// Fixtures that fail are left out of the counts; the run's verdict
	// says so in the exit code, as run would.
	for _, w := range out.Verdict.Reasons {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, w)
	}
	return out.Verdict.ExitCode()
}
