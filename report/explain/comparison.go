package explain

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/limit"
)

// maxNotes bounds the notes on a base shown in reports.
const maxNotes = 10

// boundComparison caps the comparison's untrusted values as Bound caps a
// run's: the baseline's name (a path the user gave), the reason there is
// none, and each change's paths, name and results.
func boundComparison(c *model.Comparison) *model.Comparison {
	if c == nil {
		return nil
	}
	b := *c
	b.Base = limit.Cap(c.Base, limit.PathBytes)
	b.Unavailable = limit.Cap(c.Unavailable, limit.MessageBytes)
	// A few notes say enough; each is capped like a message.
	b.Notes = nil
	for i, n := range c.Notes {
		if i == maxNotes {
			b.Notes = append(b.Notes, fmt.Sprintf("and %d more folders of the base could not be read", len(c.Notes)-i))
			break
		}
		b.Notes = append(b.Notes, limit.Cap(n, limit.MessageBytes))
	}
	b.BaseCommandSchema.Source = limit.Cap(c.BaseCommandSchema.Source, limit.PathBytes)
	b.BaseFixtureSchema.Source = limit.Cap(c.BaseFixtureSchema.Source, limit.PathBytes)
	b.Changes = make([]model.Change, len(c.Changes))
	for i, ch := range c.Changes {
		ch.RelPath = limit.Cap(ch.RelPath, limit.PathBytes)
		ch.Path = limit.Cap(ch.Path, limit.PathBytes)
		ch.From = limit.Cap(ch.From, limit.PathBytes)
		ch.Name = limit.Cap(ch.Name, limit.NameBytes)
		ch.Base, ch.Head = boundSide(ch.Base), boundSide(ch.Head)
		b.Changes[i] = ch
	}
	return &b
}

func boundSide(s *model.Side) *model.Side {
	if s == nil {
		return nil
	}
	r := boundResult(model.Result{Expected: s.Expected, Actual: s.Actual})
	return &model.Side{Passed: s.Passed, Expected: r.Expected, Actual: r.Actual}
}

// ThisChange marks a move of the fixture's own file: the pull request
// (or push) being compared made it, not the validator.
const ThisChange = " (this change)"

// Change says in words how a fixture of a comparison changed, the same in
// every report: how its file changed ("expectation changed: code
// DRP2_ERR_X → DRP2_ERR_Y (this change)", "broken: invalid JSON: ...",
// "renamed from old/path.json", "stream changed"), and, for a fixture that
// was fixed or regressed though its result did not move, that the
// expectation moved instead. Empty for a file that did not change. Plain
// text; each sink escapes it.
func Change(ch *model.Change) string {
	var parts []string
	switch ch.Content {
	case model.ContentSame:
	case model.Renamed:
		parts = append(parts, "renamed from "+ch.From)
	case model.Broken:
		s := "broken"
		if ch.Head != nil && ch.Head.Actual.Message != "" {
			s += ": " + oneLine(ch.Head.Actual.Message)
		}
		parts = append(parts, s)
	case model.ExpectationChanged:
		s := ch.Content.Words()
		if ch.Base != nil && ch.Head != nil {
			if moves := ExpectationMoves(ch.Base.Expected, ch.Head.Expected); len(moves) > 0 {
				s += ": " + strings.Join(moves, ", ") + ThisChange
			}
		}
		parts = append(parts, s)
	default:
		parts = append(parts, ch.Content.Words())
	}
	if (ch.Verdict == model.Fixed || ch.Verdict == model.Regressed) && ch.Base != nil && ch.Head != nil &&
		ch.Content != model.Broken && sameActual(ch.Base.Actual, ch.Head.Actual) {
		parts = append(parts, "the result did not move; the expectation did")
	}
	return strings.Join(parts, "; ")
}

// ExpectationMoves lists each member of the expected block that differs
// between base and head, old → new: "command_index 6 → 7", "code
// DRP2_ERR_X → DRP2_ERR_Y".
func ExpectationMoves(base, head model.Expected) []string {
	var out []string
	move := func(name, old, new string) {
		if old != new {
			out = append(out, oneLine(name+" "+orAbsent(old)+Arrow+orAbsent(new)))
		}
	}
	move("outcome", base.Outcome, head.Outcome)
	move("phase", base.Phase, head.Phase)
	move("code", base.Code, head.Code)
	move("command_index", index(base.CommandIndex), index(head.CommandIndex))
	return out
}

func sameActual(a, b model.Actual) bool {
	return a.Outcome == b.Outcome && a.Phase == b.Phase && a.Code == b.Code && index(a.CommandIndex) == index(b.CommandIndex)
}
