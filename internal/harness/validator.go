package harness

import (
	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// ValidatorJudge judges fixtures with the project's own validator: the
// same phases the runner runs, without the expectation. It is what
// `drp2-fixtures adapter` answers with.
func ValidatorJudge(v *runner.Validator) Judge {
	return func(f *protocol.Fixture) protocol.Verdict {
		fail, err := v.Validate(f.Version, f.Capabilities, f.Commands)
		if err != nil {
			// Not a stream at all: the harness never sends one, so this
			// is an error of the message, reported as a schema failure.
			return protocol.Verdict{Outcome: string(model.Error), Phase: string(model.PhaseSchema),
				Code: "DRP2_ERR_INVALID_ARGUMENT", Message: err.Error()}
		}
		if fail == nil {
			return protocol.Verdict{Outcome: string(model.Success)}
		}
		v := protocol.Verdict{Outcome: string(model.Error), Phase: string(fail.Phase), Code: fail.Code, Message: fail.Message}
		if fail.CommandIndex >= 0 {
			idx := fail.CommandIndex
			v.CommandIndex = &idx
		}
		return v
	}
}
