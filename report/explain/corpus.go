package explain

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
)

// CorpusFound says which rule of the discovery chose a corpus, as a
// phrase: "the upstream layout". A search cut short at its bound never
// calls its one find the only corpus: there may be others it did not
// reach.
func CorpusFound(s *model.CorpusSearch) string {
	if s == nil {
		return ""
	}
	rule := corpusRule(s)
	switch {
	case s.Base != "" && s.HeadFound != "":
		return rule + ", at the pull request's base commit " + s.Base + " (the pull request's checkout alone would give " + s.HeadFound + ")"
	case s.Base != "":
		return rule + ", at the pull request's base commit " + s.Base
	}
	return rule
}

func corpusRule(s *model.CorpusSearch) string {
	switch s.By {
	case model.CorpusOfPath:
		return "the corpus holding the first path given"
	case model.CorpusUpstream:
		return "the upstream layout"
	case model.CorpusConventional:
		return "./fixtures"
	case model.CorpusSearched:
		if s.Truncated {
			return "the one corpus found before the search stopped at its bound (there may be others)"
		}
		return "the only corpus in the workspace"
	}
	return "no corpus in the workspace"
}

// CorpusHeadline is the headline's note on a corpus the search chose,
// so that a reviewer sees which corpus turned the gate green or red, and
// whether the pull request could have chosen it: "corpus fixtures found
// by search at base 1a2b3c4". Empty when the corpus was named, given by a
// path, or none was found (the headline says the embedded one ran).
func CorpusHeadline(root string, s *model.CorpusSearch) string {
	if s == nil || s.By == model.CorpusOfPath || s.By == model.CorpusNone {
		return ""
	}
	text := "corpus " + root + " found by search"
	switch {
	case s.Base != "":
		text += " at base " + s.Base
		if s.HeadFound != "" {
			text += " (this checkout alone would give " + s.HeadFound + ")"
		}
	case s.Truncated:
		text += " (the search stopped at its bound: there may be others)"
	}
	return text
}

// CorpusNote says, after the corpus a run shows, how it was found when
// none was named: "found by search: ./fixtures", or that none was and the
// embedded corpus ran; "" when the corpus was named.
func CorpusNote(s *model.CorpusSearch) string {
	switch {
	case s == nil:
		return ""
	case s.By == model.CorpusNone:
		return "none found by search in the working directory"
	}
	return "found by search: " + CorpusFound(s)
}

// EmbeddedFallback is the command line's note when it ran the embedded
// corpus because the working directory holds none; "" when it did not.
func EmbeddedFallback(run *model.Run) string {
	if run == nil || run.CorpusSearch == nil || run.CorpusSearch.By != model.CorpusNone {
		return ""
	}
	return "no DRP2 corpus in the working directory (spec/drp2/fixtures, ./fixtures, or a folder holding positive/, negative/ and negative_schema/): ran the corpus embedded in drp2-fixtures; --corpus DIR runs another"
}

// Shard says which part of the selection a sharded run ran, for the
// evidence of every report: "2/4 (the fixtures whose path hashes to it;
// merge all 4 reports for the whole run)"; "" for a run of all of it.
func Shard(sh *model.Shard) string {
	if sh == nil {
		return ""
	}
	if sh.Timings != "" {
		return fmt.Sprintf("%d/%d (balanced by the timings report sha256 %.12s; merge the reports of all %d for the whole run)", sh.Index, sh.Count, sh.Timings, sh.Count)
	}
	return fmt.Sprintf("%d/%d (the fixtures whose path hashes to it; merge the reports of all %d for the whole run)", sh.Index, sh.Count, sh.Count)
}

// Rerun says what a re-run of what failed sent the implementations again
// and carried over, naming the earlier report as from, which the caller
// writes as its format quotes a path: "Re-run: 10 fixtures run, 4990
// carried over from out/first.json", or in a workflow's re-run attempt
// (attempt above 1) "Re-run attempt 2: 10 fixtures run, 4990 carried over
// from attempt 1 (prev/drp2.json)"; "" for a run of everything.
func Rerun(r *model.Rerun, from string, attempt int) string {
	switch {
	case r == nil:
		return ""
	case attempt > 1:
		return fmt.Sprintf("Re-run attempt %d: %s run, %d carried over from attempt %d (%s)", attempt, Count(r.Ran, "fixture", "fixtures"), r.Carried, attempt-1, from)
	}
	return fmt.Sprintf("Re-run: %s run, %d carried over from %s", Count(r.Ran, "fixture", "fixtures"), r.Carried, from)
}
