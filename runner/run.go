// Package runner implements the DRP2 fixture runner contract
// (fixtures/RUNNER.md): discovery, filters, classification, the four phases
// in order with first-failure semantics, result matching and the summary.
//
// The semantic and capability phases sit behind the Checker port; the
// runner never imports a reporter.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// Config says what to run and how.
type Config struct {
	// Corpus is the corpus root directory. Empty means the embedded corpus
	// (EmbeddedFS); the CLI turns "./fixtures when present" into a path.
	Corpus string
	// EmbeddedFS is the corpus used when Corpus is empty: BuiltinCorpus,
	// or a base commit's tree.
	EmbeddedFS fs.FS
	// CommandSchema and FixtureSchema are paths, Embedded, or empty for
	// the upstream layout next to the corpus when present, else embedded.
	CommandSchema string
	FixtureSchema string
	// SchemaFS, when set, is where CommandSchema and FixtureSchema (slash
	// paths) and every schema file they refer to are read from, instead of
	// the disk: the schemas of a corpus held in memory, such as a base
	// commit read from git objects. The upstream layout is not looked for.
	SchemaFS fs.FS
	// Schemas, when set, are schemas compiled beforehand by CompileSchemas;
	// CommandSchema and FixtureSchema are then not read.
	Schemas *Schemas
	// Paths keep only fixtures at or below these files or folders.
	Paths []string
	// Name keeps only fixtures whose name contains it.
	Name string
	// Tags keep only fixtures that carry every one of them.
	Tags []string
	// Shard, when set, runs only the fixtures of that part of the
	// selection (ShardOf); nil runs all of them.
	Shard *model.Shard
	// Workers is the number of fixtures run at once; 0 means one per core.
	Workers int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// WorkDir is the directory display paths are relative to; empty means
	// the process's working directory.
	WorkDir string
	// Contained holds the corpus and the schema files (and every file a
	// schema refers to) inside WorkDir: the action, where the pull request
	// lays out the workspace. Links are never followed below WorkDir either
	// way.
	Contained bool
	// MaxFileSize bounds one fixture file; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Progress, when set, counts the fixtures as they are run.
	Progress *Progress
	// Sized, when set, is told how many fixtures the run is about to run,
	// once they are selected and before any runs: main scales the soft
	// memory limit with it.
	Sized func(fixtures int)
	// Checker runs the semantic and capability phases. Nil stops every
	// stream after the command schema (a schema-only run).
	Checker Checker
	// FixtureTimeout is the wall-clock limit of one fixture; 0 means
	// DefaultFixtureTimeout and a negative value means none. It is a last
	// resort: the work of a fixture is bounded deterministically (the
	// checker's work budget, the size and value limits of the runner), so
	// verdicts never depend on the machine's speed. A fixture still running
	// at the limit is stopped and reported as a corpus error that says so,
	// and the run goes on without it.
	FixtureTimeout time.Duration
	// RunTimeout bounds the whole run; 0 means DefaultRunTimeout and a
	// negative value means none. Past it, fixtures still running are
	// stopped and the ones not started are not run, each reported as a
	// corpus error that says so; Run still returns the results, so that
	// the reports are written.
	RunTimeout time.Duration
}

// DefaultFixtureTimeout is the wall-clock limit of one fixture, far above
// any honest input: the largest fixture the default size limit admits
// needs at most its work budget (about 140 million units), which takes
// well under a minute even on a loaded two-core machine.
const DefaultFixtureTimeout = 10 * time.Minute

// DefaultRunTimeout bounds a whole run, below the six hours a GitHub
// Actions job may run, so that a run that is too long still writes its
// reports.
const DefaultRunTimeout = 2 * time.Hour

// ErrInput marks errors about unusable input (exit code 2): a corpus root
// that cannot be read, a schema that does not compile, a path outside the
// corpus.
var ErrInput = errors.New("unusable input")

func inputError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, args...))
}

// Run runs the corpus and returns the results in discovery order. A Go
// error means the run itself could not go on; a fixture that fails is a
// result, not an error.
func Run(ctx context.Context, cfg Config) (*model.Run, error) {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	started := now()
	c, err := newCorpus(cfg)
	if err != nil {
		return nil, err
	}
	defer c.close()
	sch, err := schemasFor(cfg, c.workDir, c.dir)
	if err != nil {
		return nil, err
	}
	found, err := discover(c.fsys, c.display)
	if err != nil {
		return nil, inputError("corpus %s: %v", c.root, err)
	}
	selected, err := c.underPaths(found.files, cfg.Paths)
	if err != nil {
		return nil, err
	}
	mine, others := splitShard(selected, cfg.Shard)
	cfg.Progress.Add(len(mine))
	if cfg.Sized != nil {
		cfg.Sized(len(mine))
	}
	runCtx, stop := runContext(cfg.RunTimeout)
	defer stop()
	job := newFixtureJob(cfg, c, sch, now)
	results, err := job.runAll(ctx, runCtx, mine, cfg.Workers)
	if err != nil {
		return nil, err
	}
	run := &model.Run{
		CorpusRoot:    c.root,
		CommandSchema: sch.commandSource,
		FixtureSchema: sch.fixtureSource,
		Started:       started,
		Results:       results,
		Shard:         cfg.Shard,
		CorpusDigest:  job.corpusDigest(results, others, cfg.Workers),
	}
	run.Findings = append(found.skipped, corpusFindings(run.Results)...)
	sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
	run.Summary = model.Summarize(len(found.files), run.Results, run.Findings)
	run.Duration = now().Sub(started)
	return run, nil
}

// underPaths keeps the discovered files at or below paths.
func (c *corpus) underPaths(files, paths []string) ([]string, error) {
	filter, err := c.pathFilter(paths)
	if err != nil {
		return nil, err
	}
	var selected []string
	for _, rel := range files {
		if filter.Keep(rel) {
			selected = append(selected, rel)
		}
	}
	return selected, nil
}

// splitShard parts the selected fixtures into those of the shard and the
// others; without a shard, every one is the run's.
func splitShard(selected []string, shard *model.Shard) (mine, others []string) {
	if shard == nil {
		return selected, nil
	}
	for _, rel := range selected {
		if InShard(shard, rel) {
			mine = append(mine, rel)
		} else {
			others = append(others, rel)
		}
	}
	return mine, others
}

// corpusDigest is the digest of the whole selection (CorpusDigest):
// the files of the run's results, and those of the other shards that the
// filters select (probe), so that every shard reports the digest of one
// unsharded run.
func (j *fixtureJob) corpusDigest(results []model.Result, others []string, workers int) string {
	files := resultFiles(results, len(others))
	sums := make([]string, len(others))
	keep := make([]bool, len(others))
	forEach(len(others), workers, 1, func(int) bool { return false }, func(i, _ int) {
		sums[i], keep[i] = j.probe(others[i])
	})
	for i, rel := range others {
		if keep[i] {
			files[rel] = sums[i]
		}
	}
	return CorpusDigest(files)
}

// probe reads a fixture of another shard as far as the filters need: the
// sha256 of its file, and whether the name and tag filters keep it, as run
// decides (a file that is not a usable fixture has no name or tags, so a
// name or tag filter drops it).
func (j *fixtureJob) probe(rel string) (sum string, keep bool) {
	var mem fixtureMemory
	defer mem.free()
	data, cerr := readFixture(j.corpus.fsys, rel, j.limit, &mem)
	sum = digest(data, nil).File
	if j.name == "" && len(j.tags) == 0 {
		return sum, true
	}
	var fx *fixture
	if cerr == nil {
		fx, cerr = decodeFixture(data, &mem)
	}
	if cerr == nil {
		cerr = j.checkEnvelope(fx)
	}
	if cerr != nil {
		return sum, false
	}
	return sum, j.selected(fx.str("name"), fx.tags())
}

// runContext ends at the run's time limit (Config.RunTimeout); the
// caller's context, separately, still aborts the run as a whole. stop
// releases it.
func runContext(timeout time.Duration) (ctx context.Context, stop func()) {
	if timeout == 0 {
		timeout = DefaultRunTimeout
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	if timeout < 0 {
		return ctx, func() { cancel(nil) }
	}
	t := time.AfterFunc(timeout, func() { cancel(fmt.Errorf("the run's time limit of %s was reached", timeout)) })
	return ctx, func() { t.Stop(); cancel(nil) }
}

// newFixtureJob is the work of one fixture as cfg configures it, its
// defaults applied.
func newFixtureJob(cfg Config, c *corpus, sch *schemas, now func() time.Time) *fixtureJob {
	limit := cfg.MaxFileSize
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	budget := cfg.FixtureTimeout
	if budget == 0 {
		budget = DefaultFixtureTimeout
	}
	return &fixtureJob{corpus: c, schemas: sch, commands: newCommandPhase(sch), envelopes: newEnvelopeShapes(sch),
		checker: cfg.Checker, now: now, limit: limit, name: cfg.Name, tags: cfg.Tags, budget: budget, progress: cfg.Progress,
		overBudget: fmt.Errorf("the wall-clock limit of %s for one fixture was reached", budget)}
}

// runAll runs the selected fixtures on the worker pool and returns their
// results in selection order, without the fixtures filtered out. ctx, the
// caller's, aborts the run: a fixture not begun when it ends would have no
// result. runCtx ends at the run's time limit: the fixtures not begun by
// then are reported as not run.
func (j *fixtureJob) runAll(ctx, runCtx context.Context, selected []string, workers int) ([]model.Result, error) {
	results := make([]model.Result, len(selected))
	keep := make([]bool, len(selected))
	var aborted atomic.Bool
	loops := fixtureLoops{idle: make(chan chan<- fixtureCall, max(workers, runtime.GOMAXPROCS(0)))}
	defer loops.close()
	forEach(len(selected), workers, 1, func(int) bool {
		if ctx.Err() != nil {
			aborted.Store(true)
			return true
		}
		return false
	}, func(i, _ int) {
		if runCtx.Err() != nil {
			results[i], keep[i] = j.notRun(selected[i], context.Cause(runCtx)), true
			j.progress.Did(true)
			return
		}
		results[i], keep[i] = j.runWithBudget(runCtx, selected[i], &loops)
		j.progress.Did(keep[i] && !results[i].Passed)
	})
	if aborted.Load() {
		return nil, ctx.Err()
	}
	// Drop the filtered-out fixtures in place: a large run holds one
	// results array, not two.
	kept := results[:0]
	for i := range results {
		if keep[i] {
			kept = append(kept, results[i])
		}
	}
	return kept, nil
}

// corpus is where fixtures are read from and how their paths are shown.
type corpus struct {
	root    string // as given, or Embedded
	dir     string // absolute directory, empty when embedded
	fsys    fs.FS
	tree    *workspace.Tree // the corpus on disk, closed after the run
	workDir string
}

// workDir is cfg.WorkDir, or the process's working directory.
func workDir(cfg Config) (string, error) {
	if cfg.WorkDir != "" {
		return cfg.WorkDir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return wd, nil
}

// schemasFor is cfg.Schemas when given, else the schemas cfg names,
// compiled (corpusDir empty for the embedded corpus).
func schemasFor(cfg Config, workDir, corpusDir string) (*schemas, error) {
	if cfg.Schemas != nil {
		return cfg.Schemas.s, nil
	}
	sch, err := loadSchemas(cfg, workDir, corpusDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	return sch, nil
}

// newCommandPhase is the command-schema phase of one run or validator,
// with its own verdict cache.
func newCommandPhase(sch *schemas) *commandPhase {
	p := &commandPhase{schemas: sch, cache: &verdictCache{}}
	if bounds, ok := sch.NumberBounds(); ok && len(bounds) < 1<<14 {
		p.shapes, p.shapeBounds = &verdictCache{}, bounds
	}
	return p
}

func newCorpus(cfg Config) (*corpus, error) {
	wd, err := workDir(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Corpus == "" {
		if cfg.EmbeddedFS == nil {
			return nil, inputError("no corpus given and none embedded")
		}
		return &corpus{root: Embedded, fsys: cfg.EmbeddedFS, workDir: wd}, nil
	}
	ws := workspace.New(wd, cfg.Contained)
	switch ws.Kind(cfg.Corpus) {
	case workspace.Missing:
		return nil, inputError("corpus root %s: no such folder", cfg.Corpus)
	case workspace.File:
		return nil, inputError("corpus root %s is not a directory", cfg.Corpus)
	}
	tree, err := ws.Tree(cfg.Corpus, 0)
	if err != nil {
		return nil, inputError("corpus root: %v", err)
	}
	if _, err := tree.ReadDir("."); err != nil {
		tree.Close()
		return nil, inputError("corpus root: %v", err)
	}
	return &corpus{root: cfg.Corpus, dir: tree.Dir(), fsys: tree, tree: tree, workDir: wd}, nil
}

func (c *corpus) close() {
	if c.tree != nil {
		c.tree.Close()
	}
}

// display turns a corpus-relative path into the path shown in reports:
// relative to the working directory when the fixture lies under it.
func (c *corpus) display(rel string) string {
	if c.dir == "" {
		return Embedded + ":" + rel
	}
	return DisplayPath(c.workDir, c.root, rel)
}

// DisplayPath shows the corpus-relative path rel of a corpus on disk (as
// given, relative to workDir or absolute) the way a run shows its
// fixtures: relative to the working directory when the fixture lies under
// it, else below the corpus as given.
func DisplayPath(workDir, corpus, rel string) string {
	abs := filepath.Join(workspace.Resolve(workDir, corpus), filepath.FromSlash(rel))
	if r, ok := workspace.Within(workDir, abs); ok {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(filepath.Join(corpus, filepath.FromSlash(rel)))
}

// pathFilter turns PATH arguments into corpus-relative prefixes. On disk a
// PATH is a file or folder path; for the embedded corpus it is relative to
// the corpus root.
func (c *corpus) pathFilter(paths []string) (PathFilter, error) {
	var f PathFilter
	for _, p := range paths {
		if c.dir == "" {
			rel := strings.Trim(filepath.ToSlash(filepath.Clean(p)), "/")
			if _, err := fs.Stat(c.fsys, rel); err != nil {
				// Name the real problem: a file on disk that no corpus
				// holds is not a path into the embedded corpus.
				if _, err := os.Lstat(workspace.Resolve(c.workDir, p)); err == nil {
					return nil, inputError("path %s: no corpus holds it (no folder above it holds positive/, negative/ or negative_schema/), so the embedded corpus runs, which does not have it: give the corpus root with --corpus DIR", p)
				}
				return nil, inputError("path %s: no such file or folder, on disk or in the embedded corpus", p)
			}
			f = append(f, rel)
			continue
		}
		abs := workspace.Resolve(c.workDir, p)
		if _, err := os.Lstat(abs); err != nil {
			return nil, inputError("path %s: %v", p, unwrapPath(err))
		}
		rel, ok := workspace.Within(c.dir, abs)
		if !ok {
			return nil, inputError("path %s is outside the corpus %s", p, c.root)
		}
		f = append(f, filepath.ToSlash(rel))
	}
	return f, nil
}

// fixtureJob runs single fixtures; it is shared by the workers and holds no
// per-fixture state.
type fixtureJob struct {
	corpus   *corpus
	schemas  *schemas
	commands *commandPhase
	// envelopes keeps the envelopes found valid by their shape; nil when
	// the fixture schema does not allow it.
	envelopes *envelopeShapes
	checker   Checker
	now       func() time.Time
	limit     int64
	name      string
	tags      []string
	budget    time.Duration // <= 0: none
	// overBudget is the cause of a fixture's stop at budget.
	overBudget error
	progress   *Progress
}

// runWithBudget runs one fixture on another goroutine (a loop) under its
// wall-clock limit (and the run's, through ctx). At the limit the fixture's
// context is cancelled: its phases see it and end (the schema phase every
// 1,024 commands, the checker every 4,096), and runWithBudget waits for
// them, so that no abandoned work goes on using the machine. What is left
// to wait for is bounded by the fixture's deterministic limits.
func (j *fixtureJob) runWithBudget(ctx context.Context, rel string, loops *fixtureLoops) (model.Result, bool) {
	if j.budget <= 0 {
		return j.run(ctx, rel)
	}
	fctx, cancel := context.WithTimeoutCause(ctx, j.budget, j.overBudget)
	defer cancel()
	done := make(chan fixtureOutcome, 1)
	loop := loops.get(j)
	loop <- fixtureCall{ctx: fctx, rel: rel, done: done}
	select {
	case o := <-done:
		loops.put(loop)
		return o.res, o.keep
	case <-fctx.Done():
	}
	// The phases of this runner stop within moments of the cancellation;
	// a Checker that ignores its context is given stopGrace, then left.
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case o := <-done:
		loops.put(loop)
		return o.res, o.keep
	case <-grace.C:
	}
	// The loop ends when the checker returns at last.
	close(loop)
	if j.name != "" || len(j.tags) > 0 {
		// As for a corpus error: the name and tags may not be known yet.
		return model.Result{}, false
	}
	return model.Result{Path: j.corpus.display(rel), RelPath: rel, Folder: folderOf(rel), Name: stem(rel),
		Actual: model.Actual{Outcome: model.CorpusError,
			Message: fmt.Sprintf("not judged: %v, and the checker did not stop within %s of it", context.Cause(fctx), stopGrace)}}, true
}

// fixtureLoops are goroutines that run fixtures one after another, each
// waiting for its next call: a goroutine's stack, grown by the first deep
// schema validation, then serves the next fixtures instead of growing again
// on a new goroutine for each (a few per cent of a large run's time). A loop
// is used by one worker at a time; one whose fixture is left running past
// its grace is closed instead of reused.
type fixtureLoops struct {
	idle chan chan<- fixtureCall
}

type fixtureCall struct {
	ctx  context.Context
	rel  string
	done chan<- fixtureOutcome
}

type fixtureOutcome struct {
	res  model.Result
	keep bool
}

// get returns an idle loop, or starts one.
func (ls *fixtureLoops) get(j *fixtureJob) chan<- fixtureCall {
	select {
	case loop := <-ls.idle:
		return loop
	default:
	}
	calls := make(chan fixtureCall)
	go func() {
		for c := range calls {
			res, keep := j.run(c.ctx, c.rel)
			c.done <- fixtureOutcome{res, keep}
		}
	}()
	return calls
}

// put makes loop idle, or ends it when enough are.
func (ls *fixtureLoops) put(loop chan<- fixtureCall) {
	select {
	case ls.idle <- loop:
	default:
		close(loop)
	}
}

// close ends the idle loops; the run's workers are done with them.
func (ls *fixtureLoops) close() {
	for {
		select {
		case loop := <-ls.idle:
			close(loop)
		default:
			return
		}
	}
}

// stopGrace is how long a cancelled fixture may take to stop.
const stopGrace = 10 * time.Second

// notRun is the result of a fixture the run did not start: why is the
// reason, the run's time limit.
func (j *fixtureJob) notRun(rel string, why error) model.Result {
	return model.Result{Path: j.corpus.display(rel), RelPath: rel, Folder: folderOf(rel), Name: stem(rel),
		Actual: model.Actual{Outcome: model.CorpusError, Message: fmt.Sprintf("not run: %v", why)}}
}

// run runs one fixture through every phase. It reports false when the
// fixture is filtered out by name or tag. When ctx ends, the phases stop
// early and the fixture is reported as not judged, with ctx's cause.
func (j *fixtureJob) run(ctx context.Context, rel string) (res model.Result, keep bool) {
	start := j.now()
	res = model.Result{Path: j.corpus.display(rel), RelPath: rel, Folder: folderOf(rel), Name: stem(rel)}
	defer func() {
		if p := recover(); p != nil {
			// A bug in a phase must cost one fixture, not the run.
			res.Actual = model.Actual{Outcome: model.Error, Code: "DRP2_ERR_INTERNAL",
				Message: fmt.Sprintf("internal error while running the fixture: %v", p)}
			res.Passed = false
			keep = true
		}
		res.Duration = j.now().Sub(start)
	}()

	var mem fixtureMemory
	// Deferred after the recover above, so it runs first: nothing made
	// from data outlives this call but copies.
	defer mem.free()
	var sums digester
	defer sums.wait() // runs before mem.free: the sums read the fixture's bytes
	data, fx, cerr := j.readAndDecode(rel, &mem, &sums, &res.Digest)
	if cerr == nil {
		cerr = j.checkEnvelope(fx)
		// The stand-ins of the commands served the envelope phase only; a
		// long stream should not hold them through the later phases.
		delete(fx.doc, "commands")
	}
	if cerr != nil {
		// The name and tags are unknown: a name or tag filter cannot
		// select this file, but a run without them always shows it.
		if j.name != "" || len(j.tags) > 0 {
			return res, false
		}
		res.Actual = model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope, Message: cerr.msg}
		res.Span = cerr.span
		if res.Span == nil && data != nil {
			res.Span = spanAt(data, cerr.offset)
		}
		return res, true
	}

	res.Name = fx.str("name")
	res.Tags = fx.tags()
	if !j.selected(res.Name, res.Tags) {
		return res, false
	}
	res.Expected = fx.expected()
	res.Class = classify(res.Expected)

	failure, found := j.phases(ctx, fx, res.RelPath, res.Class)
	if failure == nil && ctx.Err() != nil {
		failure = &model.Failure{Unjudged: true, Message: fmt.Sprintf("not judged: %v", context.Cause(ctx))}
	}
	if failure != nil && failure.Unjudged {
		// No verdict: not a match or a mismatch, and whatever the checker
		// found on the way is not reported either.
		res.Actual = model.Actual{Outcome: model.CorpusError, Phase: failure.Phase, Message: failure.Message}
		if failure.CommandIndex >= 0 {
			idx := failure.CommandIndex
			res.Actual.CommandIndex = &idx
			res.Span = failureSpan(fx.data, failure)
		}
		return res, true
	}
	for _, f := range found {
		f.Path = res.Path
		res.Findings = append(res.Findings, f)
	}
	res.Actual, res.Passed = match(res.Expected, res.Class, failure)
	if !res.Passed {
		res.Span = failureSpan(fx.data, failure)
		// Only mismatches are explained in reports; not keeping the prose
		// of passing fixtures keeps a 50,000-fixture run small.
		res.Description, res.Reason, res.Fix = fx.str("description"), fx.str("reason"), fx.str("fix")
	}
	return res, true
}

func (j *fixtureJob) selected(name string, tags []string) bool {
	if j.name != "" && !strings.Contains(name, j.name) {
		return false
	}
	for _, want := range j.tags {
		found := false
		for _, t := range tags {
			if t == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// checkEnvelope runs the fixture-envelope phase: the envelope schema, then
// the positive happy-path prefix rule of FORMAT.md, which holds whatever
// fixture schema is in use. It also locates the commands for later phases.
func (j *fixtureJob) checkEnvelope(fx *fixture) *corpusError {
	if err := j.validateEnvelope(fx.doc); err != nil {
		var out *schema.ExhaustedError
		if errors.As(err, &out) {
			// The schema, not the fixture, cannot be used; the message
			// names it, and the fixture is not judged.
			return &corpusError{msg: fmt.Sprintf("fixture envelope: not judged: the fixture schema %s: %v", j.schemas.fixtureSource.Source, out), offset: -1}
		}
		pointer, msg := leafError(err)
		if p := fx.envelopePointer(pointer); p != pointer {
			msg = p + strings.TrimPrefix(msg, pointer)
			pointer = p
		}
		return &corpusError{msg: "fixture envelope: " + msg, offset: -1, span: spanOf(fx.data, pointer)}
	}
	commands, ok := fx.doc["commands"].([]any)
	if !ok {
		return &corpusError{msg: `fixture envelope: "commands" must be an array`, offset: -1, span: spanOf(fx.data, "/commands")}
	}
	if outcome, _ := fx.doc["expected"].(map[string]any)["outcome"].(string); outcome == string(model.Success) {
		for i, want := range []string{"HelloRenderer", "RendererHelloReply"} {
			var got any
			if i < len(commands) {
				got, _ = commands[i].(map[string]any)["cmd"]
			}
			if got != want {
				return &corpusError{msg: fmt.Sprintf("fixture envelope: a positive stream must start with HelloRenderer then RendererHelloReply (FORMAT.md); command %d is not %s", i, want),
					offset: -1, span: firstSpan(fx.data, fmt.Sprintf("/commands/%d", i), "/commands")}
			}
		}
	}
	return nil
}

// validateEnvelope is the envelope schema's verdict on doc: from the
// envelope cache when an envelope of the same shape passed, else from the
// schema library.
func (j *fixtureJob) validateEnvelope(doc map[string]any) error {
	if j.envelopes == nil {
		return j.schemas.ValidateEnvelope(any(doc))
	}
	// The key is built in a buffer with room for a usual envelope's, kept
	// from one fixture to the next.
	buf := keyBuffers.Get().(*[]byte)
	defer putKeyBuffer(buf)
	key, shaped := envelopeKey(doc, &j.envelopes.shape, (*buf)[:0])
	*buf = key[:0]
	if shaped {
		if j.envelopes.passed.has(key) {
			return nil
		}
	}
	err := j.schemas.ValidateEnvelope(any(doc))
	if err == nil && shaped {
		j.envelopes.passed.add(key)
	}
	return err
}

// readAndDecode reads the fixture rel into mem and decodes it, and has
// sums sum its digest into out.
func (j *fixtureJob) readAndDecode(rel string, mem *fixtureMemory, sums *digester, out *model.Digest) ([]byte, *fixture, *corpusError) {
	data, cerr := readFixture(j.corpus.fsys, rel, j.limit, mem)
	sums.start(data, out)
	var fx *fixture
	if cerr == nil {
		fx, cerr = decodeFixture(data, mem)
	}
	sums.decoded(fx)
	return data, fx, cerr
}

// phases runs the DRP phases in order and returns the first failure, or
// nil, and the checker's findings. Schema negatives stop after the command
// schema (RUNNER.md). A long stream's checker may run beside the command
// schema (see overlapped); the verdict is the same.
func (j *fixtureJob) phases(ctx context.Context, fx *fixture, rel string, class model.Class) (*model.Failure, []model.Finding) {
	if class != model.ClassSchemaNegative && j.checker != nil && overlaps(j.checker, len(fx.commands)) {
		return j.overlapped(ctx, fx, streamOf(fx, rel))
	}
	if f := j.commands.checkCommands(fx.commands, ctx.Done()); f != nil {
		return f, nil
	}
	if class == model.ClassSchemaNegative || j.checker == nil || ctx.Err() != nil {
		return nil, nil
	}
	return j.checker.Check(ctx, streamOf(fx, rel), nil)
}

// streamOf is the checker's view of a fixture.
func streamOf(fx *fixture, rel string) model.Stream {
	stream := model.Stream{Path: rel, Commands: fx.commands}
	if v, ok := fx.doc["version"].(map[string]any); ok {
		stream.Version.Major, _ = v["major"].(json.Number)
		stream.Version.Minor, _ = v["minor"].(json.Number)
		if p, ok := v["patch"].(json.Number); ok {
			stream.Version.Patch = &p
		}
	}
	// decodeFixture located every top-level member already.
	if raw, ok := fx.member("capabilities"); ok {
		stream.Capabilities = raw
	}
	return stream
}

// match builds the actual result and decides whether it matches the
// expectation (RUNNER.md, Result Matching).
func match(e model.Expected, class model.Class, f *model.Failure) (model.Actual, bool) {
	if f == nil {
		a := model.Actual{Outcome: model.Success}
		if class == model.ClassSchemaNegative {
			a.Message = "every command passed the command schema; semantic and capability phases are not run for schema-negative fixtures"
		}
		return a, class == model.ClassPositive
	}
	a := model.Actual{Outcome: model.Error, Phase: f.Phase, Code: f.Code, Message: f.Message, Rule: f.Rule}
	if f.CommandIndex >= 0 {
		idx := f.CommandIndex
		a.CommandIndex = &idx
	}
	if class == model.ClassPositive || class == model.ClassUnknown {
		return a, false
	}
	passed := string(a.Phase) == e.Phase && a.Code == e.Code &&
		(e.CommandIndex == nil || (a.CommandIndex != nil && *a.CommandIndex == *e.CommandIndex))
	return a, passed
}

// failureSpan locates a mismatch: the offending field of the failing
// command when known, else the failing command, else the expected block.
func failureSpan(data []byte, f *model.Failure) *model.Span {
	if f != nil && f.CommandIndex >= 0 {
		cmd := fmt.Sprintf("/commands/%d", f.CommandIndex)
		return firstSpan(data, cmd+f.Pointer, cmd, "/expected")
	}
	return firstSpan(data, "/expected")
}

func firstSpan(data []byte, pointers ...string) *model.Span {
	for _, p := range pointers {
		if s := spanOf(data, p); s != nil {
			return s
		}
	}
	return nil
}

// className names a class in a finding's message ("a Schema negative
// fixture ..."). The runner words its findings itself: it knows no
// reporter.
func className(c model.Class) string {
	switch c {
	case model.ClassPositive:
		return "Positive"
	case model.ClassNegative:
		return "Semantic negative"
	case model.ClassSchemaNegative:
		return "Schema negative"
	}
	return c.String()
}

// corpusFindings reports duplicate names, names that differ from the file
// stem, and fixtures whose folder disagrees with their class. They are
// warnings: they never change a result.
func corpusFindings(results []model.Result) []model.Finding {
	var out []model.Finding
	for i := range results {
		out = append(out, results[i].Findings...)
	}
	for i := range results {
		r := &results[i]
		if r.IsCorpusError() {
			continue
		}
		if s := stem(r.RelPath); r.Name != s {
			out = append(out, model.Finding{Kind: model.FindingNameStem, Path: r.Path,
				Message: fmt.Sprintf("fixture name %q differs from its file name %q", r.Name, s+".json")})
		}
		if want := r.Class.Folder(); want != "" && r.Folder != want {
			out = append(out, model.Finding{Kind: model.FindingFolderClass, Path: r.Path,
				Message: fmt.Sprintf("a %s fixture (expected outcome %q, phase %q) lies in %s/; its class comes from expected, so it runs as %s; move it to %s/",
					className(r.Class), r.Expected.Outcome, r.Expected.Phase, r.Folder, r.Class, want)})
		}
	}
	return append(out, DuplicateNames(results)...)
}

// DuplicateNames reports each fixture whose name an earlier one (in the
// order of results) already has. It needs every fixture of a run at once:
// a merge of shards finds the duplicates again over the merged results.
func DuplicateNames(results []model.Result) []model.Finding {
	byName := map[string][]string{}
	for i := range results {
		if r := &results[i]; !r.IsCorpusError() {
			byName[r.Name] = append(byName[r.Name], r.Path)
		}
	}
	var out []model.Finding
	for i := range results {
		r := &results[i]
		if r.IsCorpusError() {
			continue
		}
		paths := byName[r.Name]
		if len(paths) > 1 && paths[0] != r.Path {
			out = append(out, model.Finding{Kind: model.FindingDuplicateName, Path: r.Path,
				Message: fmt.Sprintf("fixture name %q is also used by %s; names must be unique", r.Name, paths[0])})
		}
	}
	return out
}
