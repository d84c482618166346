package site

import (
	"sort"

	"github.com/drp2/drp2-fixtures/model"
)

// Verdicts of one fixture in one report, as the site shows them.
const (
	vPass        = "pass"
	vFail        = "fail"
	vNoVerdict   = "no verdict"
	vNotClaimed  = "not claimed"
	vCorpusError = "corpus error"
)

func verdictOf(r *model.Result) string {
	switch {
	case r.Actual.Outcome == model.NotClaimed:
		return vNotClaimed
	case r.Actual.Outcome == model.HarnessError:
		return vNoVerdict
	case r.IsCorpusError():
		return vCorpusError
	case r.Passed:
		return vPass
	}
	return vFail
}

// history is one series' verdicts, fixture by fixture: one per entry,
// oldest first ("" where the report did not run the fixture), and how
// often the verdict flipped between two reports that both ran it.
type history struct {
	verdicts map[string][]string
	flips    map[string]int
	paths    []string
}

func historyOf(se *series) *history {
	h := &history{verdicts: map[string][]string{}, flips: map[string]int{}}
	for i, e := range se.entries {
		for j := range e.im.Results {
			r := &e.im.Results[j]
			v := h.verdicts[r.RelPath]
			if v == nil {
				v = make([]string, len(se.entries))
				h.verdicts[r.RelPath] = v
				h.paths = append(h.paths, r.RelPath)
			}
			v[i] = verdictOf(r)
		}
	}
	sort.Strings(h.paths)
	for _, p := range h.paths {
		prev := ""
		for _, v := range h.verdicts[p] {
			if v == "" {
				continue
			}
			if prev != "" && v != prev {
				h.flips[p]++
			}
			prev = v
		}
	}
	return h
}

// flaky are the fixtures whose verdict flipped, most flips first.
func (h *history) flaky() []string {
	var out []string
	for _, p := range h.paths {
		if h.flips[p] > 0 {
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
			for j := range e.im.Results {
				if p := e.im.Results[j].RelPath; !seen[p] {
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
