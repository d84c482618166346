package bound

import (
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// maxNotes bounds the notes on a base shown in reports.
const maxNotes = 10

// boundComparison caps the comparison's untrusted values as RunTo caps a
// run's: the baseline's name (a path the user gave), the reason there is
// none, and each change's paths, name and results.
func boundComparison(c *model.Comparison) *model.Comparison {
	if c == nil {
		return nil
	}
	b := *c
	b.Base = escape.Cap(c.Base, escape.PathBytes)
	b.Unavailable = escape.Cap(c.Unavailable, escape.MessageBytes)
	// A few notes say enough; each is capped like a message. The notes
	// are the baseline's sentences, and the last stands for the rest in
	// the same voice.
	b.Notes = nil
	for i, n := range c.Notes {
		if i == maxNotes {
			b.Notes = append(b.Notes, "and "+strconv.Itoa(len(c.Notes)-i)+" more folders of the base could not be read")
			break
		}
		b.Notes = append(b.Notes, escape.Cap(n, escape.MessageBytes))
	}
	b.BaseCommandSchema.Source = escape.Cap(c.BaseCommandSchema.Source, escape.PathBytes)
	b.BaseFixtureSchema.Source = escape.Cap(c.BaseFixtureSchema.Source, escape.PathBytes)
	b.CommandSchemaFiles = capAll(c.CommandSchemaFiles, escape.PathBytes)
	b.FixtureSchemaFiles = capAll(c.FixtureSchemaFiles, escape.PathBytes)
	if f := c.SchemaFailure; f != nil {
		b.SchemaFailure = &model.SchemaFailure{Message: escape.Cap(f.Message, escape.MessageBytes),
			Path: escape.Cap(f.Path, escape.PathBytes), Fixtures: f.Fixtures, All: f.All}
	}
	b.Changes = make([]model.Change, len(c.Changes))
	for i, ch := range c.Changes {
		ch.RelPath = escape.Cap(ch.RelPath, escape.PathBytes)
		ch.Path = escape.Cap(ch.Path, escape.PathBytes)
		ch.From = escape.Cap(ch.From, escape.PathBytes)
		ch.Name = escape.Cap(ch.Name, escape.NameBytes)
		ch.Base, ch.Head = boundSide(ch.Base), boundSide(ch.Head)
		b.Changes[i] = ch
	}
	b.Implementations = make([]model.ImplementationDelta, len(c.Implementations))
	for i, d := range c.Implementations {
		d.Label, d.Base = escape.Cap(d.Label, escape.NameBytes), escape.Cap(d.Base, escape.NameBytes)
		d.Regressed, d.Fixed, d.AddedFailing = capAll(d.Regressed, escape.PathBytes), capAll(d.Fixed, escape.PathBytes), capAll(d.AddedFailing, escape.PathBytes)
		b.Implementations[i] = d
	}
	return &b
}

func boundSide(s *model.Side) *model.Side {
	if s == nil {
		return nil
	}
	r := boundResult(model.Result{Expected: s.Expected, Actual: s.Actual})
	return &model.Side{Passed: s.Passed, Expected: r.Expected, Actual: r.Actual, KnownFailure: s.KnownFailure}
}
