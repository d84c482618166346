package runner

// Result matching (RUNNER.md): the actual outcome of a fixture against its
// expectation, and where in the fixture a mismatch lies.

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
)

// match builds the actual result and decides whether it matches the
// expectation (RUNNER.md, Result Matching).
func match(e model.Expected, class model.Class, f *model.Failure) (model.Actual, bool) {
	if f == nil {
		a := model.Actual{Outcome: model.Success}
		if class == model.ClassSchemaNegative {
			a.Message = "every command passed the command schema; semantic and capability phases are not run for schema-negative fixtures"
		}
		return a, class == model.ClassPositive
	}
	a := model.Actual{Outcome: model.Error, Phase: f.Phase, Code: f.Code, Message: f.Message, Rule: f.Rule}
	if f.CommandIndex >= 0 {
		idx := f.CommandIndex
		a.CommandIndex = &idx
	}
	if class == model.ClassPositive || class == model.ClassUnknown {
		return a, false
	}
	passed := string(a.Phase) == e.Phase && a.Code == e.Code &&
		(e.CommandIndex == nil || (a.CommandIndex != nil && *a.CommandIndex == *e.CommandIndex))
	return a, passed
}

// failureSpan locates a mismatch: the offending field of the failing
// command when known, else the failing command, else the expected block.
func failureSpan(data []byte, f *model.Failure) *model.Span {
	if f != nil && f.CommandIndex >= 0 {
		cmd := fmt.Sprintf("/commands/%d", f.CommandIndex)
		return firstSpan(data, cmd+f.Pointer, cmd, "/expected")
	}
	return firstSpan(data, "/expected")
}

func firstSpan(data []byte, pointers ...string) *model.Span {
	for _, p := range pointers {
		if s := spanOf(data, p); s != nil {
			return s
		}
	}
	return nil
}
