package cli

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/report/text"
)

// diffCommand compares two JSON reports: "drp2-fixtures diff BASE.json
// HEAD.json". It prints the comparison and exits 1 when a fixture that
// passed in BASE fails in HEAD, 0 otherwise, 2 for unusable input.
func diffCommand(args []string, env Env) int {
	fs := newFlagSet("drp2-fixtures diff", "drp2-fixtures diff [--format text|json|markdown] BASE.json HEAD.json", env)
	format := fs.String("format", "text", "output format: text, json (the comparison member of the JSON report) or markdown (the job summary of HEAD, led by the delta)")
	// Flags may come after the two files too.
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("drp2-fixtures diff", err, env)
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "drp2-fixtures diff: "+format+"\n", a...)
		return code
	}
	switch len(files) {
	case 2:
	case 1:
		return fail(ExitUsage, "%s is one report; diff needs two, BASE.json HEAD.json (each written by run --json-out), the base first", files[0])
	default:
		return fail(ExitUsage, "diff needs two JSON reports, BASE.json HEAD.json (each written by run --json-out); got %d arguments", len(files))
	}
	switch *format {
	case "text", "json", "markdown":
	default:
		return fail(ExitUsage, "--format %q: want text, json or markdown", *format)
	}
	base, err := baseline.ReadReportFile(workspace.New(env.WorkDir, false), files[0])
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	head, err := baseline.ReadReportFile(workspace.New(env.WorkDir, false), files[1])
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	head.Comparison = baseline.Compare(base, head, files[0])
	switch *format {
	case "json":
		err = jsonout.WriteComparison(env.Stdout, head.Comparison)
	case "markdown":
		err = markdown.WriteSummary(env.Stdout, head, markdown.Options{})
	default:
		err = text.WriteComparison(env.Stdout, head.Comparison)
	}
	if err != nil {
		return fail(ExitInternal, "%v", err)
	}
	if head.Comparison.Delta().Regressed > 0 {
		return ExitMismatch
	}
	return ExitOK
}
