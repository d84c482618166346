package gate

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/expect"
	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// Env is what a use case needs from the process: given by the front end,
// completed by NewEnv.
type Env struct {
	// WorkDir is the working directory, absolute (NewEnv: empty means the
	// process's).
	WorkDir string
	// Now is the run's clock (frozen by SOURCE_DATE_EPOCH, or the test's).
	Now func() time.Time
	// Getenv reads the variables that name the base commit (baseline
	// auto); nil means none are set.
	Getenv func(string) string
	// Redact replaces the process's secrets in the run (its results,
	// implementations' words, merged reports) before it is judged or
	// shown; nil leaves it as it is.
	Redact func(v any)
	// RedactBytes hides them in a file the job writes (a manifest, a
	// candidate); nil writes it as it is.
	RedactBytes func([]byte) []byte
	// ReadReport reads a JSON report (merged results, a baseline, diff's
	// reports): the JSON report's own reader, given by the front end. The
	// run it returns keeps none of the bytes: merge reads the next report
	// into the same memory.
	ReadReport func([]byte) (*model.Run, error)
	// ToolVersion is recorded in the run.
	ToolVersion string
	// Sized, when set, is told the number of fixtures of the run before
	// they run (runner.Config.Sized); nil tells nothing.
	Sized func(fixtures int)
	// Holds, when set, is told, as a merge reads each report, the number
	// of results the reports read so far hold with the run's; nil tells
	// nothing.
	Holds func(results int)
	// LargestFixture, when set, is told each fixture size larger than any
	// before it (runner.Config.LargestFixture); nil tells nothing.
	LargestFixture func(bytes int64)
	// Progress, when set, counts the fixtures of the run and of its
	// implementations as they are done (not the baseline's), for a
	// progress line; nil counts nothing.
	Progress *Progress
	// Workspace is the folder the sinks name files relative to, wherever
	// they lie under it; empty names them as they were made.
	Workspace string
	// InWorkspace asks NewEnv for the action's workspace: the files the
	// sinks show named relative to $GITHUB_WORKSPACE, else the working
	// directory, never by the container's mount point.
	InWorkspace bool
}

// Progress counts the work of a job as it is done (runner.Progress).
type Progress = runner.Progress

// Resolved is a request with every default chosen.
type Resolved struct {
	job
	WorkDir string
	Config  runner.Config
	env     Env
	// expect is the expectations of the run (the known-failures list's
	// entries among them), nil without any; an entry excuses a new
	// failure only when the base had it (holdKnownToBase).
	expect *expect.List
	// CorpusSearch says how the corpus was found when none was named
	// (chooseCorpus); nil when it was.
	CorpusSearch *model.CorpusSearch
	// manifest is the manifest file to compare with, "" for none.
	manifest string
	// coverage counts the rules the head run exercises; nil without.
	coverage *coverageRun
	// imageKey is the platform key's parts (ImageKey), nil for the
	// default.
	imageKey []string
}

// manifestFile is the manifest's file name in the corpus root, where
// manifest write puts it and manifest check and run --check-clean look.
const manifestFile = "manifest.json"

// Resolve chooses the defaults of a run: the corpus (chooseCorpus), the
// fixture size limit, the validator and the manifest; it checks what
// fails together (fail-on regressions needs a baseline) and reads the
// known-failures list. The schemas' defaults depend on the corpus layout
// and are chosen by the runner from what Resolve passes it.
func Resolve(env Env, req RunRequest) (*Resolved, error) { return resolve(env, job{RunRequest: req}) }

func resolve(env Env, job job) (*Resolved, error) {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.RedactBytes == nil {
		env.RedactBytes = func(b []byte) []byte { return b }
	}
	if env.ReadReport == nil {
		env.ReadReport = func([]byte) (*model.Run, error) { return nil, errNoReportReader }
	}
	wd := env.WorkDir
	corpus, search, err := chooseCorpus(env, job)
	if err != nil {
		return nil, err
	}
	if job.MaxFileSize == 0 {
		job.MaxFileSize = runner.DefaultMaxFileSize
	}
	if job.Shard != nil && job.mergeOnly {
		return nil, usagef("merge joins the shards: it runs none itself (--shard is for run and explore)")
	}
	if job.FailOn.Regressions && (job.Baseline == "" || job.Baseline == baseline.Off) {
		return nil, usagef("fail-on regressions needs a baseline to compare with (auto, a folder or a JSON report)")
	}
	r := &Resolved{job: job, WorkDir: wd, env: env, CorpusSearch: search, Config: runner.Config{
		Corpus: corpus, EmbeddedFS: runner.BuiltinCorpus,
		CommandSchema: job.CommandSchema, FixtureSchema: job.FixtureSchema,
		Paths: job.Paths, Name: job.Name, Tags: job.Tags, Shard: job.Shard,
		Workers: job.Workers, WorkDir: wd, Contained: job.Contained, MaxFileSize: job.MaxFileSize,
		Now: env.Now, Checker: drp2.New(),
	}}
	if job.noSemantics {
		r.Config.Checker = nil
	}
	if err := r.resolveShard(); err != nil {
		return nil, err
	}
	if r.expect, err = r.readExpectations(); err != nil {
		return nil, err
	}
	if job.Retries < 0 {
		return nil, usagef("retries %d: want 0 or more", job.Retries)
	}
	if job.Manifest != "" || job.CheckClean {
		if r.manifest, err = r.manifestPath(job.Manifest, "--manifest"); err != nil {
			return nil, err
		}
	}
	if job.Coverage {
		r.coverage = newCoverage()
	}
	if err := r.resolveImages(); err != nil {
		return nil, err
	}
	if job.ExploreOut != "" && job.Contained {
		// Checked before anything runs: the exploration comes after the
		// reports, when an input can no longer stop the step.
		if _, inside := r.workspace().Rel(job.ExploreOut); !inside {
			return nil, usagef("explore-out %s lies outside the workspace %s: candidates must stay inside it", job.ExploreOut, wd)
		}
	}
	return r, nil
}

// resolveImages checks the Level 3 settings before anything runs: the
// platform key's parts, a repeat count, references written only into a
// corpus on disk, and, in the action, images written inside the
// workspace.
func (r *Resolved) resolveImages() error {
	if r.ImageKey != "" {
		key, err := harness.ParseImageKey(r.ImageKey)
		if err != nil {
			return usagef("platform key: %w", err)
		}
		r.imageKey = key
	}
	switch {
	case r.Level3Repeat < 0 || r.Level3Repeat > maxRepeat:
		return usagef("level3-repeat %d: want 0 to %d", r.Level3Repeat, maxRepeat)
	case r.UpdateRefs && r.Config.Corpus == "":
		return usagef("update-refs writes into the corpus's level3/refs: the embedded corpus has no folder to write to (name one with %s)", r.Spelling.Corpus)
	}
	if r.ImagesOut != "" && r.Contained {
		if _, inside := r.workspace().Rel(r.ImagesOut); !inside {
			return usagef("images-out %s lies outside the workspace %s: images must stay inside it", r.ImagesOut, r.WorkDir)
		}
	}
	return nil
}

// maxRepeat bounds level3-repeat: enough to find a rare difference, far
// from a typo's cost.
const maxRepeat = 100

// readExpectations reads the run's expectations: the known-failures list
// (the built-in validator's expected failures) and every expectations
// file, in the order given. It is the one place an expectations file is
// read, so that a rule on which entries count (what the base commit had,
// say) has one place to go. A file that cannot be read is unusable input;
// a malformed line is a finding of the run (expect.Parse).
func (r *Resolved) readExpectations() (*expect.List, error) {
	if r.KnownFailures == "" && len(r.Expectations) == 0 {
		return nil, nil
	}
	l := &expect.List{}
	if r.KnownFailures != "" {
		data, err := r.readInput(r.KnownFailures)
		if err != nil {
			return nil, usagef("known failures: %w", err)
		}
		known, err := expect.ParseKnownFailures(bytes.NewReader(data), r.KnownFailures)
		if err != nil {
			return nil, usagef("%w", err)
		}
		l.Add(known)
	}
	for _, file := range r.Expectations {
		data, err := r.readInput(file)
		if err != nil {
			return nil, usagef("expectations: %w", err)
		}
		list, err := r.parseExpectations(bytes.NewReader(data), r.display(under(r.WorkDir, file)))
		if err != nil {
			return nil, usagef("expectations: %w", err)
		}
		l.Add(list)
	}
	return l, nil
}

// parseExpectations reads an expectations file named name (expect.Parse),
// taking a path under the corpus's folder, as the reports print a
// fixture's, relative to the corpus.
func (r *Resolved) parseExpectations(rd io.Reader, name string) (*expect.List, error) {
	corpus := ""
	if r.Config.Corpus != "" {
		corpus = r.display(under(r.WorkDir, r.Config.Corpus))
	}
	return expect.ParseUnder(rd, name, corpus)
}

// corpusAbove is the nearest folder at or above p that holds a fixture
// folder.
func corpusAbove(p string) (string, bool) {
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	for dir := filepath.Clean(p); ; dir = filepath.Dir(dir) {
		for _, f := range runner.Folders {
			if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.IsDir() {
				return dir, true
			}
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

func relTo(wd, p string) string {
	if r, ok := workspace.Within(wd, p); ok {
		return r
	}
	return p
}

func under(dir, p string) string {
	if p == "" || dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// corpusSource is where the corpus lies, for the manifest, coverage and
// the harness.
func (r *Resolved) corpusSource() manifest.Source {
	if r.Config.Corpus == "" {
		return manifest.Source{FS: runner.BuiltinCorpus, WorkDir: r.WorkDir}
	}
	ws := r.workspace()
	return manifest.Source{FS: ws.FS(r.Config.Corpus, workspace.MaxInputFile), CorpusDir: ws.Abs(r.Config.Corpus), WorkDir: r.WorkDir}
}

// manifestPath is the manifest file a job uses: the one given, else
// <corpus>/manifest.json. The embedded corpus has no folder to hold one;
// flagName names the flag or input that would.
func (r *Resolved) manifestPath(given, flagName string) (string, error) {
	if given != "" {
		return under(r.WorkDir, given), nil
	}
	src := r.corpusSource()
	if src.CorpusDir == "" {
		return "", usagef("the embedded corpus has no manifest file: name one with %s, or give --corpus", flagName)
	}
	return filepath.Join(src.CorpusDir, manifestFile), nil
}

// display shows a path relative to the working directory when it lies
// under it, slash separated (a repository path in the action).
func (r *Resolved) display(p string) string { return r.workspace().Display(p) }

// workspace holds the job's input paths to the workspace rules: inside
// the working directory and never through a link when contained.
func (r *Resolved) workspace() workspace.Dir { return workspace.New(r.WorkDir, r.Contained) }

// redact hides the process's secrets in v (a report of the job's own
// making) before it is shown.
func (r *Resolved) redact(v any) {
	if r.env.Redact != nil {
		r.env.Redact(v)
	}
}

// readInput reads an input file the job names, relative to the working
// directory, as every input is read.
func (r *Resolved) readInput(path string) ([]byte, error) { return r.readInputInto(path, nil) }

// readInputInto is readInput into buf's memory when it has room
// (workspace.Dir.ReadFileInto).
func (r *Resolved) readInputInto(path string, buf []byte) ([]byte, error) {
	return r.workspace().ReadFileInto(path, workspace.MaxInputFile, buf)
}
