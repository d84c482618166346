package explain

import (
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/limit"
)

// Bound returns a copy of run in which every value that a fixture or a file
// name can make arbitrarily long is capped with limit.Cap, so that every
// sink echoes at most the named limits of report/limit. Each renderer
// starts from it; run itself is not changed. Strings within their caps are
// shared, not copied.
func Bound(run *model.Run) *model.Run {
	if run == nil {
		return nil
	}
	b := *run
	b.CorpusRoot = limit.Cap(run.CorpusRoot, limit.PathBytes)
	b.ToolVersion = limit.Cap(run.ToolVersion, limit.NameBytes)
	b.CommandSchema.Source = limit.Cap(run.CommandSchema.Source, limit.PathBytes)
	b.FixtureSchema.Source = limit.Cap(run.FixtureSchema.Source, limit.PathBytes)
	b.Results = make([]model.Result, len(run.Results))
	for i := range run.Results {
		b.Results[i] = boundResult(run.Results[i])
	}
	b.Findings = make([]model.Finding, len(run.Findings))
	for i, f := range run.Findings {
		f.Path = limit.Cap(f.Path, limit.PathBytes)
		f.Message = limit.Cap(f.Message, limit.MessageBytes)
		b.Findings[i] = f
	}
	b.Summary.FailingPaths = capAll(run.Summary.FailingPaths, limit.PathBytes)
	b.Summary.ByClass = append([]model.ClassCount(nil), run.Summary.ByClass...)
	b.Comparison = boundComparison(run.Comparison)
	if run.Implementations != nil {
		b.Implementations = make([]model.Implementation, len(run.Implementations))
		for i, im := range run.Implementations {
			b.Implementations[i] = BoundImplementation(im)
		}
	}
	return &b
}

// BoundImplementation caps what an implementation of the runtime harness
// said and answered, like a fixture's values: its words are as untrusted.
func BoundImplementation(im model.Implementation) model.Implementation {
	im.Command = limit.Cap(im.Command, limit.PathBytes)
	im.Name = limit.Cap(im.Name, limit.NameBytes)
	im.Version = limit.Cap(im.Version, limit.NameBytes)
	im.DRP2Versions = capAll(im.DRP2Versions, limit.NameBytes)
	im.Error = limit.Cap(im.Error, limit.MessageBytes)
	results := make([]model.Result, len(im.Results))
	for i := range im.Results {
		results[i] = boundResult(im.Results[i])
	}
	im.Results = results
	return im
}

func boundResult(r model.Result) model.Result {
	r.Path = limit.Cap(r.Path, limit.PathBytes)
	r.RelPath = limit.Cap(r.RelPath, limit.PathBytes)
	r.Folder = limit.Cap(r.Folder, limit.PathBytes)
	r.Name = limit.Cap(r.Name, limit.NameBytes)
	r.Tags = capAll(r.Tags, limit.NameBytes)
	r.Description = limit.Cap(r.Description, limit.ProseBytes)
	r.Reason = limit.Cap(r.Reason, limit.ProseBytes)
	r.Fix = limit.Cap(r.Fix, limit.ProseBytes)
	r.Expected.Outcome = limit.Cap(r.Expected.Outcome, limit.NameBytes)
	r.Expected.Phase = limit.Cap(r.Expected.Phase, limit.NameBytes)
	r.Expected.Code = limit.Cap(r.Expected.Code, limit.NameBytes)
	r.Actual.Code = limit.Cap(r.Actual.Code, limit.NameBytes)
	r.Actual.Message = limit.Cap(r.Actual.Message, limit.MessageBytes)
	r.Actual.Rule = limit.Cap(r.Actual.Rule, limit.MessageBytes)
	if r.Span != nil {
		s := *r.Span
		r.Span = &s
	}
	if r.Diagnostics != nil {
		ds := make([]model.Diagnostic, len(r.Diagnostics))
		for i, d := range r.Diagnostics {
			ds[i] = model.Diagnostic{
				Source:  limit.Cap(d.Source, limit.NameBytes),
				Message: limit.Cap(d.Message, limit.MessageBytes),
			}
		}
		r.Diagnostics = ds
	}
	return r
}

func capAll(ss []string, max int) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = limit.Cap(s, max)
	}
	return out
}
