package jsonout

import (
	"io"

	"github.com/drp2/drp2-fixtures/model"
)

// ManifestCheck is the corpus compared with its manifest ("manifest" in
// the document). Like the small values of wire.go, it and its parts are
// declared field for field as their model types (see there why).
type ManifestCheck struct {
	Path           string           `json:"path"`
	Frozen         bool             `json:"frozen"`
	DRP2Version    string           `json:"drp2_version"`
	CurrentVersion string           `json:"current_version,omitempty"`
	Headline       string           `json:"headline"`
	Unchanged      int              `json:"unchanged"`
	Violations     int              `json:"violations"`
	SchemasChanged []string         `json:"schemas_changed,omitempty"`
	Schemas        []ManifestSchema `json:"schemas,omitempty"`
	Changes        []ManifestChange `json:"changes,omitempty"`
	CheckClean     bool             `json:"check_clean,omitempty"`
}

// ManifestSchema is a schema whose recorded path or bytes differ. Its span
// is for annotations only, never written.
type ManifestSchema struct {
	Which          string `json:"which"`
	RecordedPath   string `json:"recorded_path"`
	RecordedSHA256 string `json:"recorded_sha256"`
	CurrentPath    string `json:"current_path"`
	CurrentSHA256  string `json:"current_sha256"`
	// The closures and the files of them that changed (model.ManifestSchema).
	RecordedClosure string      `json:"recorded_closure_sha256,omitempty"`
	CurrentClosure  string      `json:"current_closure_sha256,omitempty"`
	Files           []string    `json:"files,omitempty"`
	Violation       bool        `json:"violation"`
	Span            *model.Span `json:"-"`
}

// ManifestChange is one fixture that differs from the manifest. Where it
// lies is for annotations only, never written.
type ManifestChange struct {
	Kind        string      `json:"kind"`
	Path        string      `json:"path"`
	From        string      `json:"from,omitempty"`
	Aspects     []string    `json:"aspects,omitempty"`
	Expected    []string    `json:"expected,omitempty"`
	Description string      `json:"description"`
	Violation   bool        `json:"violation"`
	Span        *model.Span `json:"-"`
	InManifest  bool        `json:"-"`
}

// Coverage is the validator's rule coverage ("coverage" in the document).
type Coverage struct {
	Rules            []RuleCoverage `json:"rules"`
	Uncovered        int            `json:"uncovered"`
	PositiveFixtures int            `json:"positive_fixtures"`
	NegativeFixtures int            `json:"negative_fixtures"`
	NoRule           []string       `json:"no_rule,omitempty"`
	NotCounted       int            `json:"not_counted"`
}

// RuleCoverage is what the corpus does with one rule.
type RuleCoverage struct {
	ID               string   `json:"id"`
	Code             string   `json:"code"`
	Summary          string   `json:"summary"`
	NegativeFixtures []string `json:"negative_fixtures"`
	Negative         int      `json:"negative"`
	Positive         int      `json:"positive"`
	Unlisted         bool     `json:"unlisted,omitempty"`
	FindingOnly      bool     `json:"finding_only,omitempty"`
}

func buildManifest(m *model.ManifestCheck) *ManifestCheck {
	if m == nil {
		return nil
	}
	return &ManifestCheck{
		Path: m.Path, Frozen: m.Frozen, DRP2Version: m.DRP2Version, CurrentVersion: m.CurrentVersion,
		Headline: m.Headline, Unchanged: m.Unchanged, Violations: m.Violations, SchemasChanged: m.SchemasChanged,
		Schemas:    convert(m.Schemas, func(s model.ManifestSchema) ManifestSchema { return ManifestSchema(s) }),
		Changes:    convert(m.Changes, func(ch model.ManifestChange) ManifestChange { return ManifestChange(ch) }),
		CheckClean: m.CheckClean,
	}
}

func buildCoverage(c *model.Coverage) *Coverage {
	if c == nil {
		return nil
	}
	return &Coverage{
		// A coverage without rules has "rules": null, as it always had.
		Rules:     convert(c.Rules, func(rc model.RuleCoverage) RuleCoverage { return RuleCoverage(rc) }),
		Uncovered: c.Uncovered, PositiveFixtures: c.PositiveFixtures, NegativeFixtures: c.NegativeFixtures,
		NoRule: c.NoRule, NotCounted: c.NotCounted,
	}
}

// WriteManifest writes a manifest comparison alone as indented JSON, in
// the shape of the report's "manifest" member (manifest check --format
// json). Like the report, it is safe to print to an Actions log: fixture
// paths and expected values are the pull request's.
func WriteManifest(w io.Writer, m *model.ManifestCheck) error { return encode(w, buildManifest(m)) }

// WriteCoverage writes a rule coverage alone as indented JSON, in the
// shape of the report's "coverage" member (coverage --format json), safe
// to print to an Actions log.
func WriteCoverage(w io.Writer, c *model.Coverage) error { return encode(w, buildCoverage(c)) }

// Encode writes any other document (the explorer's report) as the report
// is written: indented JSON in which no "##[" appears, so that it is safe
// to print to an Actions log.
func Encode(w io.Writer, v any) error { return encode(w, v) }
