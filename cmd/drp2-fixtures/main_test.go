package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/cli"
)

// TestMemoryLimit: the soft limit grows with the fixtures of a run from
// the small-run default and stops at its ceiling, and a large fixture adds
// its size beyond that ceiling, so that a long stream's heap is collected
// at GOGC's pace rather than without end.
func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		fixtures int
		largest  int64
		want     int64
	}{
		{-1, 0, 112 << 20},
		{0, 0, 112 << 20},
		{1, 0, 112<<20 + 8<<10},
		{20000, 0, 112<<20 + 20000*8<<10},
		{50000, 0, 112<<20 + 50000*8<<10},
		{1 << 30, 0, 1 << 30},
		// Fixtures under largeFixture leave it to the base.
		{1, 1 << 20, 112<<20 + 8<<10},
		{1, largeFixture - 1, 112<<20 + 8<<10},
		{1, largeFixture, 112<<20 + 8<<10 + largeFixture},
		// A 10M-command stream: its 934 MB file.
		{1, 933743834, 112<<20 + 8<<10 + 933743834},
		{1 << 30, 2 << 30, 3 << 30},
	} {
		if got := memoryLimit(c.fixtures, c.largest); got != c.want {
			t.Errorf("memoryLimit(%d, %d) = %d MiB, want %d MiB", c.fixtures, c.largest, got>>20, c.want>>20)
		}
	}
}

// TestGCPercent: GOGC is 200 for a run whose results are small, 60 from
// 50,000 fixtures on, and in between the GOGC that leaves heapSlack above
// what the results keep: it never rises with the run, and the slack it
// allows is never more than heapSlack, except where GOGC stands at 60.
func TestGCPercent(t *testing.T) {
	for n, want := range map[int]int{-1: 200, 0: 200, 1: 200, 10000: 200, 12000: 200, 14000: 179, 20000: 133, 30000: 93, 48000: 61, 49000: 60, 50000: 60, 1000000: 60} {
		if got := gcPercent(n); got != want {
			t.Errorf("gcPercent(%d) = %d, want %d", n, got, want)
		}
	}
	last := startGCPercent
	for n := 0; n <= 100000; n += 100 {
		got := gcPercent(n)
		if got > last {
			t.Fatalf("gcPercent(%d) = %d, above %d for fewer fixtures", n, got, last)
		}
		last = got
		slack := int64(got) * (heapBase + resultHeap*int64(n)) / 100
		if got > manyGCPercent && slack > heapSlack {
			t.Fatalf("gcPercent(%d) = %d lets the heap grow %d MiB past its results, more than %d MiB", n, got, slack>>20, heapSlack>>20)
		}
	}
}

// TestHoldsRaisesOnlyTheLimit: the results a merge holds raise the soft
// memory limit as a run's fixtures do, never lower it, and leave GOGC.
func TestHoldsRaisesOnlyTheLimit(t *testing.T) {
	gogc := debug.SetGCPercent(startGCPercent)
	limit := debug.SetMemoryLimit(softMemoryLimit)
	t.Cleanup(func() { debug.SetGCPercent(gogc); debug.SetMemoryLimit(limit) })
	m := &memorySettings{gogc: true, limit: true}
	m.holds(50000)
	m.holds(20000)
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(50000, 0); got != want {
		t.Errorf("limit %d MiB, want %d MiB", got>>20, want>>20)
	}
	if got := debug.SetGCPercent(startGCPercent); got != startGCPercent {
		t.Errorf("GOGC %d, want %d", got, startGCPercent)
	}
}

// TestSayWhenHeld: once a soft limit far below what the process keeps has
// held the collector to its cap, a command says so on stderr, naming the
// limit; the site, which says it itself, does not here, nor a process
// whose GOMEMLIMIT the user set.
func TestSayWhenHeld(t *testing.T) {
	// One processor: the collector's share is counted against all of
	// them, and one allocating goroutine on two leaves it below its cap.
	procs := runtime.GOMAXPROCS(1)
	limit := debug.SetMemoryLimit(8 << 20)
	t.Cleanup(func() { debug.SetMemoryLimit(limit); runtime.GOMAXPROCS(procs) })
	// A heap of small linked records, far past the limit: every
	// collection marks all of them, and they come one after the other.
	type record struct{ next *record }
	var kept *record
	for n := 0; ; n++ {
		if held, _ := cli.LimitHeldCollector(); held {
			break
		}
		if n > 1<<24 {
			t.Fatal("the collector was never held to its cap under a limit of 8 MiB")
		}
		kept = &record{next: kept}
	}
	for _, c := range []struct {
		limit bool
		args  []string
		want  string
	}{
		{true, []string{"merge", "a.json"}, "drp2-fixtures: warning: the soft memory limit (8 MiB) held the collector"},
		{true, []string{"site", "r"}, ""},
		{false, []string{"run"}, ""},
	} {
		var stderr strings.Builder
		m := &memorySettings{limit: c.limit, stderr: &stderr}
		m.sayWhenHeld(c.args)
		if got := stderr.String(); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%v: said %q, want %q", c.args, got, c.want)
		}
	}
	runtime.KeepAlive(kept)
}
