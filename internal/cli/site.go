package cli

import (
	"fmt"
	"path"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report/site"
)

// siteCommand builds the conformance site from published JSON reports:
// "drp2-fixtures site --out DIR INPUT...". A report that cannot be read
// is a warning naming its file, listed on the index, and the rest still
// builds; no report at all is unusable input.
func siteCommand(args []string, env Env) int {
	fs := newFlagSet("drp2-fixtures site", "drp2-fixtures site --out DIR REPORT.json|FOLDER|PATTERN...", env)
	out := fs.String("out", "", "`DIR` the site is written to (created; files of the same names are replaced)")
	inputs, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("drp2-fixtures site", err, env)
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "drp2-fixtures site: "+format+"\n", a...)
		return code
	}
	if *out == "" {
		return fail(ExitUsage, "--out is required: the folder the site is written to")
	}
	if len(inputs) == 0 {
		return fail(ExitUsage, "no report given: name JSON reports, folders holding them, or glob patterns")
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(exitFor(err), "%v", err)
	}
	collected, problems := gate.Collect(ge, inputs, *out)
	var words []string
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "drp2-fixtures site: warning: %v\n", p)
		words = append(words, p.Error())
	}
	if len(collected) == 0 {
		return fail(ExitUsage, "no usable report among the inputs")
	}
	reports := make([]site.Report, len(collected))
	for i, c := range collected {
		reports[i] = site.Report{Source: c.Source, Run: c.Run}
	}
	files := site.Build(reports, site.Options{Compare: gate.CompareRuns, Problems: words})
	save := gate.SaveReport(ge.WorkDir, false)
	for _, f := range files {
		if err := save(path.Join(*out, f.Path), f.Data, false); err != nil {
			return fail(ExitInternal, "write %s: %v", path.Join(*out, f.Path), err)
		}
	}
	fmt.Fprintf(env.Stdout, "drp2-fixtures site: %d reports, %d files in %s\n", len(collected), len(files), *out)
	return ExitOK
}
