// Package runner implements the DRP2 fixture runner contract
// (fixtures/RUNNER.md): discovery, filters, classification, the four phases
// in order with first-failure semantics, result matching and the summary.
//
// The semantic and capability phases sit behind the Checker port; the
// runner never imports a reporter.
package runner

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/drp2/drp2-fixtures/model"
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
	// LargestFixture, when set, is told the size in bytes of each fixture
	// file read that is larger than any read before it in the run: main
	// scales the soft memory limit with it, as a long stream's heap grows
	// with its commands. It may be called from several workers at once.
	LargestFixture func(bytes int64)
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

// ErrInput marks errors about unusable input: a corpus root that cannot
// be read, a schema that does not compile, a path outside the corpus. A
// command it stops ends with exit code 2 (ExitCode), unless an error that
// wraps it carries a code of its own.
var ErrInput error = inputKind{}

// inputKind is ErrInput's type: the exit code of unusable input, read by
// internal/exit (Code) as any error's ExitCode is, so that the contract
// imports nothing of the tool (a test holds it to exit.Usage).
type inputKind struct{}

func (inputKind) Error() string { return "unusable input" }

// ExitCode is 2, the exit code of unusable input.
func (inputKind) ExitCode() int { return 2 }

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
		CorpusDigest:  job.corpusDigest(results, selected, others, cfg.Shard, cfg.Workers),
	}
	run.Findings = append(found.skipped, corpusFindings(run.Results)...)
	sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
	run.Summary = model.Summarize(len(found.files), run.Results, run.Findings)
	run.Duration = now().Sub(started)
	return run, nil
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

// corpusDigest identifies the run's selection. A run of all of it has the
// digest of its fixtures' content (CorpusDigest). A shard reads only its
// own fixtures and has the digest of the list of the selection's paths
// (ListingDigest), which every shard of one selection of one corpus
// shares and merge checks the merged results against. A name or tag filter
// selects by content, so a shard filtered so reads the other shards'
// fixtures (probe), as far as the filters need, and has the content digest
// of the whole selection, as the unsharded run.
func (j *fixtureJob) corpusDigest(results []model.Result, selected, others []string, shard *model.Shard, workers int) string {
	if shard != nil && j.name == "" && len(j.tags) == 0 {
		return ListingDigest(selected)
	}
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
		checker: cfg.Checker, now: now, limit: limit, largest: &largestSeen{tell: cfg.LargestFixture}, name: cfg.Name, tags: cfg.Tags, budget: budget, progress: cfg.Progress,
		overBudget: fmt.Errorf("the wall-clock limit of %s for one fixture was reached", budget)}
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
