package cli

// The manifest subcommands: write records the corpus, check compares it
// with its recorded manifest.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/drp2/drp2-fixtures/report/escape"

	"github.com/drp2/drp2-fixtures/internal/frontend"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

var manifestUsage = `Usage:
  drp2-fixtures manifest write [--corpus DIR] [-o FILE] [--frozen]
  drp2-fixtures manifest check [--corpus DIR] [--manifest FILE] [--format ` + frontend.FormatChoices(frontend.KindManifest) + `]

write records the corpus in a manifest (default <corpus>/manifest.json);
check compares the corpus with it. Run "drp2-fixtures manifest write -h"
or "drp2-fixtures manifest check -h" for all flags.
`

func manifestCommand(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, manifestUsage)
		return ExitUsage
	}
	switch args[0] {
	case "write":
		return manifestWrite(ctx, args[1:], env)
	case "check":
		return manifestCheck(ctx, args[1:], env)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, manifestUsage)
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "drp2-fixtures manifest: unknown subcommand %q\n\n%s", args[0], manifestUsage)
	return ExitUsage
}

// corpusFlags are the flags that say which corpus and schemas a whole-corpus
// subcommand reads.
func corpusFlags(fs *flag.FlagSet, j *gate.Job) {
	fs.StringVar(&j.Corpus, "corpus", "", "corpus root `DIR` (default ./fixtures when present, else the embedded corpus)")
	fs.StringVar(&j.CommandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: as for run)")
	fs.StringVar(&j.FixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: as for run)")
	fs.Int64Var(&j.MaxFileSize, "max-fixture-size", runner.DefaultMaxFileSize, "largest fixture file read, in `BYTES`")
	workersFlag(fs, &j.Workers)
}

// parseNoArgs parses flags for a subcommand that takes no operands.
func parseNoArgs(fs *flag.FlagSet, args []string, j *gate.Job) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: this command reads the whole corpus", fs.Arg(0))
	}
	if j.MaxFileSize <= 0 {
		return fmt.Errorf("--max-fixture-size must be positive")
	}
	return nil
}

// manifestRun runs the whole corpus for a manifest, without the semantic
// checker: a manifest records files and expectations, not verdicts.
func manifestRun(ctx context.Context, env Env, job gate.Job) (*gate.Resolved, *model.Run, error) {
	job.NoSemantics = true
	r, out, err := frontend.Execute(ctx, env, job)
	if err != nil {
		return nil, nil, err
	}
	return r, out.Run, nil
}

func manifestWrite(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures manifest write"
	var job gate.Job
	var out string
	var frozen bool
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &job)
	fs.StringVar(&out, "o", "", "write the manifest to `FILE`, or - for standard output (default <corpus>/manifest.json)")
	fs.BoolVar(&frozen, "frozen", false, "declare the DRP2 version frozen (default: keep what an existing manifest at the same path declares)")
	if err := parseNoArgs(fs, args, &job); err != nil {
		return flagError(name, err, env)
	}
	frozenSet := false
	fs.Visit(func(f *flag.Flag) { frozenSet = frozenSet || f.Name == "frozen" })
	fail := func(err error) int {
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	r, run, err := manifestRun(ctx, env, job)
	if err != nil {
		return fail(err)
	}
	m, unusable, err := r.BuildManifest(run)
	if err != nil {
		return fail(err)
	}
	if len(unusable) > 0 {
		for _, u := range unusable {
			fmt.Fprintf(env.Stderr, "%s: %s\n", name, u)
		}
		fmt.Fprintf(env.Stderr, "%s: no manifest written: a manifest must not record an unusable corpus\n", name)
		return ExitMismatch
	}
	path := ""
	if out != "-" {
		if path, err = r.ManifestPath(out, "-o"); err != nil {
			return fail(err)
		}
	}
	m.Frozen = frozen
	if path != "" {
		if code, err := keepFreeze(env, name, r, m, path, frozenSet); code != ExitOK || err != nil {
			if err != nil {
				return fail(err)
			}
			return code
		}
	}
	var b bytes.Buffer
	if err := manifest.Encode(&b, m); err != nil {
		return fail(err)
	}
	if path == "" {
		if _, err := env.Stdout.Write(b.Bytes()); err != nil {
			return fail(err)
		}
		return ExitOK
	}
	if err := r.Workspace().WriteFile(path, env.Redactor().Bytes(b.Bytes())); err != nil {
		return fail(usageErrorf("write manifest: %v", err))
	}
	state := "not frozen"
	if m.Frozen {
		state = "frozen"
	}
	fmt.Fprintln(env.Stdout, escape.LogLine(fmt.Sprintf("Wrote %s: %d fixtures, DRP2 %s, %s", escape.OneLine(r.Display(path)), len(m.Fixtures), m.DRP2Version, state)))
	return ExitOK
}

// keepFreeze compares the manifest about to be written with the one at
// path: re-recording a frozen manifest over changes that break the freeze
// would launder them, so it refuses and says how to do it on purpose.
// Unless --frozen was given, the new manifest keeps the old one's freeze.
func keepFreeze(env Env, name string, r *gate.Resolved, m *manifest.Manifest, path string, frozenSet bool) (int, error) {
	rec, err := r.ReadManifest(path)
	if errors.Is(err, os.ErrNotExist) {
		return ExitOK, nil
	}
	if err != nil {
		return 0, err
	}
	if !frozenSet {
		m.Frozen = rec.Frozen
	}
	if cmp := manifest.Compare(rec, m); rec.Frozen && cmp.Violations > 0 {
		cmp.Path = r.Display(path)
		frontend.Lookup("text").WriteManifest(env.Stderr, &gate.ManifestCheck{Cmp: cmp})
		fmt.Fprintf(env.Stderr, "%s: %s is frozen and the corpus breaks the freeze; not overwritten (set \"frozen\": false in it first to re-record the version on purpose)\n", name, r.Display(path))
		return ExitMismatch, nil
	}
	return ExitOK, nil
}

func manifestCheck(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures manifest check"
	var job gate.Job
	var path string
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &job)
	fs.StringVar(&path, "manifest", "", "the manifest `FILE` (default <corpus>/manifest.json)")
	format := frontend.AddFormatFlag(fs, frontend.KindManifest)
	if err := parseNoArgs(fs, args, &job); err != nil {
		return flagError(name, err, env)
	}
	fail := func(err error) int {
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	r, run, err := manifestRun(ctx, env, job)
	if err != nil {
		return fail(err)
	}
	p, err := r.ManifestPath(path, "--manifest")
	if err != nil {
		return fail(err)
	}
	mc, err := r.CompareManifest(run, p)
	if err != nil {
		return fail(err)
	}
	if err := format.Format().ToLog(env.Stdout, func(w io.Writer) error { return format.Format().WriteManifest(w, mc) }); err != nil {
		return fail(err)
	}
	if why := mc.FreezeBroken(); why != "" {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, why)
		return ExitMismatch
	}
	return ExitOK
}
