package explain

import (
	"fmt"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// maxRemovedNamed bounds the removed fixtures a headline names; the
// tables and the JSON report list them all.
const maxRemovedNamed = 3

// maxHeadlinePath bounds one path a headline names.
const maxHeadlinePath = 200

// removedVerdicts are the base's verdicts on a removed fixture, in the
// order the headline names them: a fixture that failed on the base and is
// gone now is the likeliest to be hidden rather than fixed.
var removedVerdicts = []struct{ one, many string }{
	{"failed on the base", "failed on the base"},
	{"known failure on the base", "known failures on the base"},
	{"passed on the base", "passed on the base"},
}

// removedVerdict is the index in removedVerdicts of a removed fixture's
// verdict on the base.
func removedVerdict(s *model.Side) int {
	switch {
	case s == nil || s.Passed:
		return 2
	case s.KnownFailure:
		return 1
	}
	return 0
}

// removedNames says which fixtures a change removed and how the base
// judged each, the failures first and the first few by name: "failed on
// the base: positive/draw.json", "2 failed on the base: a.json, b.json; 398
// passed on the base: c.json and 397 more". Plain text; each sink escapes
// it.
func removedNames(changes []model.Change) string {
	groups := make([][]string, len(removedVerdicts))
	for i := range changes {
		if ch := &changes[i]; ch.Transition == model.Removed {
			v := removedVerdict(ch.Base)
			groups[v] = append(groups[v], ch.RelPath)
		}
	}
	alone := 0
	for _, g := range groups {
		if len(g) > 0 {
			alone++
		}
	}
	var parts []string
	left := maxRemovedNamed
	for v, g := range groups {
		if len(g) == 0 {
			continue
		}
		words := removedVerdicts[v].one
		if alone > 1 {
			words = fmt.Sprintf("%d %s", len(g), Plural(len(g), removedVerdicts[v].one, removedVerdicts[v].many))
		}
		if n := min(len(g), left); n > 0 {
			names := make([]string, n)
			for i := range names {
				names[i] = escape.Clip(oneLine(g[i]), maxHeadlinePath)
			}
			words += ": " + strings.Join(names, ", ")
			if len(g) > n {
				words += fmt.Sprintf(" and %d more", len(g)-n)
			}
			left -= n
		}
		parts = append(parts, words)
	}
	return strings.Join(parts, "; ")
}

// RemovedFailing counts the fixtures the change removed that failed on
// the base, no entry excusing them.
func RemovedFailing(c *model.Comparison) int {
	n := 0
	for i := range c.Changes {
		if ch := &c.Changes[i]; ch.Transition == model.Removed && removedVerdict(ch.Base) == 0 {
			n++
		}
	}
	return n
}

// FailedOnBaseFirst orders groups of removed fixtures (ChangeGroups) as
// the headline names them: those that failed on the base first, then the
// known failures, then those that passed, each kind largest first.
func FailedOnBaseFirst(groups [][]*model.Change) {
	sort.SliceStable(groups, func(i, j int) bool {
		return removedVerdict(groups[i][0].Base) < removedVerdict(groups[j][0].Base)
	})
}
