package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/knownfail"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/version"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// Job is one run of a corpus, as run's flags or the action's inputs say
// it. Empty fields mean "the default", chosen in resolve alone.
type Job struct {
	Corpus        string
	CommandSchema string
	FixtureSchema string
	// Paths, Name and Tags are the filters.
	Paths []string
	Name  string
	Tags  []string

	MaxFileSize int64
	Workers     int

	// Files are the report files to write.
	Files Paths
	// FailOn says which outcomes fail the run.
	FailOn FailOn

	// Manifest is the manifest file the corpus is compared with; a frozen
	// manifest's violations fail the run. Empty means none, or with
	// CheckClean <corpus>/manifest.json.
	Manifest string
	// CheckClean fails the run on any difference from the manifest.
	CheckClean bool
	// Coverage adds the validator's rule coverage to the job summary.
	Coverage bool
	// Implementations are the DRP2 implementations the runtime harness
	// runs the selected fixtures through (command lines, or @FILE lists);
	// Timeout bounds one fixture's answer (0: the harness's default).
	Implementations []string
	Timeout         time.Duration
	// Results are JSON reports of other jobs or shards (paths or globs)
	// merged into this run's report.
	Results []string
	// Baseline is what the run is compared with: baseline.Auto, a folder,
	// a JSON report, or empty (or baseline.Off) for nothing.
	Baseline string
	// KnownFailures is a known-failures list file; empty for none.
	KnownFailures string
	// Contained holds every file the job reads or writes by a path it was
	// given (reports, known failures, manifest, results, a baseline report)
	// inside the working directory, and never through a link: the action,
	// where the pull request lays out the workspace.
	Contained bool

	// spelling names the filters as the user wrote them, for messages.
	spelling filterSpelling
}

// filterSpelling is how a front end spells the filters: run's flags or the
// action's inputs.
type filterSpelling struct {
	name, tag, paths string
}

var (
	flagSpelling  = filterSpelling{name: "--name", tag: "--tag", paths: "PATH"}
	inputSpelling = filterSpelling{name: "input name", tag: "input tags", paths: "input paths"}
)

// resolved is a Job with every default chosen.
type resolved struct {
	Job
	workDir string
	config  runner.Config
	// known is the known-failures list, nil without one; getenv reads
	// the variables that name the base commit.
	known  *knownfail.List
	getenv func(string) string
	// coverage, when set, is the checker of the head run: the validator
	// wrapped in a coverage counter (enableCoverage).
	coverage runner.Checker
	// redact replaces the process's secrets in the run before anything
	// renders it.
	redact *secret.Redactor
}

// readInput reads an input file the job names, relative to the working
// directory, held to it when the job is contained.
func (r resolved) readInput(path string) ([]byte, error) {
	return r.workspace().ReadFile(path, workspace.MaxInputFile)
}

// workspace holds the job's input and report paths to the workspace rules.
func (r resolved) workspace() workspace.Dir { return workspace.New(r.workDir, r.Contained) }

// resolve chooses the defaults of a job: the working directory, the clock
// (SOURCE_DATE_EPOCH), the corpus (the one holding the first PATH, else
// ./fixtures, else the embedded one) and the validator. The schemas'
// defaults depend on the corpus layout and are chosen by the runner from
// what resolve passes it.
func resolve(env Env, job Job) (resolved, error) {
	wd := env.WorkDir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return resolved{}, fmt.Errorf("working directory: %w", err)
		}
	}
	now, err := env.clock()
	if err != nil {
		return resolved{}, err
	}
	corpus := job.Corpus
	if corpus == "" {
		corpus = DefaultCorpus(wd, job.Paths)
	}
	if job.MaxFileSize == 0 {
		job.MaxFileSize = runner.DefaultMaxFileSize
	}
	known, err := resolveComparison(job, wd)
	if err != nil {
		return resolved{}, err
	}
	return resolved{Job: job, workDir: wd, known: known, getenv: env.getenv, redact: env.redact, config: runner.Config{
		Corpus: corpus, EmbeddedFS: fixtures.FS,
		CommandSchema: job.CommandSchema, FixtureSchema: job.FixtureSchema,
		Paths: job.Paths, Name: job.Name, Tags: job.Tags,
		Workers: job.Workers, WorkDir: wd, Contained: job.Contained, MaxFileSize: job.MaxFileSize,
		Now: now, Checker: drp2.New(),
	}}, nil
}

// execute runs a resolved job. The caller writes the reports.
func execute(ctx context.Context, r resolved) (*model.Run, error) {
	cfg := r.config
	if r.coverage != nil {
		// The head run only: the base runs with the plain validator.
		cfg.Checker = r.coverage
	}
	run, err := runner.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	run.ToolVersion = version.String()
	run, err = addImplementations(ctx, r, run)
	if err != nil {
		return nil, err
	}
	if err := compare(ctx, r, run); err != nil {
		return nil, err
	}
	// Whatever the run carries (an implementation's stderr, its name and
	// messages, another job's report, a fixture's text) reaches the
	// reports only without the secrets.
	r.redact.Value(run)
	return run, nil
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
	if r, ok := workspace.Within(wd, p); ok {
		return r
	}
	return p
}

// FailOn is the set of outcomes that fail a run (exit code 1).
type FailOn struct {
	// Mismatch: a fixture did not match its expectation or was unusable.
	Mismatch bool
	// Empty: no fixture ran (none found, or the filters matched none).
	Empty bool
	// Findings: the corpus has findings (warnings that change no result).
	Findings bool
	// Regressions: a fixture that passed on the baseline fails now.
	Regressions bool
	// Level3: readback bytes differ across the fixture's data and the
	// implementations (the Level 3 preview, information otherwise).
	Level3 bool
}

// defaultFailOn is what run and the action fail on unless told otherwise.
var defaultFailOn = FailOn{Mismatch: true, Empty: true}

const failOnWords = "mismatch, empty, findings, regressions, level3, or never"

// parseFailOn reads a list such as "mismatch,empty" (commas or new lines);
// "never" alone means nothing fails the run.
func parseFailOn(s string) (FailOn, error) {
	var f FailOn
	words := splitList(s)
	if len(words) == 0 {
		return f, fmt.Errorf("%q names nothing: want a list of %s", s, failOnWords)
	}
	for _, w := range words {
		switch w {
		case "mismatch":
			f.Mismatch = true
		case "empty":
			f.Empty = true
		case "findings":
			f.Findings = true
		case "regressions":
			f.Regressions = true
		case "level3":
			f.Level3 = true
		case "never":
			if len(words) > 1 {
				return f, fmt.Errorf("%q: never cannot be combined with other conditions", s)
			}
		default:
			return f, fmt.Errorf("%q is not one of %s", w, failOnWords)
		}
	}
	return f, nil
}

func (f FailOn) String() string {
	var w []string
	if f.Mismatch {
		w = append(w, "mismatch")
	}
	if f.Empty {
		w = append(w, "empty")
	}
	if f.Findings {
		w = append(w, "findings")
	}
	if f.Regressions {
		w = append(w, "regressions")
	}
	if f.Level3 {
		w = append(w, "level3")
	}
	if len(w) == 0 {
		return "never"
	}
	return strings.Join(w, ",")
}

// verdict decides the exit code of a run that completed, with the reasons
// it failed, in words for the log.
func verdict(run *model.Run, job Job) (int, []string) {
	var why []string
	s := run.Summary
	if job.FailOn.Empty && s.Run == 0 {
		why = append(why, emptyReason(run, job))
	}
	if job.FailOn.Mismatch && s.Unexcused() > 0 {
		why = append(why, fmt.Sprintf("%d of %d fixtures failed", s.Unexcused(), s.Run)+knownNote(s))
	}
	why = append(why, implementationReasons(run, job)...)
	why = append(why, regressionReasons(run, job)...)
	if job.FailOn.Findings && s.Findings > 0 {
		why = append(why, fmt.Sprintf("the corpus has %d findings, and fail-on includes findings", s.Findings))
	}
	if len(why) > 0 {
		return ExitMismatch, why
	}
	return ExitOK, nil
}

// emptyReason says why no fixture ran, naming the filters actually given.
func emptyReason(run *model.Run, job Job) string {
	optOut := "; to allow a run that runs nothing, leave empty out of fail-on"
	if run.Summary.Discovered == 0 {
		return fmt.Sprintf("no fixture ran: the corpus %s holds no .json file under %s%s",
			run.CorpusRoot, strings.Join(runner.Folders, "/, ")+"/", optOut)
	}
	sp := job.spelling
	var filters []string
	if job.Name != "" {
		filters = append(filters, fmt.Sprintf("%s %q", sp.name, job.Name))
	}
	if len(job.Tags) > 0 {
		tags := append([]string(nil), job.Tags...)
		sort.Strings(tags)
		filters = append(filters, fmt.Sprintf("%s %s", sp.tag, strings.Join(tags, ", ")))
	}
	if len(job.Paths) > 0 {
		filters = append(filters, fmt.Sprintf("%s %s", sp.paths, strings.Join(job.Paths, ", ")))
	}
	if len(filters) == 0 {
		return fmt.Sprintf("no fixture ran out of %d discovered%s", run.Summary.Discovered, optOut)
	}
	return fmt.Sprintf("no fixture ran: the filters %s matched none of the %d fixtures in %s%s",
		strings.Join(filters, " and "), run.Summary.Discovered, run.CorpusRoot, optOut)
}

// usageError is unusable input found by the front end itself.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// exitFor maps an error that stopped a run to its exit code: unusable
// input is 2, anything else is the tool's own failure, 3.
func exitFor(err error) int {
	var ue *usageError
	var re *ReportError
	switch {
	case errors.As(err, &ue), errors.Is(err, runner.ErrInput):
		return ExitUsage
	case errors.As(err, &re):
		if re.Rendering {
			return ExitInternal
		}
		return ExitUsage
	}
	return ExitInternal
}
