package runner

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// skewedTimings are n fixtures' durations drawn from a log-normal law
// (median 2 ms, a long tail: the slowest fixtures take a thousand times
// the median), as a runtime that compiles shaders spends them, and a few
// fixtures that time out at 5 s.
func skewedTimings(n int, seed uint64) map[string]time.Duration {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make(map[string]time.Duration, n)
	for i := range n {
		d := time.Duration(2e6 * math.Exp(1.6*rng.NormFloat64()))
		if i%1000 == 999 {
			d = 5 * time.Second
		}
		out[fmt.Sprintf("positive/f%05d.json", i)] = d
	}
	return out
}

// shardTimes sums the durations of each of count shards.
func shardTimes(s func(k int) *model.Shard, durations map[string]time.Duration, count int) []time.Duration {
	sums := make([]time.Duration, count)
	for p, d := range durations {
		for k := 1; k <= count; k++ {
			if InShard(s(k), p) {
				sums[k-1] += d
			}
		}
	}
	return sums
}

func spread(sums []time.Duration) float64 {
	return float64(slices.Max(sums))/float64(slices.Min(sums)) - 1
}

// TestTimedShardsBalance: four shards of 5,000 fixtures with skewed
// durations, placed by an earlier report's timings, take within 15% of
// one another; so do they when 250 fixtures were added since that report
// (placed by path hash, each taking a duration like the others'), in a
// run whose durations differ from the timings' by up to 10% each.
func TestTimedShardsBalance(t *testing.T) {
	const count = 4
	timings := skewedTimings(5000, 7)
	placed := &model.Placement{Parts: PlaceByTimings(timings, count)}
	timed := func(k int) *model.Shard { return &model.Shard{Index: k, Count: count, Placement: placed} }
	hashed := func(k int) *model.Shard { return &model.Shard{Index: k, Count: count} }
	if s := spread(shardTimes(timed, timings, count)); s > 0.15 {
		t.Errorf("timed shards: the slowest takes %.1f%% longer than the fastest: %v", 100*s, shardTimes(timed, timings, count))
	} else {
		t.Logf("timed shards %v: %.2f%% apart; by path hash %v: %.1f%% apart", shardTimes(timed, timings, count), 100*s,
			shardTimes(hashed, timings, count), 100*spread(shardTimes(hashed, timings, count)))
	}
	grown, rng := map[string]time.Duration{}, rand.New(rand.NewPCG(9, 9))
	for _, p := range slices.Sorted(maps.Keys(timings)) {
		grown[p] = time.Duration(float64(timings[p]) * (0.9 + 0.2*rng.Float64()))
	}
	for p, d := range skewedTimings(250, 11) {
		grown["negative/new_"+p[len("positive/"):]] = d
	}
	sums := shardTimes(timed, grown, count)
	if s := spread(sums); s > 0.15 {
		t.Errorf("after 250 new fixtures and durations off by up to 10%%: %.1f%% apart: %v", 100*s, sums)
	} else {
		t.Logf("after 250 new fixtures and durations off by up to 10%%: %v, %.1f%% apart", sums, 100*s)
	}
}

// TestTimedShardsStable: a fixture added to the corpus moves no other;
// removing one moves none either, whatever the selection: the placement
// depends on the timings and the count alone.
func TestTimedShardsStable(t *testing.T) {
	timings := skewedTimings(200, 3)
	placed := &model.Placement{Parts: PlaceByTimings(timings, 3)}
	again := PlaceByTimings(timings, 3)
	for p, k := range placed.Parts {
		if again[p] != k {
			t.Fatalf("%s placed in %d, then %d", p, k, again[p])
		}
	}
	for _, p := range []string{"positive/aaa_new.json", "positive/zzz_new.json"} {
		in := 0
		for k := 1; k <= 3; k++ {
			if InShard(&model.Shard{Index: k, Count: 3, Placement: placed}, p) {
				in = k
			}
		}
		if in != ShardOf(p, 3) {
			t.Errorf("%s, which the timings do not name, is in shard %d, its hash's is %d", p, in, ShardOf(p, 3))
		}
	}
}

// TestTimedShardsWithoutDurations: timings that are all zero (a report made
// under SOURCE_DATE_EPOCH) deal the fixtures out in turn, not all to the
// first shard.
func TestTimedShardsWithoutDurations(t *testing.T) {
	zero := map[string]time.Duration{}
	for i := range 10 {
		zero[fmt.Sprintf("p/%d.json", i)] = 0
	}
	held := map[int]int{}
	for _, k := range PlaceByTimings(zero, 3) {
		held[k]++
	}
	if held[1] != 4 || held[2] != 3 || held[3] != 3 {
		t.Errorf("the shards hold %v fixtures, want 4, 3 and 3", held)
	}
}

// BenchmarkPlaceByTimings places 5,000 fixtures in 4 shards.
func BenchmarkPlaceByTimings(b *testing.B) {
	timings := skewedTimings(5000, 7)
	for b.Loop() {
		PlaceByTimings(timings, 4)
	}
}
