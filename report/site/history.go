package site

import (
	"sort"

	"github.com/drp2/drp2-fixtures/model"
)

// Verdicts of one fixture in one report, as the gate told them.
const (
	vPass           = "pass"
	vFail           = "fail"
	vKnown          = "known failure"
	vUnexpectedPass = "unexpected pass"
	vFlakyPassed    = "flaky, passed"
	vFlakyFailed    = "flaky, failed"
	vSkipped        = "skipped"
	vNoVerdict      = "no verdict"
	vNotClaimed     = "not claimed"
	vCorpusError    = "corpus error"
)

func verdictOf(r *model.Result) string {
	switch r.Kind() {
	case model.KindSkipped:
		return vSkipped
	case model.KindCorpusError:
		return vCorpusError
	case model.KindNotClaimed:
		return vNotClaimed
	case model.KindFlaky:
		if r.Passed {
			return vFlakyPassed
		}
		return vFlakyFailed
	case model.KindUnexpectedPass:
		return vUnexpectedPass
	case model.KindPassed:
		return vPass
	case model.KindKnownFailure:
		return vKnown
	case model.KindHarnessError:
		return vNoVerdict
	}
	return vFail
}

// passed says whether a verdict passed (1), failed (-1) or is neither
// (0: skipped, not claimed, no verdict, a corpus error): only a pass and a
// failure make a transition.
func passed(v string) int {
	switch v {
	case vPass, vUnexpectedPass, vFlakyPassed:
		return 1
	case vFail, vKnown, vFlakyFailed:
		return -1
	}
	return 0
}

// listingText is the expectations entry that covers a result, in words:
// its reason and place ("" when none covers it).
func listingText(r *model.Result) string {
	reason, where := r.KnownFailure, ""
	if r.Listing != nil {
		where = r.Listing.Entry
		if r.Listing.Reason != "" {
			reason = r.Listing.Reason
		}
	}
	switch {
	case reason != "" && where != "":
		return reason + " (" + where + ")"
	case where != "":
		return where
	}
	return reason
}

// transition is a change of a fixture's verdict between two reports of a
// series that both passed or failed it.
type transition struct {
	// at is the entry of the new verdict; from the entry before.
	at, from int
	// fixed: it passes now; it failed before (else a regression).
	fixed bool
	// flip: at the same implementation version and fixture digest, so
	// not a fix or a regression of either.
	flip bool
	// changed: the fixture's commands or expectation changed between the
	// two.
	changed bool
}

// kind is the transition in a word: a fix or a regression; at the same
// version and digest it is one flip of a flaky fixture, or a fix or a
// regression of something else.
func (t transition) kind() string {
	if t.fixed {
		return "fix"
	}
	return "regression"
}

// latestMark is the fixture p in the latest report of se that ran it.
func latestMark(se *series, p string) *mark {
	for i := len(se.entries) - 1; i >= 0; i-- {
		for j := range se.entries[i].marks {
			if m := &se.entries[i].marks[j]; m.path == p {
				return m
			}
		}
	}
	return &mark{}
}

// fixtureHistory is one fixture in one series.
type fixtureHistory struct {
	// starts are the entries where a history of the fixture starts: the
	// first report that ran it, and each whose digest of the fixture
	// differs from the report before that ran it.
	starts      []int
	transitions []transition
	// flips is the most flips at one version and digest; flipVersion
	// that version.
	flips       int
	flipVersion string
	// firstPass is the entry where the current history first passed (-1
	// when it never did).
	firstPass int
}

// since is the entry where the fixture's current history starts.
func (f *fixtureHistory) since() int { return f.starts[len(f.starts)-1] }

// flakyFlips is how many flips back and forth at one version and digest
// make a fixture flaky: one change, even at the same version, is a fix or
// a regression of something else (a driver, the machine).
const flakyFlips = 2

// history is one series' verdicts, fixture by fixture: one per entry,
// oldest first ("" where the report did not run the fixture), and what
// they make of each fixture.
type history struct {
	verdicts map[string][]string
	// flips are the fixtures' most flips at one version and digest.
	flips    map[string]int
	fixtures map[string]*fixtureHistory
	paths    []string
}

func historyOf(se *series) *history {
	h := &history{verdicts: map[string][]string{}, flips: map[string]int{}, fixtures: map[string]*fixtureHistory{}}
	digests := map[string][]string{}
	for i, e := range se.entries {
		for j := range e.marks {
			m := &e.marks[j]
			v := h.verdicts[m.path]
			if v == nil {
				v = make([]string, len(se.entries))
				h.verdicts[m.path] = v
				digests[m.path] = make([]string, len(se.entries))
				h.paths = append(h.paths, m.path)
			}
			v[i], digests[m.path][i] = m.verdict, m.digest
		}
	}
	sort.Strings(h.paths)
	for _, p := range h.paths {
		f := fixtureOf(se, h.verdicts[p], digests[p])
		h.fixtures[p] = f
		if f.flips > 0 {
			h.flips[p] = f.flips
		}
	}
	return h
}

// fixtureOf reads one fixture's verdicts and digests, one per entry.
func fixtureOf(se *series, verdicts, digests []string) *fixtureHistory {
	f := &fixtureHistory{firstPass: -1}
	last, lastJudged := -1, -1
	runFlips := 0
	for i, v := range verdicts {
		if v == "" {
			continue
		}
		if last < 0 || digests[i] != digests[last] {
			f.starts = append(f.starts, i)
			f.firstPass = -1
		}
		if f.firstPass < 0 && passed(v) > 0 {
			f.firstPass = i
		}
		last = i
		if passed(v) == 0 {
			continue
		}
		if lastJudged >= 0 && passed(v) != passed(verdicts[lastJudged]) {
			t := transition{at: i, from: lastJudged, fixed: passed(v) > 0, changed: digests[i] != digests[lastJudged]}
			t.flip = !t.changed && se.entries[i].im.Version == se.entries[lastJudged].im.Version
			f.transitions = append(f.transitions, t)
		}
		lastJudged = i
	}
	// Flips are counted over runs of transitions at one version and
	// digest: a fix between two flaky runs ends the count.
	for k, t := range f.transitions {
		if !t.flip {
			runFlips = 0
			continue
		}
		if prev := k - 1; prev >= 0 && f.transitions[prev].flip &&
			(se.entries[f.transitions[prev].at].im.Version != se.entries[t.at].im.Version || digests[f.transitions[prev].at] != digests[t.at]) {
			runFlips = 0
		}
		runFlips++
		if runFlips > f.flips {
			f.flips, f.flipVersion = runFlips, se.entries[t.at].im.Version
		}
	}
	return f
}

// flaky are the fixtures that flipped back and forth at one version and
// digest, most flips first.
func (h *history) flaky() []string {
	var out []string
	for _, p := range h.paths {
		if h.flips[p] >= flakyFlips {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return h.flips[out[a]] > h.flips[out[b]] })
	return out
}

// fixtureIndex is every fixture path any series ran, in path order.
func fixturesOf(all []*series) []string {
	seen := map[string]bool{}
	var out []string
	for _, se := range all {
		for _, e := range se.entries {
			for j := range e.marks {
				if p := e.marks[j].path; !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// diff is the difference between a series' last two reports.
type diff struct {
	base, head *entry
	c          *model.Comparison
}

func difference(se *series, compare func(base, head *model.Run, name string) *model.Comparison) *diff {
	n := len(se.entries)
	if compare == nil || n < 2 {
		return nil
	}
	base, head := se.entries[n-2], se.entries[n-1]
	asRun := func(e *entry) *model.Run {
		return &model.Run{Results: e.im.Results, CommandSchema: e.commandSchema, FixtureSchema: e.fixtureSchema}
	}
	return &diff{base: base, head: head, c: compare(asRun(base), asRun(head), base.source)}
}

// sameTimeNotes say which reports of one series share a start time.
func sameTimeNotes(all []*series) []string {
	var notes []string
	for _, se := range all {
		for i := 1; i < len(se.entries); i++ {
			a, b := se.entries[i-1], se.entries[i]
			if a.started.Equal(b.started) {
				notes = append(notes, se.name+": "+a.source+" and "+b.source+" have the same start, "+stamp(a.started)+"; ordered by file name")
			}
		}
	}
	return notes
}
