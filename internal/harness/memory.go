package harness

import (
	"fmt"
	"time"

	"github.com/drp2/drp2-fixtures/internal/protocol"
)

// The waits between two measures of an implementation's memory: every
// memoryPoll while it grows or nears its limit, up to memoryMaxPoll while
// it stays flat and far below (nextMemoryCheck).
const (
	memoryPoll    = 200 * time.Millisecond
	memoryMaxPoll = time.Second
)

// memoryWatch holds an implementation to the memory_limit of its hello:
// while a fixture runs, the harness measures the memory of its process
// and of everything that process started (processTree), and past the
// limit kills them all and answers the fixture DRP2_ERR_OOM itself. The
// harness does it, not the implementation, because it already owns the
// process and its restart: a watcher inside the implementation would need
// a thread of its own (a runaway allocation keeps the implementation's
// main thread busy), or a process of its own to answer for it once it is
// killed.
type memoryWatch struct {
	limit int64
	// last is the last measure, kept across the fixtures of one process:
	// a fixture is measured at its start unless one was made less than
	// memoryPoll before, so that a run of short fixtures is measured every
	// memoryPoll, not once each.
	last memoryMeasure
}

// memoryMeasure is one measure: the bytes seen, when, and the wait chosen
// after it.
type memoryMeasure struct {
	bytes int64
	at    time.Time
	delay time.Duration
}

// newMemoryWatch is the watch a hello asks for, nil when it sets no limit.
func newMemoryWatch(h *protocol.Hello) *memoryWatch {
	if h == nil || h.MemoryLimit <= 0 {
		return nil
	}
	return &memoryWatch{limit: h.MemoryLimit}
}

// watch measures p's tree until the returned stop is called, which
// returns the bytes measured past the limit (0 while under it). Past the
// limit it kills the tree and ends the exchange in flight at once. A nil
// watch watches nothing.
func (m *memoryWatch) watch(p *process) (stop func() int64) {
	if m == nil {
		return func() int64 { return 0 }
	}
	done := make(chan struct{})
	result := make(chan int64, 1)
	go func() { result <- m.run(p, done) }()
	return func() int64 {
		close(done)
		return <-result
	}
}

// run is the watch of one fixture, until done is closed or the limit is
// passed.
func (m *memoryWatch) run(p *process, done chan struct{}) int64 {
	wait := memoryPoll - time.Since(m.last.at)
	for first := true; ; first = false {
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-done:
				t.Stop()
				return 0
			case <-t.C:
			}
		}
		bytes, pids, ok := treeMemory(p.cmd.Process.Pid, false)
		if !ok {
			return 0 // Nothing to measure with (no /proc): unwatched.
		}
		if bytes > m.limit {
			// Shared pages counted once: slower to read, and no larger.
			bytes, pids, _ = treeMemory(p.cmd.Process.Pid, true)
		}
		if bytes > m.limit {
			killPids(pids)
			killGroup(p.cmd)
			_ = p.stdout.SetReadDeadline(time.Now())
			return bytes
		}
		now := time.Now()
		// Each fixture starts at memoryPoll: the wait a quiet one before
		// it reached is no reason to measure a new one less often.
		wait = memoryPoll
		if !first {
			wait = nextMemoryCheck(m.last, bytes, now, m.limit)
		}
		m.last = memoryMeasure{bytes: bytes, at: now, delay: wait}
	}
}

// nextMemoryCheck is how long to wait before the next measure: while the
// memory is below half the limit, twice the last wait (up to
// memoryMaxPoll) as long as the growth seen since the last measure would
// not reach the limit within twice that; memoryPoll otherwise. A fixture
// that grows fast, or is near the limit, is measured every memoryPoll.
func nextMemoryCheck(last memoryMeasure, bytes int64, now time.Time, limit int64) time.Duration {
	if last.at.IsZero() || bytes > limit/2 {
		return memoryPoll
	}
	longer := min(memoryMaxPoll, 2*last.delay)
	elapsed := max(time.Millisecond, now.Sub(last.at))
	growth := float64(max(0, bytes-last.bytes)) / elapsed.Seconds()
	if float64(bytes)+growth*2*longer.Seconds() < float64(limit) {
		return longer
	}
	return memoryPoll
}

// overMemory is the verdict of a fixture whose processes were killed past
// the limit.
func (m *memoryWatch) overMemory(seq int, bytes int64) *protocol.Verdict {
	return &protocol.Verdict{Type: protocol.TypeVerdict, Seq: seq, Outcome: "error", Code: "DRP2_ERR_OOM",
		Message: fmt.Sprintf("the harness stopped the implementation: while it ran this fixture, its processes used %d MiB, "+
			"over the limit of %d MiB its hello set (memory_limit)", mib(bytes), mib(m.limit))}
}

// mib is bytes in MiB, rounded.
func mib(bytes int64) int64 { return (bytes + 1<<19) >> 20 }
