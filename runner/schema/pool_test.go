package schema

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestPoolRentsBeforeItBuys: a validation that finds every copy in use
// waits for one rather than compiling another, until the waits of the run
// add up to what the first compilation took; then a copy is compiled, and
// never more than max.
func TestPoolRentsBeforeItBuys(t *testing.T) {
	var builds atomic.Int32
	build := func() (*evaluator, error) { builds.Add(1); return &evaluator{meter: &meter{}}, nil }
	first := &evaluator{meter: &meter{}}

	p := newPool(first, 2, time.Hour, build)
	e, _ := p.get()
	go func() { time.Sleep(20 * time.Millisecond); p.put(e) }()
	if got, _ := p.get(); got != first || builds.Load() != 0 {
		t.Errorf("a short wait compiled %d copies", builds.Load())
	}

	p = newPool(first, 2, time.Millisecond, build)
	e, _ = p.get()
	second, _ := p.get() // waits 1 ms, then compiles
	if second == first || builds.Load() != 1 {
		t.Fatalf("after waiting past the cost: %d copies compiled", builds.Load())
	}
	go func() { time.Sleep(20 * time.Millisecond); p.put(e) }()
	if got, _ := p.get(); got != first || builds.Load() != 1 {
		t.Errorf("compiled past max: %d copies", builds.Load())
	}
}
