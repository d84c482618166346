package runner

import "github.com/drp2/drp2-fixtures/model"

// Checker runs the semantic phase and then the capability phase over a
// stream whose commands all passed the command schema. It returns the first
// failure, or nil when the stream is valid. The capability phase runs only
// when the semantic phase succeeded (CAPABILITIES.md).
//
// A Checker must be safe for concurrent use: the runner calls it from
// several goroutines, one stream per call. It must not keep the stream's
// Commands or Capabilities, or slices of them, after Check returns: they
// are slices of the fixture's bytes, which the runner releases then (a
// large fixture lives outside the Go heap, and its memory is unmapped).
// Anything a Failure carries must be a copy.
type Checker interface {
	Check(s model.Stream) *model.Failure
}

// FindingChecker is a Checker that can also report findings: problems in
// a stream that the contract does not let fail it. The runner prefers
// CheckFindings when the checker has it, and reports each finding with
// the fixture's path.
type FindingChecker interface {
	Checker
	CheckFindings(s model.Stream) (*model.Failure, []model.Finding)
}
