package runner

import (
	"encoding/json"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestValidatorPhases: the validator runs the command schema before the
// checker, and refuses input that is not a stream.
func TestValidatorPhases(t *testing.T) {
	v, err := NewValidator(Config{WorkDir: "/"})
	if err != nil {
		t.Fatal(err)
	}
	version := json.RawMessage(`{"major":2,"minor":0}`)
	f, err := v.Validate(version, nil, json.RawMessage(`[{"cmd":"HelloRenderer","version":{"major":2,"minor":0}},{"cmd":"NoSuchCommand"}]`))
	if err != nil || f == nil || f.Phase != model.PhaseSchema || f.Code != codeUnknownCommand || f.CommandIndex != 1 {
		t.Errorf("%+v, %v", f, err)
	}
	if f, err := v.Validate(version, nil, json.RawMessage(`[{"cmd":"HelloRenderer","version":{"major":2,"minor":0}}]`)); err != nil || f != nil {
		t.Errorf("a valid stream: %+v, %v", f, err)
	}
	for _, bad := range []string{`{"cmd":"x"}`, `[`, ``} {
		if _, err := v.Validate(version, nil, json.RawMessage(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := NewValidator(Config{WorkDir: "/", CommandSchema: "/no/such/schema.json"}); err == nil {
		t.Error("a missing schema gave no error")
	}
}
