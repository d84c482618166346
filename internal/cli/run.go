// Package cli is the drp2-fixtures command line: flags, environment,
// wiring and exit codes. It runs in-process in tests; only cmd/ touches
// os.Args and os.Exit.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/github"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/text"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// Env is the process environment the command sees.
type Env struct {
	Stdout, Stderr io.Writer
	// Getenv reads an environment variable; nil means none are set.
	Getenv func(string) string
	// Now is the wall clock; nil means time.Now. SOURCE_DATE_EPOCH, when
	// set, replaces it with a fixed time.
	Now func() time.Time
	// WorkDir is the working directory; empty means the process's.
	WorkDir string
	// Pacing overrides the GitHub API retry and pacing settings of the
	// action. Zero fields fall back to the DRP2_FIXTURES_API_* variables,
	// then to the production defaults of report/github.
	Pacing github.Pacing
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Clock returns the clock a run uses: SOURCE_DATE_EPOCH frozen when set
// (reproducible reports), else Now.
func (e Env) Clock() (func() time.Time, error) {
	if v := e.getenv("SOURCE_DATE_EPOCH"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a whole number of seconds", v)
		}
		t := time.Unix(secs, 0).UTC()
		return func() time.Time { return t }, nil
	}
	if e.Now != nil {
		return e.Now, nil
	}
	return time.Now, nil
}

const usage = `drp2-fixtures runs a DRP2 fixture corpus and reports the result.

Usage:
  drp2-fixtures run [flags] [PATH...]   run a corpus (default: ./fixtures, else the embedded corpus)
  drp2-fixtures action                  run as a GitHub Action (reads INPUT_* variables)
  drp2-fixtures version                 print the version
  drp2-fixtures help                    show this help

Run "drp2-fixtures run -h" for the flags of run.
`

// Main runs the command line and returns the exit code.
func Main(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, args[1:], env)
	case "action":
		return actionCommand(ctx, env)
	case "version", "--version":
		fmt.Fprintln(env.Stdout, "drp2-fixtures", version())
		return ExitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "drp2-fixtures: unknown command %q\n\n%s", args[0], usage)
	return ExitUsage
}

// version is the module version the binary was built from: a release tag
// with go install, "(devel)" in a checkout, plus the VCS revision when known.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// runOptions are the flags of run.
type runOptions struct {
	corpus        string
	commandSchema string
	fixtureSchema string
	name          string
	tags          stringList
	format        string
	junitPath     string
	summaryPath   string
	jsonPath      string
	maxSize       int64
	workers       int
	paths         []string
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func parseRun(args []string, stderr io.Writer) (*runOptions, error) {
	o := &runOptions{}
	fs := flag.NewFlagSet("drp2-fixtures run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.corpus, "corpus", "", "corpus root `DIR` holding positive/, negative/, negative_schema/ (default ./fixtures when present, else the embedded corpus)")
	fs.StringVar(&o.commandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: <corpus>/../schema/drp_command.json when present, else embedded)")
	fs.StringVar(&o.fixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: <corpus>/schema/drp_fixture.schema.json when present, else embedded)")
	fs.StringVar(&o.name, "name", "", "run only fixtures whose name contains `SUBSTR`")
	fs.Var(&o.tags, "tag", "run only fixtures carrying `TAG` (repeatable; all must be present)")
	fs.StringVar(&o.format, "format", "text", "standard output format: text, json or github")
	fs.StringVar(&o.junitPath, "junit", "", "also write JUnit XML to `FILE`")
	fs.StringVar(&o.summaryPath, "summary", "", "also append the Markdown job summary to `FILE` (as $GITHUB_STEP_SUMMARY expects)")
	fs.StringVar(&o.jsonPath, "json-out", "", "also write the JSON report to `FILE`")
	fs.Int64Var(&o.maxSize, "max-fixture-size", runner.DefaultMaxFileSize, "largest fixture file read, in `BYTES`")
	fs.IntVar(&o.workers, "workers", 0, "fixtures run at once (default: one per core)")
	// Flags and PATHs may come in any order.
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		o.paths = append(o.paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch o.format {
	case "text", "json", "github":
	default:
		return nil, fmt.Errorf("--format %q: want text, json or github", o.format)
	}
	if o.maxSize <= 0 {
		return nil, fmt.Errorf("--max-fixture-size must be positive")
	}
	return o, nil
}

func runCommand(ctx context.Context, args []string, env Env) int {
	o, err := parseRun(args, env.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures run: %v\n", err)
		return ExitUsage
	}
	clock, err := env.Clock()
	if err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures run: %v\n", err)
		return ExitUsage
	}
	cfg, err := o.config(env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures run: %v\n", err)
		return ExitUsage
	}
	cfg.Now = clock
	run, err := runner.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures run: %v\n", err)
		if errors.Is(err, runner.ErrInput) {
			return ExitUsage
		}
		return ExitInternal
	}
	// Files first: they are the record of the run.
	if err := Write(run, o.files(), Options{Dir: cfg.WorkDir, Getenv: env.getenv}); err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures run: %v\n", err)
		var re *Error
		if errors.As(err, &re) && !re.Rendering {
			return ExitUsage
		}
		return ExitInternal
	}
	if err := writeStdout(env.Stdout, run, o.format); err != nil {
		fmt.Fprintf(env.Stderr, "drp2-fixtures run: %v\n", err)
		return ExitInternal
	}
	return ExitCode(run)
}

// ExitCode is 0 when every fixture run matched, else 1.
func ExitCode(run *model.Run) int {
	if run.Summary.Failed > 0 {
		return ExitMismatch
	}
	return ExitOK
}

// config turns flags into a runner configuration, choosing the corpus.
func (o *runOptions) config(env Env) (runner.Config, error) {
	wd := env.WorkDir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return runner.Config{}, err
		}
	}
	cfg := runner.Config{
		Corpus: o.corpus, EmbeddedFS: fixtures.FS,
		CommandSchema: o.commandSchema, FixtureSchema: o.fixtureSchema,
		Paths: o.paths, Name: o.name, Tags: o.tags,
		Workers: o.workers, WorkDir: wd, MaxFileSize: o.maxSize,
		Checker: drp2.New(),
	}
	if cfg.Corpus == "" {
		cfg.Corpus = DefaultCorpus(wd, o.paths)
	}
	return cfg, nil
}

// DefaultCorpus picks the corpus when none is named: the corpus that holds
// the first PATH (the nearest folder above it with a fixture folder inside),
// else ./fixtures when present, else "" for the embedded corpus.
func DefaultCorpus(wd string, paths []string) string {
	if len(paths) > 0 {
		p := paths[0]
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		if _, err := os.Stat(p); err == nil {
			for dir := filepath.Clean(p); ; dir = filepath.Dir(dir) {
				for _, f := range runner.Folders {
					if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.IsDir() {
						return relTo(wd, dir)
					}
				}
				if filepath.Dir(dir) == dir {
					break
				}
			}
		}
	}
	if st, err := os.Stat(filepath.Join(wd, "fixtures")); err == nil && st.IsDir() {
		return relTo(wd, filepath.Join(wd, "fixtures"))
	}
	return ""
}

func relTo(wd, p string) string {
	if r, ok := runner.Within(wd, p); ok {
		return r
	}
	return p
}

// files are the report files the flags name.
func (o *runOptions) files() Paths {
	return Paths{JUnit: o.junitPath, JSON: o.jsonPath, Summary: o.summaryPath}
}

func writeStdout(w io.Writer, run *model.Run, format string) error {
	switch format {
	case "json":
		return jsonout.Write(w, run)
	case "github":
		return writeGitHub(w, run)
	default:
		return text.Write(w, run, text.Options{})
	}
}
