package cli

// The manifest subcommands (write, check), run --check-clean and the
// action's manifest input: a corpus compared with its recorded manifest.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/runner"
)

// ManifestFile is the manifest's file name in the corpus root, where
// manifest write puts it and manifest check and run --check-clean look.
const ManifestFile = "manifest.json"

const manifestUsage = `Usage:
  drp2-fixtures manifest write [--corpus DIR] [-o FILE] [--frozen]
  drp2-fixtures manifest check [--corpus DIR] [--manifest FILE] [--format text|json]

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
func corpusFlags(fs *flag.FlagSet, j *Job) {
	fs.StringVar(&j.Corpus, "corpus", "", "corpus root `DIR` (default ./fixtures when present, else the embedded corpus)")
	fs.StringVar(&j.CommandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: as for run)")
	fs.StringVar(&j.FixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: as for run)")
	fs.Int64Var(&j.MaxFileSize, "max-fixture-size", runner.DefaultMaxFileSize, "largest fixture file read, in `BYTES`")
	fs.IntVar(&j.Workers, "workers", 0, "fixtures run at once (default: one per core)")
}

// parseNoArgs parses flags for a subcommand that takes no operands.
func parseNoArgs(fs *flag.FlagSet, args []string, j *Job) error {
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

// corpusSource is where a resolved job's corpus lies, for the manifest,
// coverage and the harness.
func (r resolved) corpusSource() manifest.Source {
	if r.config.Corpus == "" {
		return manifest.Source{FS: fixtures.FS, WorkDir: r.workDir}
	}
	ws := r.workspace()
	return manifest.Source{FS: ws.FS(r.config.Corpus, workspace.MaxInputFile), CorpusDir: ws.Abs(r.config.Corpus), WorkDir: r.workDir}
}

// manifestPath is the manifest file a job uses: the one given, else
// <corpus>/manifest.json. The embedded corpus has no folder to hold one.
func (r resolved) manifestPath(given, flagName string) (string, error) {
	if given != "" {
		if filepath.IsAbs(given) {
			return given, nil
		}
		return filepath.Join(r.workDir, given), nil
	}
	src := r.corpusSource()
	if src.CorpusDir == "" {
		return "", usageErrorf("the embedded corpus has no manifest file: name one with %s, or give --corpus", flagName)
	}
	return filepath.Join(src.CorpusDir, ManifestFile), nil
}

// display shows a path relative to the working directory when it lies
// under it, slash separated (a repository path in the action).
func (r resolved) display(p string) string { return r.workspace().Display(p) }

// manifestRun runs the whole corpus for a manifest. The semantic checker is
// left out unless the job has one already: a manifest records files and
// expectations, not verdicts.
func manifestRun(ctx context.Context, env Env, job Job) (resolved, *model.Run, error) {
	r, err := resolve(env, job)
	if err != nil {
		return r, nil, err
	}
	r.config.Checker = nil
	run, err := execute(ctx, r)
	return r, run, err
}

// buildManifest records a run's corpus.
func buildManifest(r resolved, run *model.Run) (*manifest.Manifest, []string, error) {
	m, unusable, err := manifest.Build(run, r.corpusSource())
	if err != nil {
		return nil, nil, usageErrorf("%v", err)
	}
	return m, unusable, nil
}

// manifestComparison is a corpus compared with the manifest at path.
type manifestComparison struct {
	// path is the manifest's path for display and annotations.
	path string
	cmp  *manifest.Comparison
	// results maps corpus-relative paths to display paths.
	results map[string]string
}

// compareManifest reads the manifest at path and compares the run's corpus
// with it. An unreadable or missing manifest is unusable input.
func compareManifest(r resolved, run *model.Run, path string) (*manifestComparison, error) {
	rec, err := readManifest(r, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usageErrorf("manifest %s does not exist: write it with drp2-fixtures manifest write", r.display(path))
	}
	if err != nil {
		return nil, err
	}
	cur, _, err := buildManifest(r, run)
	if err != nil {
		return nil, err
	}
	mc := &manifestComparison{path: r.display(path), cmp: manifest.Compare(rec, cur), results: map[string]string{}}
	for i := range run.Results {
		mc.results[run.Results[i].RelPath] = run.Results[i].Path
	}
	return mc, nil
}

// readManifest reads and decodes the manifest at path, as every input file
// is read (readInput); a missing one is fs.ErrNotExist.
func readManifest(r resolved, path string) (*manifest.Manifest, error) {
	data, err := r.readInput(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, usageErrorf("manifest: %v", err)
	}
	rec, err := manifest.Decode(data)
	if err != nil {
		return nil, usageErrorf("manifest %s: %v", r.display(path), err)
	}
	return rec, nil
}

// freezeBroken says how the corpus breaks a frozen manifest; "" when it
// does not.
func (mc *manifestComparison) freezeBroken() string {
	if mc.cmp.Violations == 0 {
		return ""
	}
	return fmt.Sprintf("the corpus breaks the freeze of %s: %s", mc.path, manifestCount(mc.cmp.Violations, "violation"))
}

// annotations are the freeze violations located in the repository.
func (mc *manifestComparison) annotations() []annotation.Annotation {
	return manifest.Annotations(mc.cmp, manifest.Where{
		Manifest: mc.path,
		Fixture:  func(rel string) string { return mc.results[rel] },
	})
}

func manifestWrite(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures manifest write"
	var job Job
	var out string
	var frozen bool
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	corpusFlags(fs, &job)
	fs.StringVar(&out, "o", "", "write the manifest to `FILE`, or - for standard output (default <corpus>/manifest.json)")
	fs.BoolVar(&frozen, "frozen", false, "declare the DRP2 version frozen (default: keep what an existing manifest at the same path declares)")
	if err := parseNoArgs(fs, args, &job); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return ExitUsage
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
	m, unusable, err := buildManifest(r, run)
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
		if path, err = r.manifestPath(out, "-o"); err != nil {
			return fail(err)
		}
	}
	m.Frozen = frozen
	if path != "" {
		// Re-recording a frozen manifest over changes that break the freeze
		// would launder them: refuse, and say how to do it on purpose.
		rec, err := readManifest(r, path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fail(err)
		}
		if err == nil {
			if !frozenSet {
				m.Frozen = rec.Frozen
			}
			if cmp := manifest.Compare(rec, m); rec.Frozen && cmp.Violations > 0 {
				manifest.WriteText(env.Stderr, cmp)
				fmt.Fprintf(env.Stderr, "%s: %s is frozen and the corpus breaks the freeze; not overwritten (set \"frozen\": false in it first to re-record the version on purpose)\n", name, r.display(path))
				return ExitMismatch
			}
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
	if err := r.workspace().WriteFile(path, r.redact.Bytes(b.Bytes())); err != nil {
		return fail(usageErrorf("write manifest: %v", err))
	}
	state := "not frozen"
	if m.Frozen {
		state = "frozen"
	}
	fmt.Fprintf(env.Stdout, "Wrote %s: %d fixtures, DRP2 %s, %s\n", r.display(path), len(m.Fixtures), m.DRP2Version, state)
	return ExitOK
}

func manifestCheck(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures manifest check"
	var job Job
	var path, format string
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	corpusFlags(fs, &job)
	fs.StringVar(&path, "manifest", "", "the manifest `FILE` (default <corpus>/manifest.json)")
	fs.StringVar(&format, "format", "text", "output format: text or json")
	if err := parseNoArgs(fs, args, &job); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return ExitUsage
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(env.Stderr, "%s: --format %q: want text or json\n", name, format)
		return ExitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	r, run, err := manifestRun(ctx, env, job)
	if err != nil {
		return fail(err)
	}
	p, err := r.manifestPath(path, "--manifest")
	if err != nil {
		return fail(err)
	}
	mc, err := compareManifest(r, run, p)
	if err != nil {
		return fail(err)
	}
	write := manifest.WriteText
	if format == "json" {
		write = manifest.WriteJSON
	}
	if err := write(env.Stdout, mc.cmp); err != nil {
		return fail(err)
	}
	if why := mc.freezeBroken(); why != "" {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, why)
		return ExitMismatch
	}
	return ExitOK
}

// checkManifest compares a run's corpus with its manifest when the job
// asks for it (run --manifest or --check-clean), writes the comparison to
// out, and returns why the run fails, if it does: a frozen manifest's
// violations, and with CheckClean any difference at all, so that every
// change to the corpus comes with its manifest.
func checkManifest(r resolved, run *model.Run, out io.Writer) ([]string, error) {
	if r.Manifest == "" && !r.CheckClean {
		return nil, nil
	}
	p, err := r.manifestPath(r.Manifest, "--manifest")
	if err != nil {
		return nil, err
	}
	mc, err := compareManifest(r, run, p)
	if err != nil {
		return nil, err
	}
	if mc.cmp.Clean() {
		_, err := fmt.Fprintf(out, "Manifest: %s\n", mc.cmp.Headline())
		return nil, err
	}
	if err := manifest.WriteText(out, mc.cmp); err != nil {
		return nil, err
	}
	var why []string
	if w := mc.freezeBroken(); w != "" {
		why = append(why, w)
	}
	if r.CheckClean {
		why = append(why, fmt.Sprintf("the corpus differs from its manifest %s (--check-clean): record the change with drp2-fixtures manifest write", mc.path))
	}
	return why, nil
}

// manifestCount is "1 change" or "2 changes".
func manifestCount(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
