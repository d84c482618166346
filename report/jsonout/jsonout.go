// Package jsonout renders a run as JSON: the machine-readable result of
// --format json and --json-out, for artifacts and later workflow steps.
package jsonout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Document is the JSON shape. Field order is part of the format: the keys of
// RUNNER.md's result shape come first, in a fixed order.
type Document struct {
	// ReportVersion is the version of this format, "MAJOR.MINOR"
	// (ReportVersion): a minor version only adds members, a major one
	// changes what a member means, and readers refuse a major version
	// they do not know. A report without it predates it: version 1.0.
	ReportVersion string    `json:"report_version"`
	Summary       Summary   `json:"summary"`
	Results       []Result  `json:"results"`
	Findings      []Finding `json:"findings"`
	// Implementations are the runtime harness's results, one record per
	// implementation; absent for a plain run.
	Implementations []Implementation `json:"implementations,omitempty"`
	// FixtureReadbacks maps each positive fixture that carries
	// QueueSubmitReply data to those bytes (base64, one per readback in
	// stream order): the reference of the Level 3 preview.
	FixtureReadbacks map[string][][]byte `json:"fixture_readbacks,omitempty"`
	// Level3Preview compares readback bytes across the fixture data and
	// the implementations (information: CONFORMANCE.md defers Level 3).
	// It is derived from the two maps and not read back.
	Level3Preview []ParityRow `json:"level3_preview,omitempty"`
	// Comparison is the comparison with a baseline, when one was asked for.
	Comparison *Comparison `json:"comparison,omitempty"`
	// Manifest and Coverage are the manifest comparison and the rule
	// coverage, when they were asked for.
	Manifest *ManifestCheck `json:"manifest,omitempty"`
	Coverage *Coverage      `json:"coverage,omitempty"`
	// Verdict is the gate's verdict, as every other report states it.
	Verdict *Verdict `json:"verdict,omitempty"`
}

// Summary is RUNNER.md's minimal batch summary plus the run's evidence.
type Summary struct {
	Discovered    int          `json:"discovered"`
	Run           int          `json:"run"`
	Passed        int          `json:"passed"`
	Failed        int          `json:"failed"`
	CorpusErrors  int          `json:"corpus_errors"`
	Findings      int          `json:"findings"`
	ByClass       []ClassCount `json:"by_class"`
	FailingPaths  []string     `json:"failing_paths"`
	Corpus        string       `json:"corpus"`
	CommandSchema SchemaSource `json:"command_schema"`
	FixtureSchema SchemaSource `json:"fixture_schema"`
	ToolVersion   string       `json:"tool_version,omitempty"`
	// Started is the run's start (RFC 3339, UTC; SOURCE_DATE_EPOCH fixes
	// it); Commit and Repository what it was made on, and RunURL the
	// workflow run that made it, when known.
	Started    string `json:"started,omitempty"`
	Commit     string `json:"commit,omitempty"`
	Repository string `json:"repository,omitempty"`
	RunURL     string `json:"run_url,omitempty"`
	// DurationMS is how long the run took (a merge of shards: the
	// longest shard), in milliseconds; 0 under SOURCE_DATE_EPOCH.
	DurationMS json.Number `json:"duration_ms"`
	// CorpusSHA256 is the digest of the fixtures the run's filters select,
	// before sharding (model.Run.CorpusDigest).
	CorpusSHA256 string `json:"corpus_sha256,omitempty"`
	// KnownFailures counts the failures a known-failures list excuses.
	KnownFailures int `json:"known_failures,omitempty"`
	// DetailLeftOut counts the failing records past the first ones given
	// in full (escape.FullFailures): each keeps its verdict, paths and
	// digest, and says detail_left_out.
	DetailLeftOut int `json:"detail_left_out,omitempty"`
	// Shard is the part of the selection the run ran; absent for all of
	// it.
	Shard *Shard `json:"shard,omitempty"`
	// Interrupted says that a signal stopped the run and how far it got;
	// absent for a run that ended on its own.
	Interrupted *Interruption `json:"interrupted,omitempty"`
	// Rerun says that the implementations ran again only what an earlier
	// report did not pass; absent for a run of everything.
	Rerun *Rerun `json:"rerun,omitempty"`
	// The built-in validator's other counts by its expectations.
	ExpectationCounts
}

// ExpectationCounts count what the expectations say of one
// implementation's results (the built-in validator's too): flaky fixtures
// (those of them that failed, excused), unexpected passes (stale
// entries), fixtures skipped.
type ExpectationCounts struct {
	Flaky            int `json:"flaky,omitempty"`
	FlakyFailed      int `json:"flaky_failed,omitempty"`
	UnexpectedPasses int `json:"unexpected_passes,omitempty"`
	Skipped          int `json:"skipped,omitempty"`
}

func expectationCounts(s *model.Summary) ExpectationCounts {
	return ExpectationCounts{Flaky: s.Flaky, FlakyFailed: s.FlakyFailed, UnexpectedPasses: s.UnexpectedPasses, Skipped: s.Skipped}
}

// Interruption is model.Interruption: the signal that stopped the run, and
// the fixtures every implementation finished (done) of those it was to run
// (of).
type Interruption struct {
	Signal string `json:"signal"`
	Done   int    `json:"done"`
	Of     int    `json:"of"`
}

// Rerun is model.Rerun: the earlier report (from), the fixtures sent to
// the implementations again (ran), and those whose results were carried
// over from it (carried).
type Rerun struct {
	From    string `json:"from"`
	Ran     int    `json:"ran"`
	Carried int    `json:"carried"`
}

// Shard is one part of a sharded run: the index-th (from 1) of count;
// Timings, the SHA-256 of the timings report the parts were balanced by
// (--shard-timings), absent for parts by path hash.
type Shard struct {
	Index   int    `json:"index"`
	Count   int    `json:"count"`
	Timings string `json:"timings,omitempty"`
}

func toShard(s *model.Shard) *Shard {
	if s == nil {
		return nil
	}
	return &Shard{Index: s.Index, Count: s.Count, Timings: s.Timings}
}

func fromShard(s *Shard) *model.Shard {
	if s == nil {
		return nil
	}
	return &model.Shard{Index: s.Index, Count: s.Count, Timings: s.Timings}
}

// ClassCount counts one class.
type ClassCount struct {
	Class  string `json:"class"`
	Run    int    `json:"run"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
}

// Result is one fixture's record. Absent values are null.
type Result struct {
	FixturePath          string       `json:"fixture_path"`
	FixtureName          string       `json:"fixture_name"`
	ActualOutcome        string       `json:"actual_outcome"`
	ActualPhase          *string      `json:"actual_phase"`
	ActualCode           *string      `json:"actual_code"`
	ActualCommandIndex   *int         `json:"actual_command_index"`
	Passed               bool         `json:"passed"`
	Message              *string      `json:"message"`
	ExpectedOutcome      *string      `json:"expected_outcome"`
	ExpectedPhase        *string      `json:"expected_phase"`
	ExpectedCode         *string      `json:"expected_code"`
	ExpectedCommandIndex *json.Number `json:"expected_command_index"`
	Class                string       `json:"class"`
	CorpusPath           string       `json:"corpus_path"`
	CorpusError          bool         `json:"corpus_error"`
	Location             *Span        `json:"location"`
	Rule                 *string      `json:"rule,omitempty"`
	// Reason and Fix are the fixture's own words of a failure: its
	// reason and fix members, which the text report shows, so that a
	// report read back (a merge of shards) shows them too.
	Reason      *string      `json:"reason,omitempty"`
	Fix         *string      `json:"fix,omitempty"`
	Digest      *Digest      `json:"digest,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// KnownFailure is the known-failures list's reason for a failure it
	// excuses.
	KnownFailure *string `json:"known_failure,omitempty"`
	// DetailLeftOut: a failure past the first ones given in full, without
	// its message, rule, location and diagnostics.
	DetailLeftOut bool `json:"detail_left_out,omitempty"`
	// Expectation is the expectations entry that covers the fixture for
	// what ran it.
	Expectation *Expectation `json:"expectation,omitempty"`
	// Attempts are every attempt of a fixture sent more than once, in
	// order, the last one the result's own.
	Attempts []Attempt `json:"attempts,omitempty"`
	// Carried: the result was taken from the earlier report of a re-run
	// (summary.rerun), not run again.
	Carried bool `json:"carried,omitempty"`
	// DurationMS is how long the fixture took, in milliseconds (to the
	// microsecond); 0 under SOURCE_DATE_EPOCH. Timed shards
	// (--shard-timings) and the slowest fixtures are read from it.
	DurationMS json.Number `json:"duration_ms"`
}

// Expectation is an expectations entry: "fail", "flaky" or "skip", its
// reason, and where it is (file:line).
type Expectation struct {
	Expect string  `json:"expect"`
	Reason *string `json:"reason,omitempty"`
	Entry  string  `json:"entry"`
}

// Attempt is what one sending of a fixture gave.
type Attempt struct {
	Outcome      string  `json:"outcome"`
	Phase        *string `json:"phase"`
	Code         *string `json:"code"`
	CommandIndex *int    `json:"command_index"`
	Message      *string `json:"message"`
}

// summary is the run's summary member.
func summary(run *model.Run) Summary {
	s := run.Summary
	out := Summary{
		Discovered: s.Discovered, Run: s.Run, Passed: s.Passed, Failed: s.Failed,
		CorpusErrors: s.CorpusErrors, Findings: s.Findings,
		ByClass: make([]ClassCount, 0, len(s.ByClass)), FailingPaths: append([]string{}, s.FailingPaths...),
		Corpus: run.CorpusRoot, CommandSchema: toSchema(run.CommandSchema), FixtureSchema: toSchema(run.FixtureSchema),
		ToolVersion: run.ToolVersion, KnownFailures: s.KnownFailures, DetailLeftOut: run.Bounds.LeftOut,
		ExpectationCounts: expectationCounts(&s),
		Started:           started(run.Started), Commit: run.Commit, Repository: run.Repository, RunURL: run.RunURL, DurationMS: millis(run.Duration), CorpusSHA256: run.CorpusDigest, Shard: toShard(run.Shard),
		Interrupted: (*Interruption)(run.Interrupted), Rerun: (*Rerun)(run.Rerun),
	}
	for _, c := range s.ByClass {
		out.ByClass = append(out.ByClass, ClassCount{Class: c.Class.String(), Run: c.Run, Passed: c.Passed, Failed: c.Failed})
	}
	return out
}

// verdict is the gate's verdict member, nil when the run was not judged.
func verdict(run *model.Run) *Verdict {
	j := run.Judgement
	if j == nil {
		return nil
	}
	w := explain.Judgement(run)
	return &Verdict{Failed: j.Failed, Conclusion: explain.Conclusion(j), Headline: w.Headline, Reasons: w.Reasons}
}

// started is the run's start as the report writes it, in UTC to the
// second: the same run gives the same bytes wherever it was made.
func started(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Verdict is the wire form of model.Judgement: the gate's verdict on the
// run, in the words every other report states it in. It keeps the name of
// its member: the decoder names the Go type of a mistyped member in its
// error ("Go struct field Verdict.verdict.failed"), which a refused report
// has always been told (TestReadTypeErrorsKeepTheirWords).
type Verdict struct {
	Failed     bool     `json:"failed"`
	Conclusion string   `json:"conclusion"`
	Headline   string   `json:"headline"`
	Reasons    []string `json:"reasons,omitempty"`
}

func expectation(l *model.Listing) *Expectation {
	if l == nil {
		return nil
	}
	return &Expectation{Expect: l.Expect.String(), Reason: optional(l.Reason), Entry: l.Entry}
}

func attempts(as []model.Actual) []Attempt {
	var out []Attempt
	for _, a := range as {
		out = append(out, Attempt{Outcome: string(a.Outcome), Phase: optional(string(a.Phase)), Code: optional(a.Code),
			CommandIndex: a.CommandIndex, Message: optional(a.Message)})
	}
	return out
}

// readListing and readAttempts are expectation and attempts read back.
func readListing(e *Expectation) (*model.Listing, error) {
	if e == nil {
		return nil, nil
	}
	exp, ok := model.ParseExpectation(e.Expect)
	if !ok {
		return nil, fmt.Errorf("expectation %q is not fail, flaky or skip", e.Expect)
	}
	return &model.Listing{Expect: exp, Reason: deref(e.Reason), Entry: e.Entry}, nil
}

func readAttempts(as []Attempt) []model.Actual {
	var out []model.Actual
	for _, a := range as {
		out = append(out, model.Actual{Outcome: model.Outcome(a.Outcome), Phase: model.Phase(deref(a.Phase)), Code: deref(a.Code),
			CommandIndex: a.CommandIndex, Message: deref(a.Message)})
	}
	return out
}

// encode writes v as indented JSON in which no "##[" can appear, so that
// the document is safe to print to an Actions log.
func encode(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escape.LogJSON(b.Bytes()))
	return err
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func digest(d model.Digest) *Digest {
	if d == (model.Digest{}) {
		return nil
	}
	w := Digest(d)
	return &w
}

// expectedIndex is the expected command index as the fixture gives it, in
// decimal even past an int; nil when the fixture names none.
func expectedIndex(e model.Expected) *json.Number {
	if e.CommandIndex == nil {
		return nil
	}
	n := json.Number(strconv.Itoa(*e.CommandIndex))
	if e.BigCommandIndex != "" {
		n = json.Number(e.BigCommandIndex)
	}
	return &n
}
