package explain

import (
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/limit"
)

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
