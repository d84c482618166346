package model

// ManifestCheck is the corpus compared with its recorded manifest (the
// manifest input, --manifest, --check-clean).
type ManifestCheck struct {
	// Path is the manifest file as the reports show it.
	Path   string
	Frozen bool
	// DRP2Version is the recorded version; CurrentVersion is set when the
	// corpus now declares another.
	DRP2Version    string
	CurrentVersion string
	// Headline is the comparison in one line.
	Headline string
	// Unchanged counts the fixtures that are the same in both;
	// Violations the changes that break a frozen manifest.
	Unchanged  int
	Violations int
	// SchemasChanged names the schemas ("command", "fixture") whose
	// recorded path or bytes differ.
	SchemasChanged []string
	// Schemas are the schema changes in full, in SchemasChanged's order.
	Schemas []ManifestSchema
	Changes []ManifestChange
	// CheckClean says every difference fails the run (run --check-clean),
	// not only those that break a freeze.
	CheckClean bool
}

// Clean reports whether the corpus is exactly as recorded.
func (m *ManifestCheck) Clean() bool {
	return len(m.Schemas) == 0 && len(m.Changes) == 0 && m.CurrentVersion == ""
}

// Allowed counts the differences that do not break the freeze (all of
// them when the manifest is not frozen): what --check-clean adds to the
// violations.
func (m *ManifestCheck) Allowed() int {
	n := 0
	for i := range m.Schemas {
		if !m.Schemas[i].Violation {
			n++
		}
	}
	if m.CurrentVersion != "" && !m.Frozen {
		n++
	}
	for i := range m.Changes {
		if !m.Changes[i].Violation {
			n++
		}
	}
	return n
}

// Fails reports whether the comparison fails the run: a change breaks the
// freeze, or the corpus differs at all under CheckClean.
func (m *ManifestCheck) Fails() bool {
	return m.Frozen && m.Violations > 0 || m.CheckClean && !m.Clean()
}

// ManifestSchema is a schema whose recorded path or bytes differ.
type ManifestSchema struct {
	// Which is "command" or "fixture".
	Which          string
	RecordedPath   string
	RecordedSHA256 string
	CurrentPath    string
	CurrentSHA256  string
	// RecordedClosure and CurrentClosure are the digests of the schema's
	// closure (SchemaSource.Closure); the recorded one is empty in a
	// manifest written before closures were recorded.
	RecordedClosure string
	CurrentClosure  string
	// Files name the files of the closure that changed, were added or
	// were removed, in path order: none when only the path moved or the
	// manifest recorded no closure.
	Files     []string
	Violation bool
	// Span locates the schema's entry in the manifest file.
	Span *Span
}

// ManifestChange is one fixture that differs from the manifest.
type ManifestChange struct {
	// Kind is added, removed, renamed or changed.
	Kind string
	Path string
	// From is the recorded path of a renamed fixture.
	From string
	// Aspects are the parts that changed: expected, commands,
	// capabilities, version, other, unusable.
	Aspects []string
	// Expected lists the changed members of the expected block, as
	// "member: old → new".
	Expected []string
	// Description says in words what changed ("renamed from a.json",
	// "expected block (…)").
	Description string
	Violation   bool
	// Span locates the change for annotations: in the fixture file, or in
	// the manifest file when InManifest (a removed fixture).
	Span       *Span
	InManifest bool
}

// Coverage is the validator's rule coverage of a run (the coverage
// input): per rule, the negative fixtures that fail by it and the passing
// positive fixtures whose streams pass through its check.
type Coverage struct {
	Rules []RuleCoverage
	// Uncovered counts the rules that can fail a stream and have no
	// negative fixture.
	Uncovered        int
	PositiveFixtures int
	NegativeFixtures int
	// NoRule lists passing negative fixtures whose verdict names no rule.
	NoRule []string
	// NotCounted counts the fixtures left out because they did not pass.
	NotCounted int
}

// RuleCoverage is what the corpus does with one rule.
type RuleCoverage struct {
	// ID names the prose rule as the verdicts do
	// ("COMMANDS.md WriteBuffer rule 2").
	ID string
	// Code is the error code a violation of the rule reports; none for a
	// rule reported only as a finding.
	Code    string
	Summary string
	// NegativeFixtures are the negative fixtures that fail by the rule as
	// they expect, by path; never nil.
	NegativeFixtures []string
	// Negative is len(NegativeFixtures).
	Negative int
	// Positive counts the passing positive fixtures whose streams pass
	// through the rule's check.
	Positive int
	// Unlisted: verdicts or traces name the rule, but the checker's rule
	// list does not.
	Unlisted bool
	// FindingOnly: the rule has no error code, so it never fails a stream
	// and no negative fixture can exercise it.
	FindingOnly bool
}

// RuleGroup is where a rule stands in a coverage report, in report order.
type RuleGroup int

// The groups of rules in a coverage report.
const (
	RulesUncovered RuleGroup = iota
	RulesCovered
	RulesFindingOnly
)

// Group says whether the rule has negative fixtures, has none, or can
// have none because it never fails a stream.
func (rc *RuleCoverage) Group() RuleGroup {
	switch {
	case rc.Negative > 0:
		return RulesCovered
	case rc.FindingOnly:
		return RulesFindingOnly
	}
	return RulesUncovered
}
