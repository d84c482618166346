package runner

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach is the runner's one worker pool: fixtures of a run and the
// commands of one long fixture both go through it. It splits [0,n) into
// chunks of chunk indices and calls fn(start, end) once for each chunk on
// up to workers goroutines (GOMAXPROCS when workers <= 0). Chunks are
// taken in ascending order, so the caller writes each result at its own
// index and gets them in input order whatever the scheduling.
//
// A chunk is not begun once skip(start) reports true; skip may be nil. The
// caller uses it to stop early (a cancelled run, a failure at a lower
// index) without ever skipping a chunk that starts below the point it
// stops at.
//
// With one worker the chunks run on the caller's goroutine. Otherwise a
// panic in fn stops the other workers from taking chunks and is raised
// again on the caller's goroutine once they have returned, where the
// caller's recover can turn it into a result instead of ending the
// process.
func forEach(n, workers, chunk int, skip func(start int) bool, fn func(start, end int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if chunk < 1 {
		chunk = 1
	}
	workers = min(workers, (n+chunk-1)/chunk)
	if workers <= 1 {
		for start := 0; start < n; start += chunk {
			if skip != nil && skip(start) {
				return
			}
			fn(start, min(start+chunk, n))
		}
		return
	}
	var (
		next     atomic.Int64 // start of the next chunk to take
		wg       sync.WaitGroup
		mu       sync.Mutex
		panicked any // the first panic of a worker
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					if panicked == nil {
						panicked = p
					}
					mu.Unlock()
					next.Store(int64(n)) // the others stop too
				}
			}()
			for {
				start := int(next.Add(int64(chunk))) - chunk
				if start >= n || (skip != nil && skip(start)) {
					return
				}
				fn(start, min(start+chunk, n))
			}
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
