package cli

import (
	"io"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
)

// diffCommand compares two JSON reports: "drp2-fixtures diff BASE.json
// HEAD.json". It prints the comparison and exits 1 when HEAD regressed by
// the one rule of fail-on regressions (gate.Regressions: a fixture that
// passed in BASE fails in HEAD, or one added failing, unless a known
// failure), 0 otherwise, 2 for unusable input.
func diffCommand(args []string, env Env) error {
	const name = "drp2-fixtures diff"
	fs := newFlagSet(name, "drp2-fixtures diff [--format "+report.FormatChoices(report.KindComparison)+"] BASE.json HEAD.json", env)
	format := addFormatFlag(fs, report.KindComparison)
	// Flags may come after the two files too.
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(name, err)
	}
	switch len(files) {
	case 2:
	case 1:
		return usagef(name, "%s is one report; diff needs two, BASE.json HEAD.json (each written by run --json-out), the base first", files[0])
	default:
		return usagef(name, "diff needs two JSON reports, BASE.json HEAD.json (each written by run --json-out); got %d arguments", len(files))
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	head, regressed, err := gate.Diff(ge, files[0], files[1])
	if err != nil {
		return fail(name, err)
	}
	if err := format.Format().ToLog(env.Stdout, func(w io.Writer) error { return format.Format().WriteComparison(w, head) }); err != nil {
		return fail(name, exit.New(exit.Tool, err))
	}
	if regressed {
		return errVerdict
	}
	return nil
}
