// Package model is the one data model between the runner and the reporters.
//
// The runner produces a Run, an exploration an Exploration; every reporter
// consumes them. Neither side knows the other, and this package imports
// only the standard library. It is data
// and the logic of data (counts, ranking, parity): the words people read are
// report/explain's, and each format names the fields in wire types of its
// own (report/jsonout for the JSON report).
package model

import (
	"encoding/json"
	"sort"
	"time"
)

// Outcome is the result of a fixture as a whole.
type Outcome string

const (
	// Success means no phase failed.
	Success Outcome = "success"
	// Error means a DRP phase failed.
	Error Outcome = "error"
	// CorpusError means the fixture file itself is unusable (unreadable,
	// malformed JSON, invalid envelope). It is a corpus-authoring problem and
	// never a DRP command-stream result (RUNNER.md, Required Execution Pipeline).
	CorpusError Outcome = "corpus_error"
)

// Phase names a validation phase. The three DRP phases use the names of
// FORMAT.md; the envelope phase has a name of its own so that it can never be
// mistaken for a DRP result.
type Phase string

const (
	PhaseEnvelope   Phase = "fixture_envelope"
	PhaseSchema     Phase = "schema_validation"
	PhaseSemantic   Phase = "semantic_validation"
	PhaseCapability Phase = "capability_validation"
)

// Class is how a fixture is classified: by its expected block, never by its
// folder (RUNNER.md, Fixture Classes).
type Class int

const (
	// ClassUnknown is a fixture whose expectation could not be read.
	ClassUnknown Class = iota
	ClassPositive
	ClassNegative
	ClassSchemaNegative
)

// Classes lists the known classes in report order.
var Classes = []Class{ClassPositive, ClassNegative, ClassSchemaNegative, ClassUnknown}

// classSpellings are each known class's identifier and corpus folder.
var classSpellings = map[Class]struct{ id, folder string }{
	ClassPositive:       {"positive", "positive"},
	ClassNegative:       {"negative", "negative"},
	ClassSchemaNegative: {"schema_negative", "negative_schema"},
}

// String is the class's identifier, as the JSON report, the manifest and
// finding messages spell it; report/explain has its name for people.
func (c Class) String() string {
	if s, ok := classSpellings[c]; ok {
		return s.id
	}
	return "unknown"
}

// Folder is the corpus folder where fixtures of this class live ("" for
// ClassUnknown).
func (c Class) Folder() string { return classSpellings[c].folder }

// Folders are the corpus folders, one per class, in the order of Classes
// (RUNNER.md, Fixture Discovery). This is the one place they are spelled.
var Folders = []string{ClassPositive.Folder(), ClassNegative.Folder(), ClassSchemaNegative.Folder()}

// Expected is a fixture's expected block, with the fixture's own values kept
// verbatim. Fields that are absent stay empty (CommandIndex nil).
type Expected struct {
	Outcome      string
	Phase        string
	Code         string
	CommandIndex *int
	// BigCommandIndex is the expected index in decimal when it is too
	// large for an int, so that reports name it as the fixture does;
	// CommandIndex then holds the largest int, which no command reaches.
	BigCommandIndex string
}

// Actual is what the runner observed for a fixture: the primary result.
type Actual struct {
	Outcome      Outcome
	Phase        Phase // empty on success
	Code         string
	CommandIndex *int
	Message      string
	// Rule names the prose rule a semantic or capability verdict applies,
	// as file, section and rule number ("COMMANDS.md WriteBuffer rule 2");
	// empty for success and for the envelope and schema phases.
	Rule string
}

// Failure is the first failure of a DRP phase for a command stream.
type Failure struct {
	Phase Phase
	Code  string
	// CommandIndex is the zero-based index of the first failing command, or
	// -1 when the failure is not attributable to a single command.
	CommandIndex int
	Message      string
	// Pointer is a JSON pointer inside the failing command to the offending
	// field, relative to the command object ("" for the whole command).
	Pointer string
	// Rule names the prose rule the verdict applies (see Actual.Rule).
	Rule string
	// Unjudged marks a check that stopped without a verdict: the stream
	// needed more work than the checker's deterministic work budget, or
	// the check was cancelled. Message says which. The runner reports the
	// fixture as a corpus error, never as a verdict.
	Unjudged bool
}

// Version is the protocol version object of VERSIONING.md, its numbers as
// the fixture writes them: JSON numbers are values, so 2, 2.0 and 2e0 are
// one major version, and the checker judges them by value. Empty is absent.
type Version struct {
	Major json.Number
	Minor json.Number
	Patch *json.Number
}

// Stream is what the semantic and capability phases see of a fixture: a
// command stream that already passed the command schema.
type Stream struct {
	// Path is the fixture's corpus-relative path, for checkers that keep
	// something per fixture (rule coverage); it never changes a verdict.
	Path    string
	Version Version
	// Capabilities is the fixture's capabilities object, or nil when the
	// fixture declares none.
	Capabilities json.RawMessage
	Commands     []json.RawMessage
}

// Span is a 1-based region of a file. Columns count characters from 1.
type Span struct {
	Line      int
	Column    int
	EndLine   int
	EndColumn int
}

// Diagnostic is secondary detail attached to a result. It never replaces the
// primary result (RUNNER.md, First-Failure Semantics).
type Diagnostic struct {
	Source  string
	Message string
}

// Result is the primary result of one fixture.
type Result struct {
	// Path is the fixture path for display: relative to the working
	// directory when the fixture lies under it, else as given.
	Path string
	// RelPath is the corpus-relative slash path ("negative/x.json").
	RelPath string
	// Folder is RelPath's first element (positive, negative, ...).
	Folder string
	Name   string
	Class  Class
	Tags   []string

	// Description, Reason and Fix are the fixture's human metadata, kept
	// for mismatches only: reports explain failures, not passes.
	Description string
	Reason      string
	Fix         string

	Expected Expected
	Actual   Actual
	Passed   bool

	// Span locates the failure in the fixture file: the failing command, the
	// offending field, or the expected block. Nil when unknown or passed.
	Span *Span

	Duration    time.Duration
	Diagnostics []Diagnostic
	// Findings are the checker's findings about this fixture's stream
	// (warnings that never change the result); Run.Findings repeats them.
	Findings []Finding

	// Digest identifies the fixture's content, for comparisons with a
	// baseline and for manifests. Empty when the file could not be read.
	Digest Digest

	// KnownFailure is the reason a known-failures list gives for this
	// fixture, set only when it fails: it is reported but does not fail
	// the run.
	KnownFailure string

	// Listing is the expectations entry that covers this fixture for the
	// implementation (or the built-in validator) that ran it; nil when
	// none does.
	Listing *Listing
	// Attempts are what happened on each sending of the fixture, in order,
	// when it was sent more than once (retries); the last is Actual. Nil
	// when it was sent once.
	Attempts []Actual
	// DetailLeftOut says that this failure came after the first failures
	// a report gives in full: it keeps its verdict (the expected and
	// actual outcome, phase, code and command index), its paths and its
	// digest, but not its message, rule, span, diagnostics or the
	// fixture's prose. A report read back keeps it so.
	DetailLeftOut bool
	// Carried says that the result was not run again but taken from the
	// earlier report a re-run of what failed was made from (Run.Rerun):
	// it passed there, on a fixture unchanged since.
	Carried bool
}

// Digest holds SHA-256 sums (lower-case hex) of a fixture file as written
// and of two of its members without the white space between tokens (a
// re-indented fixture has the same member sums). A member that is absent
// has an empty sum.
type Digest struct {
	File     string
	Commands string
	Expected string
}

// Unexcused is the number of failures no expectations entry excuses (a
// known failure, a flaky fixture): the failures that fail a run.
func (s *Summary) Unexcused() int { return s.Failed - s.KnownFailures - s.FlakyFailed }

// Excused says whether the result is a failure an entry excuses: a known
// failure (KnownFailure is set on every failure a fail entry covers, a
// corpus error never) or a flaky fixture that failed.
func (r *Result) Excused() bool {
	// A report read back may carry a reason on a corpus error; it
	// excuses nothing there either.
	if r.Passed || r.IsCorpusError() {
		return false
	}
	k := r.Kind()
	return r.KnownFailure != "" || k == KindKnownFailure || k == KindFlaky
}

// IsCorpusError reports whether the fixture itself was unusable.
func (r *Result) IsCorpusError() bool { return r.Actual.Outcome == CorpusError }

// FindingKind names a kind of corpus finding.
type FindingKind string

const (
	// FindingFolderClass: the fixture's folder disagrees with its class.
	FindingFolderClass FindingKind = "folder_class_mismatch"
	// FindingDuplicateName: two fixtures share one name.
	FindingDuplicateName FindingKind = "duplicate_name"
	// FindingNameStem: the fixture name differs from its file stem.
	FindingNameStem FindingKind = "name_stem_mismatch"
	// FindingSkippedFile: a file under the corpus was not read as a
	// fixture (not a regular file, a link leaving the corpus, ...).
	FindingSkippedFile FindingKind = "skipped_file"
	// FindingReadbackData: a QueueSubmitReply's data is not padded base64
	// of exactly the readback's size (LIFETIMES.md, Readback Lifetime rule
	// 9). The prose leaves reply data unverified in 2.0, so it never fails
	// a fixture.
	FindingReadbackData FindingKind = "readback_data"
	// FindingKnownPassing: a fixture on the known-failures list passes;
	// the entry should be removed.
	FindingKnownPassing FindingKind = "known_failure_passing"
	// FindingKnownUnused: a known-failures entry names no fixture run.
	FindingKnownUnused FindingKind = "known_failure_unused"
	// FindingKnownNotOnBase: a known-failures entry the base did not have
	// names a fixture that fails now and did not on the base: a change
	// cannot excuse its own regression, so the failure counts.
	FindingKnownNotOnBase FindingKind = "known_failure_not_on_base"
	// FindingExcusesCorpusError: an entry of either list covers a corpus
	// error, which no entry excuses: the entry has no effect there.
	FindingExcusesCorpusError FindingKind = "entry_excuses_corpus_error"
)

// Finding is a warning about the corpus. It never changes a result.
type Finding struct {
	Kind    FindingKind
	Path    string
	Message string
}

// SchemaSource says which schema a run used.
type SchemaSource struct {
	// Source is the schema's path, or "embedded".
	Source string
	// SHA256 is the SHA-256 of the schema file's own bytes.
	SHA256 string
	// Closure is the SHA-256 of the schema's closure, every file its
	// compilation read (the file itself and each file a $ref reached):
	// of the lines "<sha256>  <path>\n" of Files, in path order, as
	// sha256sum prints them. A schema of $refs into other files changes
	// when any of them does, which SHA256 alone does not show. Empty in
	// a report written before closures were recorded.
	Closure string
	// Files are the files of the closure in path order, each by its slash
	// path relative to the schema file's folder.
	Files []SchemaFile
}

// SchemaFile is one file of a schema's closure.
type SchemaFile struct {
	Path   string
	SHA256 string
}

// SchemaChanged reports whether a schema differs between two runs, or a
// manifest and a run: by the schema file's own bytes, and by its closure
// when both recorded one (a report or manifest written before closures
// were recorded has none). A side that names no schema changes nothing.
func SchemaChanged(base, head SchemaSource) bool {
	if base.SHA256 != "" && head.SHA256 != "" && base.SHA256 != head.SHA256 {
		return true
	}
	return base.Closure != "" && head.Closure != "" && base.Closure != head.Closure
}

// SchemaChange is SchemaChanged and, when both sides recorded a closure,
// the files of it that changed (SchemaFilesChanged).
func SchemaChange(base, head SchemaSource) (changed bool, files []string) {
	if !SchemaChanged(base, head) {
		return false, nil
	}
	if base.Closure == "" || head.Closure == "" {
		return true, nil
	}
	return true, SchemaFilesChanged(base.Files, head.Files)
}

// SchemaFilesChanged names the files that differ between two closures:
// changed, added or removed, in path order. Both lists are in path order
// (SchemaSource.Files).
func SchemaFilesChanged(base, head []SchemaFile) []string {
	sums := make(map[string]string, len(base))
	for _, f := range base {
		sums[f.Path] = f.SHA256
	}
	var out []string
	for _, f := range head {
		if sum, ok := sums[f.Path]; !ok || sum != f.SHA256 {
			out = append(out, f.Path)
		}
		delete(sums, f.Path)
	}
	for p := range sums {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ClassCount counts the fixtures run in one class.
type ClassCount struct {
	Class  Class
	Run    int
	Passed int
	Failed int
	// NotClaimed counts the fixtures an implementation does not claim (see
	// NotClaimed); they are neither passed nor failed.
	NotClaimed int
}

// Summary is the batch summary of RUNNER.md plus corpus errors and findings.
type Summary struct {
	Discovered   int
	Run          int
	Passed       int
	Failed       int
	CorpusErrors int
	// NotClaimed counts an implementation's fixtures of phases it does not
	// perform: run, but neither passed nor failed.
	NotClaimed int
	Findings   int
	// KnownFailures counts the failures a known-failures list excuses;
	// they are in Failed too; a corpus error is never one.
	KnownFailures int
	// Flaky counts the flaky fixtures: listed flaky, or passed on a retry
	// (in Passed or Failed as their last attempt went); FlakyFailed those
	// of them that failed, excused.
	Flaky       int
	FlakyFailed int
	// UnexpectedPasses counts the fixtures expected to fail that passed
	// (in Passed too): their entries are stale.
	UnexpectedPasses int
	// Skipped counts the fixtures an expectations entry kept from an
	// implementation: run, but neither passed nor failed.
	Skipped int
	// ByClass has one entry per class in the order of Classes, for the
	// classes that have at least one fixture run.
	ByClass      []ClassCount
	FailingPaths []string
}

// Run is one run over a corpus: the input of every reporter.
type Run struct {
	// CorpusRoot is the corpus root as given (or "embedded").
	CorpusRoot string
	// CorpusSearch says how the corpus was found when none was named;
	// nil when it was.
	CorpusSearch *CorpusSearch
	// ToolVersion is the version of the tool that made the run.
	ToolVersion   string
	CommandSchema SchemaSource
	FixtureSchema SchemaSource
	// Shard is the part of the selection this run ran; nil for a run of
	// all of it (or the merge of every part).
	Shard *Shard
	// Started is the injected clock's time at the start of the run.
	Started time.Time
	// Commit and Repository say what the run was made on (the commit's
	// hex name, "owner/name"), as the front end was told; empty when it
	// was not. A collector of published reports groups and links by them.
	Commit     string
	Repository string
	// RunURL is the workflow run that made the report (IsRunURL's
	// shape), as the front end was told; empty when it was not. The
	// full address, not a run id, since a report published elsewhere
	// would otherwise name a run on whatever server its reader assumes.
	RunURL string
	// CorpusDigest identifies the fixtures the run's filters selected,
	// before sharding: the hex SHA-256 of the lines "<file sha256>  <corpus
	// path>\n" in path order (runner.CorpusDigest), the same for every
	// shard of one selection, so that reports measured on different
	// corpora are never mixed. Empty in a report written before it was
	// recorded.
	CorpusDigest string
	Duration     time.Duration
	Results      []Result
	Findings     []Finding
	Summary      Summary
	// Implementations are the DRP2 implementations the runtime harness ran
	// through the same fixtures, in the order given; none for a plain run.
	Implementations []Implementation
	// FixtureReadbacks maps the corpus path of every positive fixture that
	// carries QueueSubmitReply data to those bytes, one entry per readback
	// in stream order (nil for data that is not base64 or is over
	// MaxParityBytes): the reference of the Level 3 preview (Parity).
	FixtureReadbacks map[string][][]byte
	// Comparison is this run compared with a baseline; nil when none was
	// asked for.
	Comparison *Comparison
	// Manifest and Coverage are the manifest comparison and the rule
	// coverage, when the job asked for them.
	Manifest *ManifestCheck
	Coverage *Coverage
	// ExpectationsUpdate is the expectations file the run wrote; nil when
	// none was asked for.
	ExpectationsUpdate *ExpectationsUpdate
	// Judgement is the gate's verdict on the run; nil before it was
	// judged (a report read back, a renderer's own test).
	Judgement *Judgement
	// Interrupted says that a signal stopped the run before it ended, and
	// how far it got; nil for a run that ended on its own.
	Interrupted *Interruption
	// Rerun says that the run ran again only what an earlier report did
	// not pass, and how much it carried over; nil for a run of everything.
	Rerun *Rerun
	// Bounds is what the gate decided every sink shows of the run; zero
	// before it was bounded (a report read back, a run being judged).
	Bounds Bounds
}

// Interruption is how far a run got before a signal stopped it: the
// results it holds are those of the fixtures that ran, and the others
// were never judged.
type Interruption struct {
	// Signal names the signal ("SIGTERM").
	Signal string
	// Done is how many fixtures every implementation finished (the
	// built-in validator's, without implementations), of Of.
	Done, Of int
}

// Bounds records that a run was bounded for its sinks, once, before any
// of them saw it: every value a fixture or a file name can make
// arbitrarily long is capped at the sinks' limits, and the failures after
// the first Full keep their verdicts only (Result.DetailLeftOut). A sink
// renders what it is given and never bounds again.
type Bounds struct {
	// Full is how many failures the run gives in full at most; zero for
	// a run not bounded.
	Full int
	// LeftOut counts the run's own failures whose detail was left out,
	// those left out before (a report read back) among them.
	LeftOut int
}

// Summarize computes the summary from results and findings.
func Summarize(discovered int, results []Result, findings []Finding) Summary {
	s := Summary{Discovered: discovered, Run: len(results), Findings: len(findings)}
	counts := map[Class]*ClassCount{}
	for i := range results {
		r := &results[i]
		c := counts[r.Class]
		if c == nil {
			c = &ClassCount{Class: r.Class}
			counts[r.Class] = c
		}
		c.Run++
		if r.Actual.Outcome == NotClaimed {
			s.NotClaimed++
			c.NotClaimed++
			continue
		}
		if r.Actual.Outcome == Skipped {
			s.Skipped++
			continue
		}
		switch r.Kind() {
		case KindFlaky:
			s.Flaky++
		case KindUnexpectedPass:
			s.UnexpectedPasses++
		}
		if r.Passed {
			s.Passed++
			c.Passed++
			continue
		}
		s.Failed++
		c.Failed++
		s.FailingPaths = append(s.FailingPaths, r.Path)
		switch {
		case !r.Excused():
		case r.KnownFailure == "" && r.Kind() == KindFlaky:
			s.FlakyFailed++
		default:
			s.KnownFailures++
		}
		if r.IsCorpusError() {
			s.CorpusErrors++
		}
	}
	for _, class := range Classes {
		if c := counts[class]; c != nil {
			s.ByClass = append(s.ByClass, *c)
		}
	}
	return s
}
