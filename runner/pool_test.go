package runner

import (
	"sync/atomic"
	"testing"
)

func TestForEachCoversEveryIndexOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers, chunk int }{
		{0, 4, 1}, {1, 4, 1}, {7, 1, 3}, {1000, 3, 1}, {10000, 4, 1024}, {10, 0, 4},
	} {
		seen := make([]int32, tc.n)
		forEach(tc.n, tc.workers, tc.chunk, nil, func(start, end int) {
			if end-start > tc.chunk || end > tc.n {
				t.Errorf("%+v: chunk [%d,%d)", tc, start, end)
			}
			for i := start; i < end; i++ {
				atomic.AddInt32(&seen[i], 1)
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%+v: index %d called %d times", tc, i, c)
			}
		}
	}
}

func TestForEachSkipStopsLaterChunksOnly(t *testing.T) {
	const n, stopAt = 100000, 50000
	var calls, beyond atomic.Int64
	var below [n / 10]atomic.Bool
	forEach(n, 4, 10, func(start int) bool { return start >= stopAt }, func(start, _ int) {
		calls.Add(1)
		if start >= stopAt {
			beyond.Add(1)
		}
		below[start/10].Store(true)
	})
	if beyond.Load() != 0 {
		t.Errorf("%d chunks past the stop were run", beyond.Load())
	}
	for c := 0; c < stopAt/10; c++ {
		if !below[c].Load() {
			t.Fatalf("chunk %d below the stop was skipped", c)
		}
	}
}

func TestForEachRaisesAWorkersPanicOnTheCaller(t *testing.T) {
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want boom", p)
		}
	}()
	forEach(100, 4, 1, nil, func(start, _ int) {
		if start == 42 {
			panic("boom")
		}
	})
	t.Error("forEach returned after a panic")
}
