package jsonout

import (
	"io"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Comparison is the run compared with a baseline ("comparison" in the
// document; absent when no baseline was asked for).
type Comparison struct {
	// Base names the baseline: a short commit, a folder or a report.
	Base   string `json:"base,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Unavailable says why there is no comparison; the rest is then empty.
	Unavailable string `json:"unavailable,omitempty"`
	// Notes say what of the base could not be read.
	Notes             []string       `json:"notes,omitempty"`
	Headline          string         `json:"headline"`
	SchemasChanged    SchemasChanged `json:"schemas_changed"`
	BaseCommandSchema *SchemaSource  `json:"base_command_schema,omitempty"`
	BaseFixtureSchema *SchemaSource  `json:"base_fixture_schema,omitempty"`
	// SchemaFailure is the schema error the most fixtures newly fail
	// with, when a schema changed.
	SchemaFailure *SchemaFailure `json:"schema_failure,omitempty"`
	Counts        Delta          `json:"counts"`
	Changes       []Change       `json:"changes"`
	// Implementations compare each implementation with itself on the
	// base; absent for a run without implementations.
	Implementations []ImplementationDelta `json:"implementations,omitempty"`
}

// ImplementationDelta is one implementation compared with the base's:
// the base implementation it was matched with (absent when none), the
// counts, and the fixtures that regressed, were fixed and are new and
// failing.
type ImplementationDelta struct {
	Implementation    string   `json:"implementation"`
	Base              *string  `json:"base_implementation"`
	Regressed         int      `json:"regressed"`
	Fixed             int      `json:"fixed"`
	AddedFailing      int      `json:"added_failing"`
	AddedPassing      int      `json:"added_passing"`
	RegressedPaths    []string `json:"regressed_paths"`
	FixedPaths        []string `json:"fixed_paths"`
	AddedFailingPaths []string `json:"added_failing_paths"`
}

// SchemasChanged says which schema differs from the base's (its closure,
// or its own sha256 against a base that recorded no closure), and which
// files of each closure changed.
type SchemasChanged struct {
	Command      bool     `json:"command"`
	Fixture      bool     `json:"fixture"`
	CommandFiles []string `json:"command_files,omitempty"`
	FixtureFiles []string `json:"fixture_files,omitempty"`
}

// SchemaFailure is a schema error fixtures fail with now and did not on
// the base: the first such fixture's message and path, how many fail
// with it, and how many newly fail a schema phase in all.
type SchemaFailure struct {
	Message  string `json:"message"`
	Path     string `json:"fixture_path"`
	Fixtures int    `json:"fixtures"`
	All      int    `json:"all"`
}

// Delta counts the changes; the content counts are whatever the verdict.
type Delta struct {
	Regressed          int `json:"regressed"`
	Fixed              int `json:"fixed"`
	StillFailing       int `json:"still_failing"`
	AddedPassing       int `json:"added_passing"`
	AddedFailing       int `json:"added_failing"`
	Removed            int `json:"removed"`
	ExpectationChanged int `json:"expectation_changed"`
	StreamChanged      int `json:"stream_changed"`
	Renamed            int `json:"renamed"`
	Broken             int `json:"broken"`
}

// Change is one fixture of the comparison.
type Change struct {
	CorpusPath  string `json:"corpus_path"`
	FixturePath string `json:"fixture_path"`
	FixtureName string `json:"fixture_name"`
	Verdict     string `json:"verdict"`
	// Content is expectation_changed, stream_changed, renamed,
	// metadata_changed or broken; absent when the file is the same.
	Content *string `json:"content,omitempty"`
	// From is the base's corpus path of a renamed fixture.
	From *string `json:"from,omitempty"`
	Base *Side   `json:"base"`
	Head *Side   `json:"head"`
}

// Side is one run's result for a fixture of the comparison.
type Side struct {
	Passed             bool    `json:"passed"`
	ActualOutcome      string  `json:"actual_outcome"`
	ActualPhase        *string `json:"actual_phase"`
	ActualCode         *string `json:"actual_code"`
	ActualCommandIndex *int    `json:"actual_command_index"`
	ExpectedOutcome    *string `json:"expected_outcome"`
	ExpectedPhase      *string `json:"expected_phase"`
	ExpectedCode       *string `json:"expected_code"`
}

func buildComparison(c *model.Comparison) *Comparison {
	out := comparisonHead(c)
	if out == nil {
		return nil
	}
	out.Changes = make([]Change, 0, len(c.Changes))
	for i := range c.Changes {
		out.Changes = append(out.Changes, change(&c.Changes[i]))
	}
	return out
}

// comparisonHead is the comparison without its changes, which the report
// streams.
func comparisonHead(c *model.Comparison) *Comparison {
	if c == nil {
		return nil
	}
	out := &Comparison{
		Base: c.Base, Commit: c.Commit, Unavailable: c.Unavailable, Notes: c.Notes, Headline: explain.ComparisonHeadline(c),
		SchemasChanged: SchemasChanged{Command: c.CommandSchemaChanged, Fixture: c.FixtureSchemaChanged,
			CommandFiles: c.CommandSchemaFiles, FixtureFiles: c.FixtureSchemaFiles},
		BaseCommandSchema: schemaOrNil(c.BaseCommandSchema), BaseFixtureSchema: schemaOrNil(c.BaseFixtureSchema),
		SchemaFailure: (*SchemaFailure)(c.SchemaFailure),
		Counts:        Delta(c.Delta()),
	}
	for _, d := range c.Implementations {
		out.Implementations = append(out.Implementations, ImplementationDelta{Implementation: d.Label, Base: optional(d.Base),
			Regressed: len(d.Regressed), Fixed: len(d.Fixed), AddedFailing: len(d.AddedFailing), AddedPassing: d.AddedPassing,
			RegressedPaths: nonNil(d.Regressed), FixedPaths: nonNil(d.Fixed), AddedFailingPaths: nonNil(d.AddedFailing)})
	}
	return out
}

// change is one fixture of the comparison.
func change(ch *model.Change) Change {
	return Change{
		CorpusPath: ch.RelPath, FixturePath: ch.Path, FixtureName: ch.Name,
		Verdict: string(ch.Transition), Content: optional(string(ch.Content)), From: optional(ch.From),
		Base: buildSide(ch.Base), Head: buildSide(ch.Head),
	}
}

func buildSide(s *model.Side) *Side {
	if s == nil {
		return nil
	}
	return &Side{
		Passed: s.Passed, ActualOutcome: string(s.Actual.Outcome),
		ActualPhase: optional(string(s.Actual.Phase)), ActualCode: optional(s.Actual.Code),
		ActualCommandIndex: s.Actual.CommandIndex,
		ExpectedOutcome:    optional(s.Expected.Outcome), ExpectedPhase: optional(s.Expected.Phase),
		ExpectedCode: optional(s.Expected.Code),
	}
}

// WriteComparison writes a comparison alone as indented JSON, in the shape
// of the report's "comparison" member.
func WriteComparison(w io.Writer, c *model.Comparison) error {
	return encode(w, buildComparison(c))
}

// nonNil is a list as the report writes it: [] when empty, never null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
