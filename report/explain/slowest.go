package explain

import (
	"fmt"
	"sort"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// SlowestShown is how many of its slowest fixtures the reports list for
// the built-in validator and for each implementation.
const SlowestShown = 10

// Slow is what ran a run's fixtures (the built-in validator, or an
// implementation) and its slowest fixtures, slowest first.
type Slow struct {
	Who     string
	Total   time.Duration
	Results []*model.Result
}

// Slowest is the n slowest fixtures of the built-in validator and of each
// implementation, slowest first (ties by path), leaving out what took no
// time: a run under SOURCE_DATE_EPOCH, whose clock stands still, has none,
// and its reports stay the same from run to run.
func Slowest(run *model.Run, n int) []Slow {
	var out []Slow
	add := func(who string, total time.Duration, results []model.Result) {
		var timed []*model.Result
		for i := range results {
			if results[i].Duration > 0 {
				timed = append(timed, &results[i])
			}
		}
		if len(timed) == 0 {
			return
		}
		sort.SliceStable(timed, func(i, j int) bool {
			if timed[i].Duration != timed[j].Duration {
				return timed[i].Duration > timed[j].Duration
			}
			return timed[i].RelPath < timed[j].RelPath
		})
		out = append(out, Slow{Who: who, Total: total, Results: timed[:min(n, len(timed))]})
	}
	add(model.Validator+" (the built-in validator)", run.Duration, run.Results)
	for i := range run.Implementations {
		im := &run.Implementations[i]
		add(im.Label(), im.Duration, im.Results)
	}
	return out
}

// InAll is what the heading of a table of slowest fixtures says after
// who ran them: ", 1.2 s in all", or nothing when the total is unknown.
func InAll(total time.Duration) string {
	if total <= 0 {
		return ""
	}
	return ", " + Took(total) + " in all"
}

// Took is a duration as the slowest fixtures' tables give it: in
// milliseconds, to the tenth below ten seconds.
func Took(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}
