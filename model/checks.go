package model

// ManifestCheck is the corpus compared with its recorded manifest (the
// manifest input, --manifest, --check-clean).
type ManifestCheck struct {
	// Path is the manifest file as the reports show it.
	Path   string `json:"path"`
	Frozen bool   `json:"frozen"`
	// DRP2Version is the recorded version; CurrentVersion is set when the
	// corpus now declares another.
	DRP2Version    string `json:"drp2_version"`
	CurrentVersion string `json:"current_version,omitempty"`
	// Headline is the comparison in one line.
	Headline string `json:"headline"`
	// Unchanged counts the fixtures that are the same in both;
	// Violations the changes that break a frozen manifest.
	Unchanged  int `json:"unchanged"`
	Violations int `json:"violations"`
	// SchemasChanged names the schemas ("command", "fixture") whose
	// recorded path or bytes differ.
	SchemasChanged []string         `json:"schemas_changed,omitempty"`
	Changes        []ManifestChange `json:"changes,omitempty"`
}

// ManifestChange is one fixture that differs from the manifest.
type ManifestChange struct {
	// Kind is added, removed, renamed or changed.
	Kind string `json:"kind"`
	Path string `json:"path"`
	// From is the recorded path of a renamed fixture.
	From string `json:"from,omitempty"`
	// Aspects are the parts that changed: expected, commands,
	// capabilities, version, other, unusable.
	Aspects []string `json:"aspects,omitempty"`
	// Expected lists the changed members of the expected block, as
	// "member: old → new".
	Expected  []string `json:"expected,omitempty"`
	Violation bool     `json:"violation"`
}

// Coverage is the validator's rule coverage of a run (the coverage
// input): per rule, the negative fixtures that fail by it and the passing
// positive fixtures whose streams pass through its check.
type Coverage struct {
	Rules []RuleCoverage `json:"rules"`
	// Uncovered counts the rules that can fail a stream and have no
	// negative fixture.
	Uncovered        int `json:"uncovered"`
	PositiveFixtures int `json:"positive_fixtures"`
	NegativeFixtures int `json:"negative_fixtures"`
	// NotCounted counts the fixtures left out because they did not pass.
	NotCounted int `json:"not_counted"`
}

// RuleCoverage is what the corpus does with one rule.
type RuleCoverage struct {
	ID          string `json:"id"`
	Code        string `json:"code,omitempty"`
	Summary     string `json:"summary"`
	Negative    int    `json:"negative"`
	Positive    int    `json:"positive"`
	FindingOnly bool   `json:"finding_only,omitempty"`
}
