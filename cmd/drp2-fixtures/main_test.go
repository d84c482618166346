package main

import "testing"

// TestMemoryLimit: the soft limit grows with the fixtures of a run from
// the small-run default, and stops at its ceiling.
func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		fixtures int
		want     int64
	}{
		{-1, 112 << 20},
		{0, 112 << 20},
		{1, 112<<20 + 8<<10},
		{20000, 112<<20 + 20000*8<<10},
		{50000, 112<<20 + 50000*8<<10},
		{1 << 30, 1 << 30},
	} {
		if got := memoryLimit(c.fixtures); got != c.want {
			t.Errorf("memoryLimit(%d) = %d MiB, want %d MiB", c.fixtures, got>>20, c.want>>20)
		}
	}
}

// TestGCPercent: a run of many fixtures collects at GOGC=60, any other at
// the start's 200.
func TestGCPercent(t *testing.T) {
	for n, want := range map[int]int{-1: 200, 0: 200, 1: 200, manyFixtures - 1: 200, manyFixtures: 60, 50000: 60} {
		if got := gcPercent(n); got != want {
			t.Errorf("gcPercent(%d) = %d, want %d", n, got, want)
		}
	}
}
