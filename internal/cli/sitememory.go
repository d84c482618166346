package cli

import (
	"runtime/debug"
	"runtime/metrics"
)

// The site's soft memory limit follows what it keeps: at least
// siteMemoryFloor, and room for the live heap to double plus a margin
// (siteMemorySlack), closer to the live heap near 1 GiB. A fixed limit below the verdicts of thousands of
// reports made the collector run without end (2,000 reports cost 2.5
// times the processor time of the same build without the limit); a limit
// that follows the live heap bounds the growth between collections as
// GOGC=100 would, and never sits below what the site must keep.
const (
	siteMemoryFloor = 256 << 20
	siteMemorySlack = 64 << 20
	// siteMemoryTarget is the bound a site of 10,000 reports is measured
	// against (docs/development.md).
	siteMemoryTarget = 1 << 30
	// siteMemoryEvery is how many reports are read between two looks at
	// the live heap: a look is cheap, but not free.
	siteMemoryEvery = 16
)

const (
	liveHeapMetric = "/gc/heap/live:bytes"
	limiterMetric  = "/gc/limiter/last-enabled:gc-cycle"
)

// siteMemoryLimit is the soft limit for a live heap of live bytes: room
// for it to double, short of siteMemoryTarget (the site's measured
// bound) while a quarter of the live heap still fits below that, and
// never less than that quarter, so that the collector never runs
// without end.
func siteMemoryLimit(live int64) int64 {
	roomy := 2*live + siteMemorySlack
	tight := live + live/4 + siteMemorySlack
	return max(siteMemoryFloor, min(roomy, max(siteMemoryTarget, tight)))
}

// siteMemory raises the soft memory limit with the site's live heap; a
// zero siteMemory (GOMEMLIMIT set by the user) does nothing.
type siteMemory struct {
	on      bool
	reports int
	limit   int64
}

func newSiteMemory(on bool) *siteMemory {
	m := &siteMemory{on: on}
	m.follow()
	return m
}

// added counts a report read, looking at the live heap every
// siteMemoryEvery reports. Called under the collector's lock.
func (m *siteMemory) added() {
	m.reports++
	if m.reports%siteMemoryEvery == 0 {
		m.follow()
	}
}

// follow sets the limit from the live heap the last collection marked;
// it only rises, so that a limit once given is never taken back.
func (m *siteMemory) follow() {
	if !m.on {
		return
	}
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	var live int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(min(s[0].Value.Uint64(), 1<<50))
	}
	if want := siteMemoryLimit(live); want > m.limit {
		m.limit = want
		debug.SetMemoryLimit(want)
	}
}

// thrashed is LimitHeldCollector, for the site's warning.
func (m *siteMemory) thrashed() (bool, int64) { return LimitHeldCollector() }

// LimitHeldCollector reports whether the collector was held to its cap of
// processor time under the soft memory limit at any point of the
// process, and the limit now: the sign that the limit, not the work, set
// the pace.
func LimitHeldCollector() (bool, int64) {
	s := []metrics.Sample{{Name: limiterMetric}}
	metrics.Read(s)
	hit := s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > 0
	return hit, debug.SetMemoryLimit(-1)
}
