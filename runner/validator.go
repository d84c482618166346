package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
)

// Match decides whether a primary result matches a fixture's expectation
// exactly as the runner decides it for its own results (RUNNER.md, Result
// Matching). f is the first failure, nil for success. The runtime harness
// judges implementations with it, so that an implementation is held to the
// same rule as the runner.
func Match(e model.Expected, class model.Class, f *model.Failure) (model.Actual, bool) {
	return match(e, class, f)
}

// Validator runs the DRP phases over command streams that come from outside
// a corpus: the project's own adapter for the runtime harness. It knows no
// expectation, so every phase runs and the earliest failure wins, as in an
// implementation.
type Validator struct {
	schemas *schemas
	// commands is the command-schema phase, with its verdict cache shared
	// by the streams of one validator.
	commands *commandPhase
	checker  Checker
}

// NewValidator compiles the schemas cfg names (CommandSchema, FixtureSchema,
// WorkDir; empty or Embedded for the embedded ones) and keeps cfg.Checker
// for the semantic and capability phases.
func NewValidator(cfg Config) (*Validator, error) {
	wd, err := workDir(cfg)
	if err != nil {
		return nil, err
	}
	sch, err := schemasFor(cfg, wd, "")
	if err != nil {
		return nil, err
	}
	return &Validator{schemas: sch, checker: cfg.Checker, commands: newCommandPhase(sch)}, nil
}

// Validate runs the command schema, then the semantic and capability
// phases, over one stream: version and capabilities as JSON (capabilities
// may be empty) and commands as a JSON array. It returns the first failure,
// or nil for a valid stream; an error means the input was not a stream.
func (v *Validator) Validate(version, capabilities, commands json.RawMessage) (*model.Failure, error) {
	// The stream is laid out as a fixture document so that the runner's
	// own decoder, with its exact numbers and command spans, reads it.
	var doc bytes.Buffer
	doc.WriteString(`{"version":`)
	doc.Write(orNull(version))
	if len(bytes.TrimSpace(capabilities)) > 0 {
		doc.WriteString(`,"capabilities":`)
		doc.Write(capabilities)
	}
	doc.WriteString(`,"commands":`)
	doc.Write(orNull(commands))
	doc.WriteString("}")
	var mem fixtureMemory
	defer mem.free()
	fx, cerr := decodeFixture(doc.Bytes(), &mem)
	if cerr != nil {
		return nil, fmt.Errorf("stream: %s", cerr.msg)
	}
	if _, ok := fx.doc["commands"].([]any); !ok {
		return nil, fmt.Errorf("stream: commands must be an array")
	}
	job := &fixtureJob{schemas: v.schemas, commands: v.commands, checker: v.checker}
	failure, _ := job.phases(context.Background(), fx, "", model.ClassNegative)
	if failure != nil && failure.Unjudged {
		return nil, fmt.Errorf("stream: %s", failure.Message)
	}
	return failure, nil
}

func orNull(b json.RawMessage) []byte {
	if len(bytes.TrimSpace(b)) == 0 {
		return []byte("null")
	}
	return b
}
