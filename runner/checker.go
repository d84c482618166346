package runner

import (
	"context"

	"github.com/drp2/drp2-fixtures/model"
)

// Checker runs the semantic phase and then the capability phase over a
// stream whose commands all passed the command schema. It returns the first
// failure, or nil when the stream is valid, and findings: problems in the
// stream that the contract does not let fail it (the runner reports each
// with the fixture's path). The capability phase runs only when the
// semantic phase succeeded (CAPABILITIES.md).
//
// trace, when not nil, is called with the ID of every rule whose check the
// stream reaches (rule coverage). A failure marked Unjudged is no verdict:
// the checker's work budget ran out, or ctx was done.
//
// A Checker must be safe for concurrent use: the runner calls it from
// several goroutines, one stream per call. It must not keep the stream's
// Commands or Capabilities, or slices of them, after Check returns: they
// are slices of the fixture's bytes, which the runner releases then.
// Anything a Failure carries must be a copy, and a verdict must depend on
// the stream alone, never on what the checker kept from earlier streams.
type Checker interface {
	Check(ctx context.Context, s model.Stream, trace func(rule string)) (*model.Failure, []model.Finding)
}
