package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/harness"
)

// mergeCommand joins the JSON reports of several jobs or shards into one
// report, written and judged as run's would be: one JSON, one JUnit, one
// summary, one verdict.
func mergeCommand(_ context.Context, args []string, env Env) int {
	o := &runOptions{}
	j := &o.job
	failOn := defaultFailOn.String()
	fs := flag.NewFlagSet("drp2-fixtures merge", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&o.format, "format", "text", "standard output format: text, json or github")
	fs.StringVar(&j.Files.JUnit, "junit", "", "also write JUnit XML to `FILE`")
	fs.StringVar(&j.Files.Summary, "summary", "", "also append the Markdown job summary to `FILE`")
	fs.StringVar(&j.Files.JSON, "json-out", "", "also write the merged JSON report to `FILE`")
	fs.StringVar(&failOn, "fail-on", failOn, "`LIST` of what exits 1: mismatch, empty, findings; or never")
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "Usage: drp2-fixtures merge [flags] REPORT.json... (paths or glob patterns)")
		fs.PrintDefaults()
	}
	patterns, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(env.Stderr, "drp2-fixtures merge: %v\n", err)
		return code
	}
	switch o.format {
	case "text", "json", "github":
	default:
		return fail(ExitUsage, fmt.Errorf("--format %q: want text, json or github", o.format))
	}
	if j.FailOn, err = parseFailOn(failOn); err != nil {
		return fail(ExitUsage, fmt.Errorf("--fail-on: %w", err))
	}
	if len(patterns) == 0 {
		return fail(ExitUsage, fmt.Errorf("no report given: name the JSON reports to merge"))
	}
	r, err := resolve(env, *j)
	if err != nil {
		return fail(exitFor(err), err)
	}
	reports, err := readResults(r, patterns)
	if err != nil {
		return fail(exitFor(err), err)
	}
	run, err := harness.Merge(reports)
	if err != nil {
		return fail(ExitUsage, err)
	}
	run.ToolVersion = Version()
	fileErr := writeReports(run, j.Files, fileOptions{Dir: r.workDir, Getenv: env.getenv})
	if err := writeStdout(env.Stdout, run, o); err != nil {
		return fail(ExitInternal, err)
	}
	if fileErr != nil {
		return fail(exitFor(fileErr), fileErr)
	}
	code, why := verdict(run, *j)
	for _, w := range why {
		fmt.Fprintf(env.Stderr, "drp2-fixtures merge: %s\n", w)
	}
	return code
}
