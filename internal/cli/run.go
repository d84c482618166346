package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// runOptions are the flags of run: the request, and where its results
// go. Merge takes what it reads of the request (mergeCommand).
type runOptions struct {
	job     gate.RunRequest
	files   report.Paths
	format  *FormatFlag
	verbose bool
	color   bool
}

// parseInterspersed parses flags and operands in any order (flag.Parse
// stops at the first operand) and returns the operands.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return operands, nil
		}
		operands = append(operands, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func parseRun(args []string, env Env) (*runOptions, error) {
	o := &runOptions{}
	j := &o.job
	j.Spelling = gate.FlagSpelling
	var tags, impls stringList
	failOn := gate.DefaultFailOn.String()
	fs := newFlagSet("drp2-fixtures run", "drp2-fixtures run [flags] [PATH...]", env)
	fs.StringVar(&j.Corpus, "corpus", "", "corpus root `DIR` holding positive/, negative/, negative_schema/ (default: the working directory's, as the action finds it: spec/drp2/fixtures, ./fixtures, or the one folder holding the three; else the corpus holding the first PATH; else the embedded corpus)")
	fs.StringVar(&j.CommandSchema, "command-schema", "", "command schema `FILE`, or \"embedded\" (default: <corpus>/../schema/drp_command.json when present, else embedded)")
	fs.StringVar(&j.FixtureSchema, "fixture-schema", "", "fixture envelope schema `FILE`, or \"embedded\" (default: <corpus>/schema/drp_fixture.schema.json when present, else embedded)")
	fs.StringVar(&j.Name, "name", "", "run only fixtures whose name contains `SUBSTR`")
	fs.Var(&tags, "tag", "run only fixtures carrying `TAG` (repeatable; all must be present)")
	o.outputFlags(fs, &failOn)
	fs.StringVar(&j.Baseline, "baseline", "", "compare with `BASE`: auto (the pull request's base commit, else HEAD^, from the git objects), a folder holding the base checkout, or an earlier JSON report (default: no comparison)")
	fs.StringVar(&j.KnownFailures, "known-failures", "", "`FILE` listing fixtures that are known to fail, one per line with a reason: reported, but not failing the run")
	var expectations stringList
	fs.Var(&expectations, "expectations", "expectations `FILE`: IMPLEMENTATION PATH fail|flaky|skip [# reason] a line, for the implementations and the built-in validator (drp2-fixtures); repeatable")
	fs.StringVar(&j.UpdateExpectations, "update-expectations", "", "write the expectations as they should be after this run to `FILE`: stale entries removed, new failures added")
	retriesFlag(fs, &j.Retries)
	fs.StringVar(&j.RerunFailed, "rerun-failed", "", "send the implementations only the fixtures the earlier JSON `REPORT` of this run did not pass (failed, did not report, or changed since), and carry its other results over into a complete report; a report of another corpus, selection, schema, commit or set of implementations is refused")
	j.MaxFileSize = gate.DefaultMaxFileSize
	maxFixtureSizeFlag(fs, &j.MaxFileSize)
	workersFlag(fs, &j.Workers)
	parsedFlag(fs, "shard", "run only the `K/N` part of the selected fixtures, the K-th of N (by a hash of each fixture's path: one corpus, N jobs, merged by drp2-fixtures merge); auto (or auto/N) reads K and N from the CI system (docs/shards.md)", &j.Shard, gate.ParseShard)
	fs.StringVar(&j.ShardTimings, "shard-timings", "", "balance the shards of --shard by the durations of an earlier JSON `REPORT` (the fixtures it names by time, the others by path hash)")
	fs.StringVar(&j.Manifest, "manifest", "", "compare the corpus with the manifest `FILE`; a frozen manifest's violations fail the run")
	fs.BoolVar(&j.CheckClean, "check-clean", false, "fail the run on any difference from the manifest (default --manifest: <corpus>/manifest.json)")
	fs.Var(&impls, "implementation", "also run the fixtures through the DRP2 implementation started by `CMD` (a command line speaking docs/harness.md; repeatable; @FILE reads one command a line)")
	j.Timeout = gate.DefaultTimeout
	fs.Var(durationValue{&j.Timeout}, "timeout", "longest wait for an implementation's answer to one fixture, a `DURATION` such as 10s")
	fs.StringVar(&j.ExpectAdapter, "expect-adapter", "", "fail an implementation whose hello names a device its adapter description does not match by `GLOB` ('*' any text, case-insensitive), before it is sent a fixture: a GPU job fallen back to a software adapter")
	level3Flags(fs, j)
	var err error
	if j.Paths, err = parseInterspersed(fs, args); err != nil {
		return nil, err
	}
	if j.ImagesOut == "" && o.files.JSON != "" {
		// Beside the JSON report, as its artifact.
		j.ImagesOut = o.files.JSON + ".images"
	}
	j.Tags = tags
	j.Implementations = impls
	j.Expectations = expectations
	if j.Timeout <= 0 {
		return nil, fmt.Errorf("--timeout must be positive")
	}
	if err := o.checkOutput(failOn); err != nil {
		return nil, err
	}
	return o, nil
}

// level3Flags are the flags of Level 3's images (docs/level3.md).
func level3Flags(fs *flag.FlagSet, j *gate.RunRequest) {
	fs.StringVar(&j.ImagesOut, "images-out", "", "write the actual and diff images of the Level 3 checks that do not match exactly below `DIR` (default: <json-out>.images when --json-out is given, else none)")
	fs.BoolVar(&j.UpdateRefs, "update-refs", false, "write the images that do not match their references (or have none) as the references of the platform that ran, below the corpus's level3/refs; never done without it")
	fs.StringVar(&j.ImageKey, "platform-key", "", "the `PARTS` of an implementation's hello its platform key is made of, most significant first: name, version, vendor, architecture, device, driver, platform (default vendor,device)")
	fs.IntVar(&j.Level3Repeat, "level3-repeat", 0, "send each fixture with images `R` times in all (every other attempt in a fresh process) and flag an image that differs between attempts as nondeterministic")
}

// outputFlags are the flags of run and merge that say where the results
// go and what fails the command.
func (o *runOptions) outputFlags(fs *flag.FlagSet, failOn *string) {
	o.format = addFormatFlag(fs, report.KindRun)
	for i := range report.ReportFiles {
		rf := &report.ReportFiles[i]
		fs.StringVar(rf.Path(&o.files), rf.Flag, "", rf.Help)
	}
	fs.BoolVar(&o.verbose, "verbose", false, "text output lists passing fixtures and every finding too")
	fs.StringVar(&o.job.Commit, "commit", "", "record in the JSON report that the run was made on the commit `SHA` (hex), for collectors of published reports")
	fs.StringVar(&o.job.Repository, "repository", "", "record in the JSON report that the run was made in the repository `OWNER/NAME`")
	fs.StringVar(&o.job.RunURL, "run-url", "", "record in the JSON report that the workflow run at `URL` (https://HOST/OWNER/NAME/actions/runs/ID[/attempts/N]) made it")
	requireFlags(fs, &o.job.Require)
	fs.StringVar(failOn, "fail-on", *failOn, "`LIST` of what exits 1: mismatch, empty (no fixture ran), findings, regressions (a fixture that passed on the baseline fails), level3 (readback bytes differ in the Level 3 preview, or an image fails its reference: docs/level3.md), unexpected-pass (a fixture expected to fail passed), flaky (a flaky fixture); or never")
}

// requireFlags are --require and its older spelling --require-implementation,
// which names an implementation alone, as written, '@' and all.
func requireFlags(fs *flag.FlagSet, dst *[]model.Requirement) {
	requireFlag(fs, dst, "fail unless the implementation `NAME[@GLOB]` (its name, \"name version\" or command) reported from a device its adapter description matches by GLOB ('*' any text, case-insensitive; none: any device): a job that never uploaded its report, or ran on another device, is named, not forgotten (repeatable)")
	fs.Func("require-implementation", "fail unless the implementation `NAME` reported, on any device (--require NAME@ as written; repeatable)", func(s string) error {
		*dst = append(*dst, model.Requirement{Name: s})
		return nil
	})
}

// requireFlag is --require NAME[@GLOB] (model.ParseRequirement).
func requireFlag(fs *flag.FlagSet, dst *[]model.Requirement, usage string) {
	fs.Func("require", usage, func(s string) error {
		r, err := model.ParseRequirement(s)
		if err != nil {
			return err
		}
		*dst = append(*dst, r)
		return nil
	})
}

// checkOutput checks the values of outputFlags. In GitHub Actions, the
// gate takes the commit and the repository the flags leave out from the
// environment.
func (o *runOptions) checkOutput(failOn string) error {
	var err error
	if o.job.FailOn, err = gate.ParseFailOn(failOn); err != nil {
		return fmt.Errorf("--fail-on: %w", err)
	}
	if c := o.job.Commit; c != "" && !model.IsCommit(c) {
		return fmt.Errorf("--commit %q: not a commit's hex name (4 to 64 hexadecimal digits)", c)
	}
	if r := o.job.Repository; r != "" && !model.IsRepository(r) {
		return fmt.Errorf("--repository %q: not OWNER/NAME (letters, digits, '-', '_' and '.')", r)
	}
	if u := o.job.RunURL; u != "" {
		repo := model.RunURLRepository(u)
		if repo == "" {
			return fmt.Errorf("--run-url %q: not a workflow run's address (https://HOST/OWNER/NAME/actions/runs/ID[/attempts/N])", u)
		}
		if r := o.job.Repository; r != "" && r != repo {
			return fmt.Errorf("--run-url %q: a run of %s, not of --repository %s", u, repo, r)
		}
		// The run names its repository: a report records the two
		// together or neither.
		o.job.Repository = repo
	}
	return nil
}

// runCommand runs a corpus from the command line: the report files first
// (they are the record of the run), then standard output, then the exit
// code. A report file that cannot be written fails the command, but only
// after the results were printed.
func runCommand(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures run"
	o, err := parseRun(args, env)
	if err != nil {
		return flagError(name, err)
	}
	o.color = report.UseColor(env.Var, env.IsTerminal != nil && env.IsTerminal())
	progress, stop := env.startProgress(name)
	ge, err := env.gateEnv()
	var out *gate.Outcome
	if err == nil {
		ge.Progress = progress
		out, err = gate.Run(ctx, ge, o.job)
	}
	stop()
	if err != nil {
		return fail(name, err)
	}
	return finish(env, name, out, ge.WorkDir, o)
}

// finish ends run and merge alike: the report files, standard output (the
// manifest comparison after the report, or on standard error after a
// document that must stay the whole of standard output), then why the
// run failed, as the verdict says.
func finish(env Env, name string, out *gate.Outcome, wd string, o *runOptions) error {
	fileErr := report.WriteReports(out.Run, o.files, report.FileOptions{Getenv: env.Var, Redact: env.Redactor().Bytes,
		Write: gate.SaveReport(wd, false), Stream: workspace.New(wd, false).WriteFileFrom, ImagesFolder: o.job.ImagesOut})
	f := o.format.Format()
	ro := report.PrintOptions(env.Var, o.verbose, o.color)
	err := f.ToLog(env.Stdout, func(w io.Writer) error { return f.WriteRun(w, out.Run, ro) })
	if t := report.Lookup("text"); err == nil && f.Whole && out.Manifest != nil {
		err = t.ToLog(env.Stderr, func(w io.Writer) error { return t.WriteManifest(w, out.Manifest.Cmp) })
	}
	if err != nil {
		return fail(name, exit.New(exit.Tool, err))
	}
	if fileErr != nil {
		var errs []error
		for _, e := range report.ReportErrors(fileErr) {
			errs = append(errs, fail(name, e))
		}
		return errors.Join(errs...)
	}
	if note := explain.EmbeddedFallback(out.Run); note != "" {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, note)
	}
	for _, w := range append(exit.Lines(out.Err), explain.Judgement(out.Run).Reasons...) {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, w)
	}
	return outcomeEnd(out)
}
