package expect

import (
	"fmt"
	"sort"

	"github.com/drp2/drp2-fixtures/model"
)

// Expectation is the expectation of the fixture of r for the
// implementation im: ExpectPass when no entry covers it. The harness asks
// it to skip fixtures and to decide which failures to retry.
func (l *List) Expectation(im *model.Implementation, r *model.Result) model.Expectation {
	if e := l.Match(TargetOf(im), r); e != nil {
		return e.Expect
	}
	return model.ExpectPass
}

// Apply marks every result of run with the entry that covers it: the
// run's own, as the built-in validator's, and each implementation's, by
// its name, version and adapter. It adds the malformed lines, the entries
// expired on the day the run started and, when the whole
// corpus ran, every entry that names no fixture of it as findings, and
// recomputes the summaries. A nil list leaves the run as it is (a merged
// report keeps the marks its own job gave it).
func (l *List) Apply(run *model.Run) {
	if l == nil {
		return
	}
	used := map[*Entry]bool{}
	for i := range run.Results {
		r := &run.Results[i]
		for j := range l.Entries {
			if l.Entries[j].covers(r) {
				used[&l.Entries[j]] = true
			}
		}
		e := l.Match(ValidatorTarget, r)
		if e != nil && e.Expect == model.ExpectSkip {
			// The validator is the run itself: it has already run every
			// selected fixture, and a filter, not an entry, leaves one out.
			e = nil
		}
		mark(r, e)
		if e != nil && r.IsCorpusError() && e.Expect != model.ExpectPass {
			run.Findings = append(run.Findings, excusesNothing(e, r))
		}
	}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		t := TargetOf(im)
		for j := range im.Results {
			mark(&im.Results[j], l.Match(t, &im.Results[j]))
		}
		im.Summary = model.Summarize(im.Summary.Discovered, im.Results, nil)
	}
	run.Findings = append(run.Findings, l.Problems...)
	for i := range l.Entries {
		// The run's own start (SOURCE_DATE_EPOCH when set) is the day an
		// entry is judged on, so that a report read again says the same.
		if e := &l.Entries[i]; e.ExpiredOn(run.Started) {
			run.Findings = append(run.Findings, expired(e))
		}
	}
	// A filtered run leaves listed fixtures out on purpose.
	if run.Summary.Run == run.Summary.Discovered {
		var paths map[string]bool
		for i := range l.Entries {
			if e := &l.Entries[i]; !used[e] {
				if paths == nil {
					paths = fixturePaths(run.Results)
				}
				run.Findings = append(run.Findings, unused(e, paths))
			}
		}
	}
	sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
	run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
}

// unused is the finding of an entry that covers no fixture of the
// corpus (paths, fixturePaths): the entry is stale, unless its path ends
// with a fixture's, as a path copied from a report run in another folder
// does, and then the advice is to write that fixture's path.
func unused(e *Entry, paths map[string]bool) model.Finding {
	if e.Known {
		return model.Finding{Kind: model.FindingKnownUnused, Path: e.Path,
			Message: fmt.Sprintf("listed as a known failure (%s) but no fixture has this path; remove it from the list", e.Where())}
	}
	if rel := endingFixture(e.Path, paths); rel != "" {
		return model.Finding{Kind: FindingUnused, Path: e.Path, Message: fmt.Sprintf(
			"expectation %s (%s) names no fixture of the corpus; paths are written relative to the corpus: write %s", e.Expect, e.Where(), rel)}
	}
	return model.Finding{Kind: FindingUnused, Path: e.Path,
		Message: fmt.Sprintf("expectation %s (%s) names no fixture of the corpus; remove it from the list", e.Expect, e.Where())}
}

// fixturePaths are the corpus-relative paths of the fixtures of results
// and of the folders that hold them ("positive/draw/").
func fixturePaths(results []model.Result) map[string]bool {
	out := map[string]bool{}
	for i := range results {
		rel := results[i].RelPath
		out[rel] = true
		for j := range len(rel) {
			if rel[j] == '/' {
				out[rel[:j+1]] = true
			}
		}
	}
	return out
}

// endingFixture is the longest of paths that p ends with after a '/', ""
// when there is none: one look-up for each '/' of p, so that a list of
// many stale entries costs no more than reading it.
func endingFixture(p string, paths map[string]bool) string {
	for i := 0; i < len(p)-1; i++ {
		if p[i] == '/' && paths[p[i+1:]] {
			return p[i+1:]
		}
	}
	return ""
}

// excusesNothing is the finding of an entry that covers a corpus error,
// which no entry excuses: the fixture file itself is unusable, and only
// fixing it makes the run pass.
func excusesNothing(e *Entry, r *model.Result) model.Finding {
	return model.Finding{Kind: model.FindingExcusesCorpusError, Path: r.RelPath, Message: fmt.Sprintf(
		"%s (%s) has no effect: %s is unusable and fails the run until the file is fixed; fix it, or remove the entry",
		describe(e), e.Where(), r.RelPath)}
}

// describe words an entry as its list does.
func describe(e *Entry) string {
	if e.Known {
		return "known failure"
	}
	return "expectation " + e.Expect.String()
}

// mark records the entry e (nil for none) on the result r. A failure
// expected to fail is a known failure whose reason is the entry's, or the
// entry's place when it gives none.
func mark(r *model.Result, e *Entry) {
	r.Listing, r.KnownFailure = nil, ""
	if e == nil {
		return
	}
	r.Listing = &model.Listing{Expect: e.Expect, Reason: e.Reason, Entry: e.Where()}
	// A listed corpus error keeps its listing, to be shown, but is never
	// excused (Apply reports the entry as excusing nothing).
	if k := r.Kind(); e.Expect == model.ExpectFail && !r.Passed && k == model.KindKnownFailure {
		r.KnownFailure = e.Reason
		if r.KnownFailure == "" {
			r.KnownFailure = e.Where()
		}
	}
}
