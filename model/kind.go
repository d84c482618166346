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
)

// Kind is the result's kind.
func (r *Result) Kind() Kind {
	switch {
	case r.Passed:
		return KindPassed
	case r.IsCorpusError():
		return KindCorpusError
	case r.Actual.Outcome == NotClaimed:
		return KindNotClaimed
	case r.Actual.Outcome == HarnessError:
		return KindHarnessError
	case r.KnownFailure != "":
		return KindKnownFailure
	}
	return KindFailed
}

// NewFailures is the one regression rule, of fail-on regressions, diff and
// every report alike: the corpus paths of the fixtures that fail now and
// did not on the base, each with how (Regressed: it passed there;
// AddedFailing: it was not there). A known failure is never new, and a
// fixture added failing counts: renaming a passing fixture while breaking
// it would otherwise slip through as "removed" and "added".
func NewFailures(run *Run) map[string]Verdict {
	out := map[string]Verdict{}
	c := run.Comparison
	if c == nil {
		return out
	}
	known := map[string]bool{}
	for i := range run.Results {
		if r := &run.Results[i]; r.Kind() == KindKnownFailure {
			known[r.RelPath] = true
		}
	}
	for _, ch := range c.Changes {
		if (ch.Verdict == Regressed || ch.Verdict == AddedFailing) && !known[ch.RelPath] {
			out[ch.RelPath] = ch.Verdict
		}
	}
	return out
}
