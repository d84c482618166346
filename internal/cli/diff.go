package cli

import (
	"errors"
	"flag"
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
	fs := flag.NewFlagSet("drp2-fixtures diff", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	format := fs.String("format", "text", "output format: text, json (the comparison member of the JSON report) or markdown (the job summary of HEAD, led by the delta)")
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "Usage: drp2-fixtures diff [--format text|json|markdown] BASE.json HEAD.json")
		fs.PrintDefaults()
	}
	// Flags may come after the two files too.
	files, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "drp2-fixtures diff: "+format+"\n", a...)
		return code
	}
	if len(files) != 2 {
		return fail(ExitUsage, "want two JSON reports, BASE.json HEAD.json; got %d arguments", len(files))
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
