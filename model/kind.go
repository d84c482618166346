package model

// Kind is what one result counts as in the verdict: the one classification
// of results that every sink maps to what it shows (report/explain.Shown),
// so that no sink judges a result again.
type Kind int

const (
	// KindPassed: the fixture met its expectation.
	KindPassed Kind = iota
	// KindFailed: a mismatch, which fails the run under fail-on mismatch.
	KindFailed
	// KindKnownFailure: a mismatch a known-failures entry excuses; it is
	// reported and fails nothing.
	KindKnownFailure
	// KindCorpusError: the fixture itself could not be used; never
	// excused.
	KindCorpusError
	// KindNotClaimed: an implementation's result in a phase it does not
	// perform; neither passed nor failed.
	KindNotClaimed
	// KindHarnessError: an implementation gave no usable verdict.
	KindHarnessError
	// KindFlaky: listed flaky, or passed on a retry after failing; it
	// fails nothing unless fail-on flaky.
	KindFlaky
	// KindUnexpectedPass: expected to fail, and passed: the entry is
	// stale; it fails nothing unless fail-on unexpected-pass.
	KindUnexpectedPass
	// KindSkipped: an expectations entry kept it from the implementation.
	KindSkipped
)

// Kind is the result's kind.
// A corpus error is never excused; an expectations entry excuses any
// other failure, a result without a verdict included (a runtime's known
// crash is a known failure).
func (r *Result) Kind() Kind {
	switch {
	case r.Actual.Outcome == Skipped:
		return KindSkipped
	case r.IsCorpusError():
		return KindCorpusError
	case r.Actual.Outcome == NotClaimed:
		return KindNotClaimed
	case r.Listed() == ExpectFlaky || (r.Passed && r.Retried()):
		return KindFlaky
	case r.Passed && r.Listed() == ExpectFail:
		return KindUnexpectedPass
	case r.Passed:
		return KindPassed
	case r.KnownFailure != "" || r.Listed() == ExpectFail:
		return KindKnownFailure
	case r.Actual.Outcome == HarnessError:
		return KindHarnessError
	}
	return KindFailed
}

// NewFailures is the one regression rule, of fail-on regressions, diff and
// every report alike: the corpus paths of the fixtures that fail now and
// did not on the base, each with how (Regressed: it passed there;
// AddedFailing: it was not there). A known failure is never new, and a
// fixture added failing counts: renaming a passing fixture while breaking
// it would otherwise slip through as "removed" and "added".
func NewFailures(run *Run) map[string]Transition {
	out := map[string]Transition{}
	c := run.Comparison
	if c == nil {
		return out
	}
	known := map[string]bool{}
	for i := range run.Results {
		if k := run.Results[i].Kind(); k == KindKnownFailure || k == KindFlaky {
			known[run.Results[i].RelPath] = true
		}
	}
	for _, ch := range c.Changes {
		if (ch.Transition == Regressed || ch.Transition == AddedFailing) && !known[ch.RelPath] {
			out[ch.RelPath] = ch.Transition
		}
	}
	return out
}
