package explain

import (
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Group is failing fixtures that fail for one cause: the same rule with
// the same wrong result. A validator or spec change that breaks many
// fixtures then reads as one decision.
type Group struct {
	Results []*model.Result
}

// Groups splits failing results into groups by cause, the largest first
// (the one decision that broke most), then in the order their first
// fixture comes. Corpus errors each stand alone: each file is broken in its
// own way.
func Groups(results []*model.Result) []Group {
	out := groups(results)
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Results) > len(out[j].Results) })
	return out
}

func groups(results []*model.Result) []Group {
	var out []Group
	at := map[string]int{}
	for _, r := range results {
		if r.IsCorpusError() {
			out = append(out, Group{Results: []*model.Result{r}})
			continue
		}
		k := causeKey(r)
		if i, ok := at[k]; ok {
			out[i].Results = append(out[i].Results, r)
			continue
		}
		at[k] = len(out)
		out = append(out, Group{Results: []*model.Result{r}})
	}
	return out
}

// causeKey is what fixtures of one group share: expected and actual
// outcome, phase and code, the rule applied and whether the failure is
// known. Command indices and messages may differ.
func causeKey(r *model.Result) string {
	e, a := r.Expected, r.Actual
	known := "0"
	if r.KnownFailure != "" {
		known = "1" + r.KnownFailure
	}
	return strings.Join([]string{e.Outcome, e.Phase, e.Code, string(a.Outcome), string(a.Phase), a.Code, a.Rule, known}, "\x00")
}

// Cause says in one line what a group's fixtures share: the rule, then
// how the result differs ("LIFETIMES.md Destruction rule 2: expected
// DRP2_ERR_INVALID_ID, got DRP2_ERR_INVALID_STATE"). Command indices are
// left out when the fixtures disagree on them.
func (g Group) Cause() string {
	r := *g.Results[0]
	if !sameIndices(g.Results) {
		r.Expected.CommandIndex, r.Actual.CommandIndex = nil, nil
	}
	var d string
	if e, a := r.Expected, r.Actual; !sameIndices(g.Results) && e.Outcome == string(a.Outcome) && e.Phase == string(a.Phase) && e.Code == a.Code {
		// Only the command indices differ, each in its own way.
		d = "got " + actual(a) + " at another command than expected"
	} else {
		d = strings.Join(Differences(&r), ", ")
	}
	if rule := oneLine(r.Actual.Rule); rule != "" {
		return rule + ": " + d
	}
	return d
}

func sameIndices(rs []*model.Result) bool {
	for _, r := range rs[1:] {
		if expectedIndex(r.Expected) != expectedIndex(rs[0].Expected) ||
			index(r.Actual.CommandIndex) != index(rs[0].Actual.CommandIndex) {
			return false
		}
	}
	return true
}

// Paths are the display paths of the group's fixtures.
func (g Group) Paths() []string {
	out := make([]string, len(g.Results))
	for i, r := range g.Results {
		out[i] = DisplayPath(r)
	}
	return out
}
