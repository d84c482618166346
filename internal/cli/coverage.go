package cli

// The coverage subcommand and the action's coverage input: per rule of the
// validator, the negative fixtures that fail by it and the positive
// fixtures whose streams pass through its check.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/coverage"
	"github.com/drp2/drp2-fixtures/model"
)

// coverageRun is a run made with a coverage counter as its checker.
type coverageRun struct {
	counter *coverage.Counter
	rules   []coverage.Rule
}

// enableCoverage puts a counter around the validator of the job's head
// run.
func enableCoverage(r *resolved) *coverageRun {
	rules, tracer := validatorRules()
	c := &coverageRun{counter: coverage.NewCounter(tracer), rules: rules}
	r.coverage = c.counter
	return c
}

// report counts the coverage of a run made after enableCoverage.
func (c *coverageRun) report(run *model.Run) (*coverage.Report, error) {
	return coverage.Count(c.rules, run, c.counter)
}

func coverageCommand(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures coverage"
	var job Job
	var format string
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	corpusFlags(fs, &job)
	fs.StringVar(&format, "format", "text", "output format: text, json or markdown")
	if err := parseNoArgs(fs, args, &job); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return ExitUsage
	}
	write := coverage.WriteText
	switch format {
	case "text":
	case "json":
		write = coverage.WriteJSON
	case "markdown":
		write = coverage.WriteMarkdown
	default:
		fmt.Fprintf(env.Stderr, "%s: --format %q: want text, json or markdown\n", name, format)
		return ExitUsage
	}
	job.FailOn = defaultFailOn
	job.spelling = flagSpelling
	fail := func(err error) int {
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	r, err := resolve(env, job)
	if err != nil {
		return fail(err)
	}
	cov := enableCoverage(&r)
	run, err := execute(ctx, r)
	if err != nil {
		return fail(err)
	}
	rep, err := cov.report(run)
	if err != nil {
		return fail(err)
	}
	if err := write(env.Stdout, rep); err != nil {
		return fail(err)
	}
	// Fixtures that fail are left out of the counts; the run's verdict
	// says so in the exit code, as run would.
	code, why := verdict(run, r.Job)
	for _, w := range why {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, w)
	}
	return code
}

// coverageMarkdown is the coverage section of a job summary.
func coverageMarkdown(rep *coverage.Report) (string, error) {
	var b bytes.Buffer
	b.WriteString("\n")
	if err := coverage.WriteMarkdown(&b, rep); err != nil {
		return "", err
	}
	return b.String(), nil
}
