package runner

import (
	"sync"
	"sync/atomic"
)

// largestSeen tells tell of each fixture size larger than any before it,
// in increasing order even when workers read at once, so that whoever
// scales a memory limit with it never sees it shrink.
type largestSeen struct {
	tell func(bytes int64)
	// most is the largest size told; read without the lock, so that the
	// fixtures no larger than it (nearly all) cost one atomic load.
	most atomic.Int64
	mu   sync.Mutex
}

// saw records a fixture of n bytes.
func (l *largestSeen) saw(n int64) {
	if l == nil || l.tell == nil || n <= l.most.Load() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > l.most.Load() {
		l.most.Store(n)
		l.tell(n)
	}
}
