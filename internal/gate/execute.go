package gate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/expect"
	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// Outcome is what a job produced: the run (its results, implementations,
// comparison and judgement), and the manifest comparison and rule
// coverage when the job asked for them.
type Outcome struct {
	Run *model.Run
	// Manifest is the corpus compared with its manifest; nil when not
	// asked for.
	Manifest *ManifestCheck
	// Coverage is the validator's rule coverage of the run; nil when not
	// asked for.
	Coverage *model.Coverage
	// Verdict is the one judgement of the outcome (also Run.Judgement).
	Verdict *model.Judgement
	// Err is what stopped a step that runs after the run exists (the
	// manifest, the coverage): the run is still reported, and fails.
	Err error
	// judged is the run whole, as it was judged, before its files were
	// named for the sinks and it was bounded: what a use case that goes on
	// from the run reads (a manifest, an exploration), never a sink.
	judged *model.Run
	// commands are the implementations' command lines, expanded before
	// the corpus runs, and announced how many fixtures the progress total
	// counts for each of them already.
	commands  []string
	announced int
	// rerun is what a re-run of what failed sends again; nil for a run
	// of everything.
	rerun *rerunPlan
}

// errVerdictFailed ends a command whose run failed by fail-on; the front
// end prints the verdict's reasons.
var errVerdictFailed = exit.New(exit.Verdict, errors.New("the run failed by fail-on"))

// End is the error the outcome ends its command with, for the front end
// to return once it has printed the outcome: Err, what stopped a step
// after the run, else the verdict's failure; nil when the run passes.
func (o *Outcome) End() error {
	switch {
	case o.Err != nil:
		return o.Err
	case o.Verdict != nil && o.Verdict.Failed:
		return errVerdictFailed
	}
	return nil
}

// step is one stage of Execute. A late step's failure does not stop the
// job: the run it adds to is reported all the same (Outcome.Err).
type step struct {
	name string
	late bool
	run  func(context.Context, *Resolved, *Outcome) error
}

// steps are the stages of a job in their one order. Each does nothing when
// the job does not ask for it, but the last three: the judgement, made
// from the whole run, and the run made into what every sink shows, once.
var steps = []step{
	{"run the corpus", false, runCorpus},
	{"plan the re-run", false, planRerun},
	{"run the implementations", false, runImplementations},
	{"check the images", true, checkImages},
	{"carry over the earlier results", false, carryOver},
	{"merge the results", false, mergeResults},
	{"record the provenance", false, provenance},
	{"apply the expectations", false, applyExpectations},
	{"compare with the baseline", false, compareBaseline},
	{"hold the known failures to the base", false, holdKnownToBase},
	{"hide the secrets", false, redact},
	{"compare with the manifest", true, compareManifest},
	{"count the rule coverage", true, countCoverage},
	{"update the expectations", true, updateExpectations},
	{"judge the outcome", false, judgeOutcome},
	{"name the files as the workspace does", false, nameInWorkspace},
	{"bound what every sink shows", false, boundForSinks},
}

// skippedWhenInterrupted are the steps an interrupted run leaves out: the
// baseline would run the base, and the expectations written from a part of
// the run would drop the entries of the fixtures that did not run.
var skippedWhenInterrupted = map[string]bool{"compare with the baseline": true, "update the expectations": true}

// Execute runs a resolved job, step by step, and judges the outcome. An
// error means the run itself could not go on (its exit code: Code). A
// signal (ctx's cause an exit.Interruption) once the corpus has run is no
// such error: the outcome is what ran, interrupted (interrupt), and fails.
func Execute(ctx context.Context, r *Resolved) (*Outcome, error) {
	o := &Outcome{}
	for _, s := range steps {
		if o.Run != nil && o.Run.Interrupted != nil && skippedWhenInterrupted[s.name] {
			continue
		}
		err := s.run(ctx, r, o)
		if in := exit.InterruptionOf(context.Cause(ctx)); in != nil {
			if o.Run == nil {
				return nil, fmt.Errorf("%w before the corpus had run: no report is written", in)
			}
			// The step's error, if any, is the stop's.
			o.interrupt(in)
			err = nil
		}
		switch {
		case err == nil:
		case s.late:
			o.Err = errors.Join(o.Err, err)
		default:
			return nil, err
		}
	}
	return o, nil
}

// interrupt records the signal that stopped the run, once, with how far it
// got: the fixtures every implementation finished (the validator's, when
// there are none) of those sent to them. Its error comes first in the
// outcome's, so that the exit code is the signal's.
func (o *Outcome) interrupt(in *exit.Interruption) {
	if o.Run.Interrupted != nil {
		return
	}
	of := 0
	for i := range o.Run.Results {
		if !o.Run.Results[i].IsCorpusError() {
			of++
		}
	}
	done := of
	for i := range o.Run.Implementations {
		done = min(done, len(o.Run.Implementations[i].Results))
	}
	o.Run.Interrupted = &model.Interruption{Signal: in.Signal, Done: done, Of: of}
	o.Err = errors.Join(fmt.Errorf("%w: the implementations were ended, and the reports hold the fixtures that ran", in), o.Err)
}

func runCorpus(ctx context.Context, r *Resolved, o *Outcome) error {
	if r.mergeOnly {
		return nil
	}
	commands, err := harness.ExpandCommands(r.readInput, r.Implementations)
	if err != nil {
		return usagef("%w", err)
	}
	o.commands = commands
	cfg := r.Config
	cfg.Progress = r.env.Progress
	cfg.Sized = func(fixtures int) {
		// Every fixture is sent to every implementation after the
		// validator has run them all: the total counts that work from the
		// start, or the line reads 50000/50000 while the implementations
		// start and jumps to /100000.
		o.announced = fixtures
		r.env.Progress.Add(fixtures * len(commands))
		if r.env.Sized != nil {
			r.env.Sized(fixtures)
		}
	}
	cfg.LargestFixture = r.env.LargestFixture
	if r.coverage != nil {
		// The head run only: the base runs with the plain validator.
		cfg.Checker = r.coverage.counter
	}
	run, err := runner.Run(ctx, cfg)
	if err != nil {
		return err
	}
	run.ToolVersion = r.env.ToolVersion
	run.CorpusSearch = r.CorpusSearch
	o.Run = run
	return nil
}

func runImplementations(ctx context.Context, r *Resolved, o *Outcome) error {
	if len(r.Implementations) == 0 || o.Run == nil {
		return nil
	}
	fsys := r.corpusSource().FS
	read := func(rel string) ([]byte, error) { return fs.ReadFile(fsys, rel) }
	// The run's clock times the implementations as it times the validator:
	// under SOURCE_DATE_EPOCH every duration is zero and the reports are
	// the same from run to run.
	cfg := harness.Config{Commands: o.commands, Announced: o.announced, Dir: r.WorkDir, Timeout: r.Timeout, Progress: r.env.Progress,
		Expect: r.expect.Expectation, Retries: r.Retries, Now: r.Config.Now, ExpectAdapter: r.ExpectAdapter, Repeat: r.Level3Repeat}
	sent := o.rerun.sentAgain(o.Run)
	impls, err := harness.Run(ctx, cfg, sent, read)
	o.Run.FixtureReadbacks = sent.FixtureReadbacks
	if err != nil && exit.InterruptionOf(context.Cause(ctx)) == nil {
		return err
	}
	// Stopped by a signal, the implementations hold what ran.
	o.Run.Implementations = impls
	return nil
}

// checkImages compares the images the corpus describes (level3/) with
// their references, for the implementations this run ran, writing the
// actual and diff images below ImagesOut and, on request alone, the
// references. A file that cannot be written fails the run; the checks are
// reported all the same.
func checkImages(_ context.Context, r *Resolved, o *Outcome) error {
	if len(r.Implementations) == 0 || o.Run == nil || len(o.Run.Implementations) == 0 {
		return nil
	}
	fsys := r.corpusSource().FS
	read := func(rel string) ([]byte, error) { return fs.ReadFile(fsys, rel) }
	ws := r.workspace()
	opts := harness.ImageOptions{Key: r.imageKey}
	if r.ImagesOut != "" {
		opts.WriteImage = func(rel string, data []byte) error {
			return ws.WriteFile(filepath.Join(r.ImagesOut, filepath.FromSlash(rel)), data)
		}
	}
	if r.UpdateRefs {
		opts.WriteRef = func(rel string, data []byte) error {
			return ws.WriteFile(filepath.Join(r.Config.Corpus, filepath.FromSlash(rel)), data)
		}
	}
	if err := harness.CheckImages(opts, o.Run.Implementations, read); err != nil {
		return exit.Errorf(exit.Record, "level 3 images: %w", err)
	}
	return nil
}

func mergeResults(_ context.Context, r *Resolved, o *Outcome) error {
	if len(r.Results) == 0 {
		return nil
	}
	held := 0
	if o.Run != nil {
		held = resultsHeld(o.Run)
	}
	reports, err := readResults(r, r.Results, held)
	if err != nil {
		return err
	}
	if o.Run != nil {
		reports = append([]harness.Report{{Source: "this run", Run: o.Run}}, reports...)
	}
	merged, err := harness.Merge(reports)
	if err != nil {
		return usagef("%w", err)
	}
	if r.mergeOnly {
		merged.ToolVersion = r.env.ToolVersion
	}
	o.Run = merged
	return nil
}

// provenance records what the run was made on, and the digest of the
// fixtures it selected, computed from the results themselves so that a
// merge of shards has the digest of the whole.
func provenance(_ context.Context, r *Resolved, o *Outcome) error {
	if o.Run == nil {
		return nil
	}
	// In GitHub Actions, what the request leaves out comes from the
	// environment, as the action's own report takes it: a runtime's CLI
	// job records its commit without flags.
	origin := actionsOrigin(r.env.Getenv)
	if c := cmp.Or(r.Commit, origin.commit); c != "" {
		o.Run.Commit = c
	}
	if rep := cmp.Or(r.Repository, origin.repository); rep != "" {
		o.Run.Repository = rep
	}
	// A run of another repository than the report's is left out: a
	// collector would link it as this one's.
	if u := cmp.Or(r.RunURL, origin.runURL); model.IsRunURL(u, o.Run.Repository) {
		o.Run.RunURL = u
	}
	if o.Run.CorpusDigest == "" {
		// The runner's digest names the whole selection, the other
		// shards' fixtures too (a shard's, by the list of its paths); a
		// run without one (merged from reports that recorded none) takes
		// its results'.
		o.Run.CorpusDigest = runner.DigestOfResults(o.Run.Results)
	}
	return nil
}

// applyExpectations marks every result, the validator's and each
// implementation's, with the expectations entry that covers it.
func applyExpectations(_ context.Context, r *Resolved, o *Outcome) error {
	r.expect.Apply(o.Run)
	return nil
}

// compareBaseline compares the run with its baseline. A baseline that
// cannot be had for a reason that must not stop the run (a shallow
// checkout) leaves run.Comparison saying why.
func compareBaseline(ctx context.Context, r *Resolved, o *Outcome) error {
	if r.mergeOnly {
		return nil
	}
	c, err := baseline.For(ctx, baseline.Options{Spec: r.Baseline, Config: r.Config, Getenv: r.env.Getenv, Decode: r.env.ReadReport,
		Implementations: r.baseImplementations}, o.Run)
	if errors.Is(err, baseline.ErrInput) {
		return usagef("%w", err)
	}
	if err != nil {
		return err
	}
	o.Run.Comparison = c
	return nil
}

// redact hides the secrets the process holds in whatever the run carries
// (an implementation's stderr, its name and messages, another job's
// report, a fixture's text) before it is judged or reaches a report.
func redact(_ context.Context, r *Resolved, o *Outcome) error {
	if r.env.Redact != nil {
		r.env.Redact(o.Run)
	}
	return nil
}

func compareManifest(_ context.Context, r *Resolved, o *Outcome) error {
	if r.manifest == "" {
		return nil
	}
	mc, err := r.compareManifest(o.Run, r.manifest)
	if err != nil {
		return err
	}
	o.Manifest = mc
	return nil
}

// updateExpectations writes the expectations as they should be after the
// run (expect.Update): from the expectations file of the same path when
// one was given, else the first, else from nothing.
func updateExpectations(_ context.Context, r *Resolved, o *Outcome) error {
	if r.UpdateExpectations == "" {
		return nil
	}
	ws := r.workspace()
	target := r.display(under(r.WorkDir, r.UpdateExpectations))
	var src []byte
	from := ""
	for _, file := range r.Expectations {
		if from == "" || r.display(under(r.WorkDir, file)) == target {
			from = r.display(under(r.WorkDir, file))
		}
	}
	if from != "" {
		data, err := r.readInput(from)
		if err != nil {
			return usagef("update-expectations: %w", err)
		}
		src = data
	}
	out, diff := expect.Update(src, from, r.expect, o.Run)
	if from != target {
		// Written elsewhere: the diff compares the new file with its
		// source, under the new file's name.
		diff = renameDiff(diff, from, target)
	}
	if err := ws.WriteFile(r.UpdateExpectations, r.env.RedactBytes(out)); err != nil {
		return exit.Errorf(exit.Record, "update-expectations: %w", err)
	}
	o.Run.ExpectationsUpdate = &model.ExpectationsUpdate{File: target, Diff: diff}
	return nil
}

// renameDiff names the new side of a diff target.
func renameDiff(diff, from, target string) string {
	if diff == "" {
		return ""
	}
	head := "--- " + from + "\n+++ " + from + "\n"
	if from == "" {
		return "--- /dev/null\n+++ " + target + "\n" + strings.TrimPrefix(diff, head)
	}
	return "--- " + from + "\n+++ " + target + "\n" + strings.TrimPrefix(diff, head)
}

func countCoverage(_ context.Context, r *Resolved, o *Outcome) error {
	if r.coverage == nil {
		return nil
	}
	rep, err := r.coverage.report(o.Run)
	if err != nil {
		return fmt.Errorf("rule coverage: %w", err)
	}
	o.Coverage = rep
	return nil
}

// exploreSeed is the seed of a job's exploration: one seed, so that every
// run of a workflow explores the same streams and a new disagreement means
// a changed implementation, not luck.
const exploreSeed = 1

// ExploreAfter explores from the job's corpus with the run it made
// (merged reports hold fixtures of other corpora: explore then runs its
// own), within the job's ExploreTime, and writes the candidates when
// asked. It is not a step of Execute: a front end writes the run's
// reports first, and what an exploration finds is a lead that never
// changes the verdict, so its error is the front end's to tell. It returns
// what the exploration found (nil when not asked for or not made), with
// the candidates' error when they could not be written.
func ExploreAfter(ctx context.Context, r *Resolved, o *Outcome) (*model.Exploration, error) {
	if r.Explore == 0 {
		return nil, nil
	}
	run := o.judged
	if len(r.Results) > 0 {
		run = nil
	}
	rep, err := exploreFrom(ctx, r, exploration{seed: exploreSeed, count: r.Explore, time: r.ExploreTime, run: run})
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	if r.ExploreOut != "" {
		if err := writeCandidates(r, r.ExploreOut, rep); err != nil {
			// A folder the candidates cannot go to is the input's fault,
			// as explore --out says.
			return rep, usagef("explore: candidates below %s: %w", r.ExploreOut, err)
		}
	}
	return rep, nil
}

// FailedBy is the outcome with a failure that came after the judgement (a
// report file that could not be written): the outcome's error, and a
// reason of the judgement, in its run too, so that every sink that has not
// shown the verdict yet shows a failed one, for the same reason as the
// exit code. o itself is not changed; a nil err returns o.
func (o *Outcome) FailedBy(err error) *Outcome {
	if err == nil {
		return o
	}
	f := *o
	f.Err = errors.Join(o.Err, err)
	if o.Verdict != nil && !o.Verdict.Decided(model.ReasonIncomplete) {
		v := *o.Verdict
		v.Reasons = append(slices.Clip(o.Verdict.Reasons), model.Reason{Kind: model.ReasonIncomplete})
		v.Failed = true
		f.Verdict = &v
	}
	if o.Run != nil && o.Run.Judgement == o.Verdict {
		run := *o.Run
		run.Judgement = f.Verdict
		f.Run = &run
	}
	return &f
}

// readResults reads JSON reports named by paths or glob patterns (relative
// to the working directory), in lexical order within each pattern. A
// pattern that matches nothing is unusable input: a results input
// pointing nowhere is a mistake, not an empty merge. So is a file git
// tracks, which the checkout, not a job, put there.
// resultsHeld counts the results a run holds, its implementations' too.
func resultsHeld(run *model.Run) int {
	n := len(run.Results)
	for i := range run.Implementations {
		n += len(run.Implementations[i].Results)
	}
	return n
}

// readResults reads the reports the patterns name, in order. held is the
// number of results the command holds already.
func readResults(r *Resolved, patterns []string, held int) ([]harness.Report, error) {
	var reports []harness.Report
	seen := map[string]bool{}
	tracker := baseline.NewTracker()
	// The reports are read one after the other into one buffer: a report
	// is decoded into values of its own, done with its bytes before the
	// next is read.
	var buf []byte
	for _, pat := range patterns {
		matches, err := filepath.Glob(under(r.WorkDir, pat))
		if err != nil {
			return nil, usagef("results %q: %w", pat, err)
		}
		if len(matches) == 0 {
			return nil, usagef("results %q: no such file", pat)
		}
		sort.Strings(matches)
		for _, m := range matches {
			if seen[m] {
				continue
			}
			seen[m] = true
			rep, err := readResult(r, tracker, m, "results", &buf)
			if err != nil {
				return nil, err
			}
			reports = append(reports, rep)
			// The results read so far stay until the merge: the
			// memory settings grow with them, as with a run's fixtures,
			// or the collector works against a limit made for none.
			held += resultsHeld(rep.Run)
			if r.env.Holds != nil {
				r.env.Holds(held)
			}
		}
	}
	return reports, nil
}

// readResult reads one JSON report, named in messages as the setting
// what that names it.
func readResult(r *Resolved, tracker *baseline.Tracker, path, what string, buf *[]byte) (harness.Report, error) {
	name := r.display(path)
	// A report the checkout holds is the pull request's word for a run,
	// not a run: a file committed where the artifacts are downloaded
	// would pass for the job's report when the job uploaded none.
	tracked, err := tracker.Tracked(path)
	if err != nil {
		return harness.Report{}, usagef(what+" %s: cannot tell whether git tracks it: %w", name, err)
	}
	if tracked {
		return harness.Report{}, usagef(what+" %s: git tracks this file (the checkout's commit or index holds it): "+
			"a result must come from the job that made it, as an artifact downloaded into a folder the repository does not track, "+
			"not from the repository's own files", name)
	}
	data, err := r.readInputInto(path, *buf)
	if err != nil {
		return harness.Report{}, usagef(what+" %s: %w", name, err)
	}
	*buf = data
	run, err := r.env.ReadReport(data)
	if err != nil {
		return harness.Report{}, usagef(what+" %s: %w", name, err)
	}
	return harness.Report{Source: name, Run: run}, nil
}
