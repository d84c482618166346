package cli

// The manifest subcommands: write records the corpus, check compares it
// with its recorded manifest.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

var manifestUsage = `Usage:
  drp2-fixtures manifest write [--corpus DIR] [-o FILE] [--frozen]
  drp2-fixtures manifest check [--corpus DIR] [--manifest FILE] [--format ` + report.FormatChoices(report.KindManifest) + `]

write records the corpus in a manifest (default <corpus>/manifest.json);
check compares the corpus with it. Run "drp2-fixtures manifest write -h"
or "drp2-fixtures manifest check -h" for all flags.
`

func manifestCommand(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return exit.New(exit.Invocation, errors.New(strings.TrimSuffix(manifestUsage, "\n")))
	}
	switch args[0] {
	case "write":
		return manifestWrite(ctx, args[1:], env)
	case "check":
		return manifestCheck(ctx, args[1:], env)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, manifestUsage)
		return nil
	}
	return usagef("drp2-fixtures manifest", "unknown subcommand %q\n\n%s", args[0], strings.TrimSuffix(manifestUsage, "\n"))
}

// corpusFlags are the flags that say which corpus and schemas a whole-corpus
// subcommand reads.
func corpusFlags(fs *flag.FlagSet, j *gate.Source) {
	fs.StringVar(&j.Corpus, "corpus", "", "corpus root `DIR` (default: as for run, the working directory's, else the embedded corpus)")
	fs.StringVar(&j.CommandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: as for run)")
	fs.StringVar(&j.FixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: as for run)")
	j.MaxFileSize = gate.DefaultMaxFileSize
	maxFixtureSizeFlag(fs, &j.MaxFileSize)
	workersFlag(fs, &j.Workers)
}

// parseNoArgs parses flags for a subcommand that takes no operands and
// reads the corpus of j.
func parseNoArgs(fs *flag.FlagSet, args []string, j *gate.Source) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: this command reads the whole corpus", fs.Arg(0))
	}
	return nil
}

func manifestWrite(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures manifest write"
	var req gate.ManifestWrite
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &req.Source)
	fs.StringVar(&req.Out, "o", "", "write the manifest to `FILE`, or - for standard output (default <corpus>/manifest.json)")
	fs.BoolVar(&req.Frozen, "frozen", false, "declare the DRP2 version frozen (default: keep what an existing manifest at the same path declares)")
	if err := parseNoArgs(fs, args, &req.Source); err != nil {
		return flagError(name, err)
	}
	fs.Visit(func(f *flag.Flag) { req.FrozenSet = req.FrozenSet || f.Name == "frozen" })
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	w, err := gate.WriteManifest(ctx, ge, req)
	switch {
	case err != nil:
		return fail(name, err)
	case len(w.Unusable) > 0:
		for _, u := range w.Unusable {
			fmt.Fprintf(env.Stderr, "%s: %s\n", name, u)
		}
		fmt.Fprintf(env.Stderr, "%s: no manifest written: a manifest must not record an unusable corpus\n", name)
		return errVerdict
	case w.Broken != nil:
		report.Lookup("text").WriteManifest(env.Stderr, w.Broken)
		fmt.Fprintf(env.Stderr, "%s: %s is frozen and the corpus breaks the freeze; not overwritten (set \"frozen\": false in it first to re-record the version on purpose)\n", name, w.Shown)
		return errVerdict
	case w.Path == "":
		_, err := env.Stdout.Write(w.Data)
		return fail(name, err)
	}
	state := "not frozen"
	if w.Frozen {
		state = "frozen"
	}
	fmt.Fprintln(env.Stdout, escape.LogLine(fmt.Sprintf("Wrote %s: %d fixtures, DRP2 %s, %s", escape.OneLine(w.Shown), w.Fixtures, w.DRP2Version, state)))
	return nil
}

func manifestCheck(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures manifest check"
	var src gate.Source
	var path string
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &src)
	fs.StringVar(&path, "manifest", "", "the manifest `FILE` (default <corpus>/manifest.json)")
	format := addFormatFlag(fs, report.KindManifest)
	if err := parseNoArgs(fs, args, &src); err != nil {
		return flagError(name, err)
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	mc, err := gate.CheckManifest(ctx, ge, src, path)
	if err != nil {
		return fail(name, err)
	}
	if err := format.Format().ToLog(env.Stdout, func(w io.Writer) error { return format.Format().WriteManifest(w, mc.Cmp) }); err != nil {
		return fail(name, err)
	}
	if why := explain.FreezeBroken(mc.Cmp); why != "" {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, why)
		return errVerdict
	}
	return nil
}
