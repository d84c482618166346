package cli

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/site"
)

// siteCommand builds the conformance site from published JSON reports:
// "drp2-fixtures site --out DIR INPUT...". A report that cannot be read
// is a warning naming its file, listed on the index, and the rest still
// builds; no report at all is unusable input.
func siteCommand(args []string, env Env) error {
	const name = "drp2-fixtures site"
	fs := newFlagSet(name, "drp2-fixtures site --out DIR REPORT.json|FOLDER|PATTERN...", env)
	out := fs.String("out", "", "`DIR` the site is written to (created; files of the same names are replaced)")
	maxReport := fs.Int("max-report", gate.MaxCollectedReport>>20, "refuse a report file larger than `MiB` (a warning naming it; the rest still builds)")
	var require []model.Requirement
	requireFlag(fs, &require, "mark the implementation `NAME[@GLOB]` pending on the index, and exit 1, until a report of it from a device its adapter description matches by GLOB ('*' any text, case-insensitive; none: any device) is among the inputs (repeatable)")
	inputs, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(name, err)
	}
	if *out == "" {
		return usagef(name, "--out is required: the folder the site is written to")
	}
	if len(inputs) == 0 {
		return usagef(name, "no report given: name JSON reports, folders holding them, or glob patterns")
	}
	if *maxReport < 1 || *maxReport > 4096 {
		return usagef(name, "--max-report %d: want a whole number of MiB from 1 to 4096", *maxReport)
	}
	// The binary's soft limit suits a run; a site keeps the verdicts of
	// thousands of reports alive while it reads more, and under a fixed
	// limit would collect garbage without end. GOMEMLIMIT, when set, wins.
	memory := newSiteMemory(env.Var("GOMEMLIMIT") == "")
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	// Each report goes into the site as soon as it is read: the site keeps
	// of it only what it shows.
	b := site.NewBuilder(site.Options{Compare: gate.CompareRuns, Require: require, ImageFile: siteImage(ge.WorkDir)})
	problems := gate.Collect(ge, inputs, *out, int64(*maxReport)<<20, func(source string, run *model.Run) {
		b.AddRun(source, run)
		memory.added()
	})
	var words []string
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "drp2-fixtures site: warning: %v\n", p)
		words = append(words, p.Error())
	}
	for _, note := range b.Notes() {
		// The same start twice is a report published twice or runs dated by
		// one SOURCE_DATE_EPOCH: the series' latest is a guess.
		fmt.Fprintf(env.Stderr, "drp2-fixtures site: warning: %s (a report published twice, or runs under one SOURCE_DATE_EPOCH)\n", note)
	}
	n := b.Reports()
	if n == 0 {
		return fail(name, exit.Errorf(exit.Input, "no usable report among the inputs"))
	}
	memory.follow()
	files := b.Files(words)
	if hit, limit := memory.thrashed(); hit {
		fmt.Fprintf(env.Stderr, "drp2-fixtures site: warning: the soft memory limit (%d MiB) held the collector to its share of processor time: the build was slowed by memory, not by its work (GOMEMLIMIT sets another limit)\n", limit>>20)
	}
	save := gate.SaveReport(ge.WorkDir, false)
	for _, f := range files {
		if err := save(path.Join(*out, f.Path), f.Data, false); err != nil {
			return fail(name, exit.Errorf(exit.Tool, "write %s: %w", path.Join(*out, f.Path), err))
		}
	}
	fmt.Fprintf(env.Stdout, "drp2-fixtures site: %d reports, %d files in %s\n", n, len(files), *out)
	// The site is written all the same: its index shows what is pending.
	pending := b.Pending()
	for _, p := range pending {
		fmt.Fprintf(env.Stderr, "%s: pending: no report of %s\n", name, p)
	}
	if len(pending) > 0 {
		return fail(name, exit.Errorf(exit.Verdict, "%d required reports pending", len(pending)))
	}
	return nil
}

// siteImage reads a file a report's Level 3 image check names, for the
// site to show: an actual or diff image below the images folder beside
// the report (its file name and ".images", where run and the action
// write them), or a reference below the corpus root the report names,
// relative to the working directory. The workspace's tree holds each
// read inside its folder whatever the path says, refuses a link and
// anything but a regular file, and reads no more than the site keeps.
func siteImage(wd string) func(site.ImageKind, string, string, string) ([]byte, error) {
	ws := workspace.New(wd, false)
	return func(kind site.ImageKind, source, corpusRoot, rel string) ([]byte, error) {
		dir := source + ".images"
		if kind == site.ImageReference {
			if corpusRoot == "" || filepath.IsAbs(corpusRoot) || corpusRoot == "embedded" {
				return nil, errors.New("the report names no corpus folder below the working directory")
			}
			dir = corpusRoot
		}
		tree, err := ws.Tree(dir, site.MaxImageBytes)
		if err != nil {
			return nil, err
		}
		defer tree.Close()
		return tree.ReadFile(rel)
	}
}
