package jsonout

import (
	"io"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// The report as it was written before it was streamed: the Document built
// whole and encoded whole. It is the oracle the streamed report is held
// to, byte for byte (TestStreamMatchesDocument).

// writeDocumentWhole is Write as it was.
func writeDocumentWhole(w io.Writer, run *model.Run) error {
	return encode(w, documentOf(run))
}

// documentOf is the document as the report was written before it was
// streamed: built whole, then encoded whole (writeDocumentWhole).
func documentOf(run *model.Run) Document {
	s := run.Summary
	doc := Document{
		ReportVersion: ReportVersion,
		Summary: Summary{
			Discovered: s.Discovered, Run: s.Run, Passed: s.Passed, Failed: s.Failed,
			CorpusErrors: s.CorpusErrors, Findings: s.Findings,
			ByClass: []ClassCount{}, FailingPaths: append([]string{}, s.FailingPaths...),
			Corpus: run.CorpusRoot, CommandSchema: toSchema(run.CommandSchema), FixtureSchema: toSchema(run.FixtureSchema),
			ToolVersion: run.ToolVersion, KnownFailures: s.KnownFailures, DetailLeftOut: run.Bounds.LeftOut,
			ExpectationCounts: expectationCounts(&s),
			Started:           started(run.Started), Commit: run.Commit, Repository: run.Repository, DurationMS: millis(run.Duration), CorpusSHA256: run.CorpusDigest, Shard: toShard(run.Shard),
			Interrupted: (*Interruption)(run.Interrupted), Rerun: (*Rerun)(run.Rerun),
		},
		Results: make([]Result, 0, len(run.Results)),
		// Never null: a run without findings has "findings": [].
		Findings: make([]Finding, 0, len(run.Findings)),
	}
	for _, f := range run.Findings {
		doc.Findings = append(doc.Findings, Finding(f))
	}
	for _, c := range s.ByClass {
		doc.Summary.ByClass = append(doc.Summary.ByClass, ClassCount{Class: c.Class.String(), Run: c.Run, Passed: c.Passed, Failed: c.Failed})
	}
	for i := range run.Results {
		doc.Results = append(doc.Results, result(&run.Results[i]))
	}
	doc.Implementations = wholeImplementations(run)
	if len(run.Implementations) > 0 {
		doc.FixtureReadbacks = run.FixtureReadbacks
		doc.Level3Preview = parityRows(model.Parity(run))
	}
	doc.Comparison = buildComparison(run.Comparison)
	doc.Manifest, doc.Coverage = buildManifest(run.Manifest), buildCoverage(run.Coverage)
	if j := run.Judgement; j != nil {
		w := explain.Judgement(run)
		doc.Verdict = &Verdict{Failed: j.Failed, Conclusion: explain.Conclusion(j), Headline: w.Headline, Reasons: w.Reasons}
	}
	return doc
}

// result is one fixture's record.
func result(r *model.Result) Result {
	return Result{
		FixturePath:          r.Path,
		FixtureName:          r.Name,
		ActualOutcome:        string(r.Actual.Outcome),
		ActualPhase:          optional(string(r.Actual.Phase)),
		ActualCode:           optional(r.Actual.Code),
		ActualCommandIndex:   r.Actual.CommandIndex,
		Passed:               r.Passed,
		Message:              optional(r.Actual.Message),
		ExpectedOutcome:      optional(r.Expected.Outcome),
		ExpectedPhase:        optional(r.Expected.Phase),
		ExpectedCode:         optional(r.Expected.Code),
		ExpectedCommandIndex: expectedIndex(r.Expected),
		Class:                r.Class.String(),
		CorpusPath:           r.RelPath,
		CorpusError:          r.IsCorpusError(),
		Location:             (*Span)(r.Span),
		Rule:                 optional(r.Actual.Rule),
		Reason:               optional(r.Reason),
		Fix:                  optional(r.Fix),
		Digest:               digest(r.Digest),
		Diagnostics:          convert(r.Diagnostics, toDiagnostic),
		KnownFailure:         optional(r.KnownFailure),
		Expectation:          expectation(r.Listing),
		Attempts:             attempts(r.Attempts),
		DetailLeftOut:        r.DetailLeftOut,
		Carried:              r.Carried,
		DurationMS:           millis(r.Duration),
	}
}

func wholeImplementations(run *model.Run) []Implementation {
	var out []Implementation
	var parity []model.ParityRow
	if len(run.Implementations) > 0 {
		parity = model.Parity(run)
	}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		rec := implementationRecord(im, parity)
		rec.Results = make([]Result, 0, len(im.Results))
		for j := range im.Results {
			rec.Results = append(rec.Results, result(&im.Results[j]))
		}
		out = append(out, rec)
	}
	return out
}
