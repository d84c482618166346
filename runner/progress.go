package runner

import "sync/atomic"

// Progress counts the work of a run as it is done, for a progress line:
// the runner and the runtime harness add to it from their workers, and a
// front end reads it on a clock of its own, so the work never waits for
// the line. A nil *Progress counts nothing.
type Progress struct{ total, done, failed atomic.Int64 }

// Add announces n more fixtures to run.
func (p *Progress) Add(n int) {
	if p != nil {
		p.total.Add(int64(n))
	}
}

// Did records one fixture run, and whether it failed.
func (p *Progress) Did(failed bool) {
	if p == nil {
		return
	}
	if failed {
		p.failed.Add(1)
	}
	p.done.Add(1)
}

// Counts are the fixtures run, announced and failed so far.
func (p *Progress) Counts() (done, total, failed int) {
	if p == nil {
		return 0, 0, 0
	}
	// Done before total: a reader never sees more done than announced.
	done = int(p.done.Load())
	return done, int(p.total.Load()), int(p.failed.Load())
}
