package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The limit follows the live heap: with 160 MiB kept alive it rises above
// twice that, never falls, and stays put when GOMEMLIMIT was set.
func TestSiteMemoryFollowsTheLiveHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	// The binary's own limit, below the site's floor.
	const binary = 112 << 20
	debug.SetMemoryLimit(binary)

	off := newSiteMemory(false)
	if off.limit != 0 || debug.SetMemoryLimit(-1) != binary {
		t.Fatalf("GOMEMLIMIT set: the limit moved to %d", debug.SetMemoryLimit(-1))
	}

	m := newSiteMemory(true)
	if got := debug.SetMemoryLimit(-1); got < siteMemoryFloor {
		t.Fatalf("limit %d MiB, below the floor", got>>20)
	}
	kept := make([]byte, 160<<20)
	for i := range kept {
		kept[i] = 1
	}
	runtime.GC()
	for range siteMemoryEvery {
		m.added()
	}
	raised := debug.SetMemoryLimit(-1)
	if raised < 2*160<<20+siteMemorySlack {
		t.Fatalf("with 160 MiB live, the limit is %d MiB", raised>>20)
	}
	runtime.KeepAlive(kept)
	kept = nil
	runtime.GC()
	m.follow()
	if got := debug.SetMemoryLimit(-1); got != raised {
		t.Fatalf("the limit fell from %d to %d", raised, got)
	}
}

// Near 1 GiB the room shrinks to a quarter of the live heap, never less.
func TestSiteMemoryLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ live, want int64 }{
		{0, 256 * mib},
		{100 * mib, 264 * mib},
		{400 * mib, 864 * mib},
		{600 * mib, 1024 * mib},
		{800 * mib, 1064 * mib},
		{2048 * mib, 2624 * mib},
	} {
		if got := siteMemoryLimit(c.live); got != c.want {
			t.Errorf("live %d MiB: limit %d MiB, want %d", c.live/mib, got/mib, c.want/mib)
		}
	}
}
