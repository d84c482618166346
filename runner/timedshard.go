package runner

import (
	"sort"
	"time"
)

// PlaceByTimings balances count parts by measured time: the fixtures the
// timings name, longest first (ties by path), each go to the part with
// the least time so far (ties: the one with fewest fixtures, then the
// lowest index), the greedy rule of longest-processing-time scheduling,
// which comes within a third of the best split and, with thousands of
// fixtures, within a fraction of a percent of it. The placement depends on
// the timings and count alone, never on the selection being run, so a
// fixture added since (which the timings do not name) moves no other: it
// goes by the hash of its path (ShardOf), and the fixtures added between
// two timings reports spread evenly across the parts.
func PlaceByTimings(timings map[string]time.Duration, count int) map[string]int {
	paths := make([]string, 0, len(timings))
	for p := range timings {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		a, b := timings[paths[i]], timings[paths[j]]
		if a != b {
			return a > b
		}
		return paths[i] < paths[j]
	})
	load := make([]time.Duration, count)
	held := make([]int, count)
	parts := make(map[string]int, len(paths))
	for _, p := range paths {
		best := 0
		for k := 1; k < count; k++ {
			if load[k] < load[best] || load[k] == load[best] && held[k] < held[best] {
				best = k
			}
		}
		load[best] += timings[p]
		held[best]++
		parts[p] = best + 1
	}
	return parts
}
