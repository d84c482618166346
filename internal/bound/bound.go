// Package bound decides, once for every sink, what of a run is shown in
// full: each value that a fixture or a file name can make arbitrarily long
// is capped at the limits of report/escape, and the failures after the
// first escape.FullFailures keep their verdicts and lose their detail.
// The gate bounds every run, implementation and comparison before any
// renderer sees it, and records that it did (model.Run.Bounds); the
// renderers render what they are given. It is a leaf beside the model, so
// that the use cases and the renderers' tests bound a run the one way.
package bound

import (
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Run returns a copy of run in which every value that a fixture or a file
// name can make arbitrarily long is capped with escape.Cap, so that every
// sink echoes at most the named limits of report/escape, and the failures
// after the first escape.FullFailures have their detail left out. Run
// itself is not changed. Strings within their caps are shared, not copied.
func Run(run *model.Run) *model.Run { return RunTo(run, escape.FullFailures) }

// RunTo is Run giving at most full failures in full. Failures already
// without their detail (a report read back) stay so and do not count.
// Bound once: a capped value carries a note past its cap, which a second
// capping would cut again.
func RunTo(run *model.Run, full int) *model.Run {
	if run == nil {
		return nil
	}
	b := *run
	b.CorpusRoot = escape.Cap(run.CorpusRoot, escape.PathBytes)
	b.ToolVersion = escape.Cap(run.ToolVersion, escape.NameBytes)
	b.CommandSchema.Source = escape.Cap(run.CommandSchema.Source, escape.PathBytes)
	b.FixtureSchema.Source = escape.Cap(run.FixtureSchema.Source, escape.PathBytes)
	b.Results = make([]model.Result, len(run.Results))
	for i := range run.Results {
		b.Results[i] = boundResult(run.Results[i])
	}
	b.Bounds = model.Bounds{Full: full, LeftOut: leaveOutDetail(b.Results, full)}
	b.Findings = make([]model.Finding, len(run.Findings))
	for i, f := range run.Findings {
		f.Path = escape.Cap(f.Path, escape.PathBytes)
		f.Message = escape.Cap(f.Message, escape.MessageBytes)
		b.Findings[i] = f
	}
	b.Summary.FailingPaths = capAll(run.Summary.FailingPaths, escape.PathBytes)
	b.Summary.ByClass = append([]model.ClassCount(nil), run.Summary.ByClass...)
	b.Comparison = boundComparison(run.Comparison)
	if run.Implementations != nil {
		b.Implementations = make([]model.Implementation, len(run.Implementations))
		for i, im := range run.Implementations {
			b.Implementations[i] = boundImplementation(im)
			leaveOutDetail(b.Implementations[i].Results, full)
		}
	}
	return &b
}

// boundImplementation caps what an implementation of the runtime harness
// said and answered, like a fixture's values: its words are as untrusted.
func boundImplementation(im model.Implementation) model.Implementation {
	im.Command = escape.Cap(im.Command, escape.PathBytes)
	im.Name = escape.Cap(im.Name, escape.NameBytes)
	im.Version = escape.Cap(im.Version, escape.NameBytes)
	im.DRP2Versions = capAll(im.DRP2Versions, escape.NameBytes)
	im.Error = escape.Cap(im.Error, escape.MessageBytes)
	results := make([]model.Result, len(im.Results))
	for i := range im.Results {
		results[i] = boundResult(im.Results[i])
	}
	im.Results = results
	return im
}

func boundResult(r model.Result) model.Result {
	r.Path = escape.Cap(r.Path, escape.PathBytes)
	r.RelPath = escape.Cap(r.RelPath, escape.PathBytes)
	r.Folder = escape.Cap(r.Folder, escape.PathBytes)
	r.Name = escape.Cap(r.Name, escape.NameBytes)
	r.Tags = capAll(r.Tags, escape.NameBytes)
	r.Description = escape.Cap(r.Description, escape.ProseBytes)
	r.Reason = escape.Cap(r.Reason, escape.ProseBytes)
	r.Fix = escape.Cap(r.Fix, escape.ProseBytes)
	r.Expected.Outcome = escape.Cap(r.Expected.Outcome, escape.NameBytes)
	r.Expected.Phase = escape.Cap(r.Expected.Phase, escape.NameBytes)
	r.Expected.Code = escape.Cap(r.Expected.Code, escape.NameBytes)
	r.Actual.Code = escape.Cap(r.Actual.Code, escape.NameBytes)
	r.Actual.Message = escape.Cap(r.Actual.Message, escape.MessageBytes)
	r.Actual.Rule = escape.Cap(r.Actual.Rule, escape.MessageBytes)
	if r.Span != nil {
		s := *r.Span
		r.Span = &s
	}
	r.KnownFailure = escape.Cap(r.KnownFailure, escape.MessageBytes)
	if r.Listing != nil {
		l := *r.Listing
		l.Reason, l.Entry = escape.Cap(l.Reason, escape.MessageBytes), escape.Cap(l.Entry, escape.PathBytes)
		r.Listing = &l
	}
	if r.Attempts != nil {
		as := make([]model.Actual, len(r.Attempts))
		for i, a := range r.Attempts {
			a.Code, a.Message = escape.Cap(a.Code, escape.NameBytes), escape.Cap(a.Message, escape.MessageBytes)
			as[i] = a
		}
		r.Attempts = as
	}
	if r.Diagnostics != nil {
		ds := make([]model.Diagnostic, len(r.Diagnostics))
		for i, d := range r.Diagnostics {
			ds[i] = model.Diagnostic{
				Source:  escape.Cap(d.Source, escape.NameBytes),
				Message: escape.Cap(d.Message, escape.MessageBytes),
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
		out[i] = escape.Cap(s, max)
	}
	return out
}

// leaveOutDetail keeps the first full failures in full, unusable fixtures
// first (a broken file is the likeliest cause of the rest, and its message
// is all a reader has of it), then the others in order, and leaves the
// detail of the rest out. The results are the caller's copies. It returns
// how many results are without their detail, those that came so too.
func leaveOutDetail(results []model.Result, full int) int {
	kept := 0
	for _, corpus := range []bool{true, false} {
		for i := range results {
			r := &results[i]
			if r.Passed || r.IsCorpusError() != corpus || r.DetailLeftOut {
				continue
			}
			if kept < full {
				kept++
				continue
			}
			leaveOut(r)
		}
	}
	left := 0
	for i := range results {
		if results[i].DetailLeftOut {
			left++
		}
	}
	return left
}

// leaveOut strips a failure down to its verdict: what a baseline compares
// and what the counts are made of stays, its words and places go.
func leaveOut(r *model.Result) {
	r.DetailLeftOut = true
	r.Description, r.Reason, r.Fix = "", "", ""
	r.Actual.Message, r.Actual.Rule = "", ""
	r.Span, r.Diagnostics, r.Findings, r.Tags = nil, nil, nil, nil
}
