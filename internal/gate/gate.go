// Package gate is the one door of drp2-fixtures: every use case of the
// front ends takes a request that holds what it reads and returns an
// outcome, and the front ends only build the one and render the other:
// Run (run and the action: a RunRequest, or Resolve and Execute), Merge,
// Coverage, WriteManifest and CheckManifest, Explore, Diff, Serve (the
// adapter) and Collect (the site). Resolve chooses every default once,
// and Execute runs the steps in their one order (the corpus, the
// implementations, the merged results, the known failures, the baseline,
// the manifest, the rule coverage) into an Outcome that carries one
// judgement, made once from the outcome and fail-on, as typed reasons that
// report/explain words, and a run bounded once for every sink
// (internal/bound), which the renderers render as it is. It reads no flags
// and no environment and prints nothing.
package gate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// Defaults a front end shows in its help.
const (
	// DefaultMaxFileSize is the largest fixture file read.
	DefaultMaxFileSize = runner.DefaultMaxFileSize
	// DefaultTimeout is the longest wait for an implementation's answer
	// to one fixture.
	DefaultTimeout = harness.DefaultTimeout
)

// Source is the corpus a use case reads: its root, its schemas, the
// largest fixture file read and how many are read at once. Empty fields
// mean "the default", chosen in Resolve alone.
type Source struct {
	Corpus        string
	CommandSchema string
	FixtureSchema string
	MaxFileSize   int64
	Workers       int
	// Spelling names the settings and filters as the user wrote them, for
	// messages.
	Spelling Spelling
}

// RunRequest is one run of a corpus, as run's flags or the action's
// inputs say it.
type RunRequest struct {
	Source
	// Paths, Name and Tags are the filters.
	Paths []string
	Name  string
	Tags  []string

	// Shard runs one part of the selected fixtures (runner.ShardOf), or of
	// the exploration's streams; nil runs all of them. ParseShard reads
	// "K/N", and "auto" or "auto/N", whose index Resolve reads from the
	// CI system's variables.
	Shard *model.Shard
	// ShardTimings is a JSON report whose durations balance the shards
	// (runner.PlaceByTimings); empty places them by path hash.
	ShardTimings string

	// FailOn says which outcomes fail the run.
	FailOn FailOn

	// Manifest is the manifest file the corpus is compared with; a frozen
	// manifest's violations fail the run. Empty means none, or with
	// CheckClean <corpus>/manifest.json.
	Manifest string
	// CheckClean fails the run on any difference from the manifest.
	CheckClean bool
	// Coverage counts the validator's rule coverage of the head run.
	Coverage bool
	// Implementations are the DRP2 implementations the runtime harness
	// runs the selected fixtures through (command lines, or @FILE lists);
	// Timeout bounds one fixture's answer (0: the harness's default).
	Implementations []string
	Timeout         time.Duration
	// Results are JSON reports of other jobs or shards (paths or globs)
	// merged into this run's report; a file git tracks is refused.
	Results []string
	// Require names the implementations that must report, each on a
	// device its glob matches (model.Requirement): one that none of the
	// run's implementations meets fails the run, whatever FailOn says.
	Require []model.Requirement
	// ExpectAdapter is a glob the adapter description of every
	// implementation the run starts must match (model.Glob): one on
	// another device (a fallback to a software adapter) is sent no
	// fixture, and fails the run whatever FailOn says. "" expects none.
	ExpectAdapter string
	// Commit and Repository say what the run is made on (a commit's hex
	// name, "owner/name"), recorded in the report for collectors of
	// published reports; empty records none. RunURL is the workflow run
	// that makes it (model.IsRunURL), recorded only with the repository
	// it belongs to.
	Commit     string
	Repository string
	RunURL     string
	// Baseline is what the run is compared with: baseline.Auto, a folder,
	// a JSON report, or empty (or baseline.Off) for nothing.
	Baseline string
	// KnownFailures is a known-failures list file; empty for none.
	KnownFailures string
	// Expectations are expectations files (internal/expect), applied to
	// the built-in validator and to every implementation, with the
	// known-failures list; UpdateExpectations is the file the
	// expectations are written to as they should be after the run ("" for
	// none). Retries is how many more times an implementation is sent a
	// fixture it fails unexpectedly.
	Expectations       []string
	UpdateExpectations string
	Retries            int
	// RerunFailed is an earlier JSON report of the same selection, run
	// and implementations: only the fixtures it did not pass (or did not
	// report, or that changed since) are sent to the implementations, and
	// their other results are carried over from it. Empty runs everything.
	RerunFailed string
	// Contained holds every file the job reads by a path it was given
	// inside the working directory, and never through a link: the action,
	// where the pull request lays out the workspace.
	Contained bool
	// RequireCorpus is the action's choice: with no corpus named, the
	// workspace must hold one, and the corpus embedded in the binary runs
	// only when asked for by name ("embedded"), never because the search
	// found none (a pull request's fixtures must be what runs). Without
	// it, a search that finds none runs the embedded corpus, and the run
	// says so (Run.CorpusSearch).
	RequireCorpus bool

	// Level 3 (level3.md): ImagesOut is the folder below which the
	// actual and diff images of the readbacks the corpus describes as
	// images are written ("" writes none); UpdateRefs writes the
	// references of the platform that ran below the corpus's level3/refs
	// (never on a normal run); ImageKey is the parts of the hello a
	// platform key is made of ("" for the adapter's vendor and device);
	// Level3Repeat is how many times in all a fixture with images is
	// sent, to find the images that differ between attempts (under 2:
	// once).
	ImagesOut    string
	UpdateRefs   bool
	ImageKey     string
	Level3Repeat int

	// Explore is the number of generated streams to explore after the
	// run (ExploreAfter), from its corpus, with its implementations (0:
	// none), with the one seed exploreSeed, for at most ExploreTime (0:
	// no bound but the count); ExploreOut is the folder the candidates
	// are written below ("" for none).
	Explore     int
	ExploreTime time.Duration
	ExploreOut  string
}

// MergeRequest is what merge is asked: the JSON reports of several jobs
// or shards (paths or globs), judged as one run; it runs no corpus.
type MergeRequest struct {
	Results []string
	Require []model.Requirement
	// Expectations judge every merged result instead of the expectations
	// their runs applied; none keeps those.
	Expectations               []string
	FailOn                     FailOn
	Commit, Repository, RunURL string
	Spelling                   Spelling
}

// job is what Resolve resolves: a run's request and what the use case
// that is not run adds to it.
type job struct {
	RunRequest
	// mergeOnly runs no corpus: the merged results are the whole run.
	mergeOnly bool
	// noSemantics leaves the semantic checker out (a manifest records
	// files and expectations, not verdicts).
	noSemantics bool
}

// Spelling is how a front end spells the filters: run's flags or the
// action's inputs.
type Spelling struct {
	Name, Tag, Paths string
	// Corpus names the corpus setting; CorpusExample sets it to the
	// upstream layout.
	Corpus, CorpusExample string
	// Rerun names the earlier report a re-run of what failed is made from.
	Rerun string
}

var (
	FlagSpelling = Spelling{Name: "--name", Tag: "--tag", Paths: "PATH",
		Corpus: "--corpus", CorpusExample: "--corpus " + runner.UpstreamCorpus, Rerun: "--rerun-failed"}
	InputSpelling = Spelling{Name: "input name", Tag: "input tags", Paths: "input paths",
		Corpus: "the corpus input", CorpusExample: "corpus: " + runner.UpstreamCorpus, Rerun: "input rerun-from"}
)

// FailOn is the set of outcomes that fail a run (exit code 1).
type FailOn struct {
	// Mismatch: a fixture did not match its expectation or was unusable,
	// or an implementation failed a fixture or could not be used.
	Mismatch bool
	// Empty: no fixture ran (none found, or the filters matched none).
	Empty bool
	// Findings: the corpus has findings (warnings that change no result).
	Findings bool
	// Regressions: a fixture that passed on the baseline fails now.
	Regressions bool
	// Level3: readback bytes differ across the fixture's data and the
	// implementations, or an image described in the corpus's level3/
	// folder does not match its reference, has none, cannot be decoded
	// or differs between attempts (information otherwise).
	Level3 bool
	// UnexpectedPass: a fixture expected to fail passed (a stale entry).
	UnexpectedPass bool
	// Flaky: a fixture is flaky (listed flaky, or passed on a retry).
	Flaky bool
}

// DefaultFailOn is what run and the action fail on unless told otherwise.
var DefaultFailOn = FailOn{Mismatch: true, Empty: true}

const failOnWords = "mismatch, empty, findings, regressions, level3, unexpected-pass, flaky, or never"

// splitList splits a list written one per line or comma separated.
func splitList(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, item := range strings.Split(line, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// ParseFailOn reads a list such as "mismatch,empty" (commas or new lines);
// "never" alone means nothing fails the run.
func ParseFailOn(s string) (FailOn, error) {
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
		case "unexpected-pass":
			f.UnexpectedPass = true
		case "flaky":
			f.Flaky = true
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
	if f.UnexpectedPass {
		w = append(w, "unexpected-pass")
	}
	if f.Flaky {
		w = append(w, "flaky")
	}
	if len(w) == 0 {
		return "never"
	}
	return strings.Join(w, ",")
}

// maxShards bounds N in --shard K/N: far above any matrix of runners
// (GitHub allows 256 jobs a matrix), low enough that a typo is caught.
const maxShards = 1024

// ParseShard reads a shard as "K/N": the K-th (from 1) of N parts; or as
// "auto" (or "auto/N", N parts), whose index, and total, the CI system
// running the job gives (shardFromCI).
func ParseShard(s string) (*model.Shard, error) {
	if sh, auto, err := parseAutoShard(s); auto {
		return sh, err
	}
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	ki, kerr := strconv.Atoi(k)
	ni, nerr := strconv.Atoi(n)
	switch {
	case !ok || kerr != nil || nerr != nil:
		return nil, fmt.Errorf("%q is not a shard: want K/N, such as 2/4 (the second of four parts), or auto", s)
	case ni < 1 || ni > maxShards:
		return nil, fmt.Errorf("%q: the number of shards must be 1 to %d", s, maxShards)
	case ki < 1 || ki > ni:
		return nil, fmt.Errorf("%q: the shard must be 1 to %d (shards count from 1)", s, ni)
	}
	return &model.Shard{Index: ki, Count: ni}, nil
}
