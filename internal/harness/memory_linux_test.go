package harness

import (
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// TestMemoryLimit: an implementation whose hello sets memory_limit and
// that holds ever more memory on a fixture is killed past the limit, that
// fixture fails with DRP2_ERR_OOM and a message naming the limit, and the
// next fixture passes in a new process; likewise when the memory is held
// by a child in a session of its own (as a browser's GPU process is),
// which is killed too.
func TestMemoryLimit(t *testing.T) {
	names := []string{"session_handshake_ok", "upload_buffer_write", "render_triangle_draw"}
	for _, fault := range []string{"grow", "growchild"} {
		t.Run(fault, func(t *testing.T) {
			base, read := embeddedRun(t, names...)
			start := time.Now()
			spec := "memlimit:128," + fault + ":" + base.Results[1].Name
			im := runHarness(t, Config{Commands: []string{self(t)}, Env: env(spec), Timeout: 30 * time.Second}, base, read)[0]
			t.Logf("%v for the run", time.Since(start))
			if len(im.Results) != 3 {
				t.Fatalf("%d results", len(im.Results))
			}
			over := im.Results[1]
			msg := regexp.MustCompile(`the harness stopped the implementation: while it ran this fixture, its processes used (\d+) MiB, over the limit of 128 MiB its hello set \(memory_limit\)$`)
			m := msg.FindStringSubmatch(over.Actual.Message)
			if over.Passed || over.Actual.Outcome != model.Error || over.Actual.Code != "DRP2_ERR_OOM" || m == nil {
				t.Fatalf("the fixture over the limit: %+v", over.Actual)
			}
			if used, _ := strconv.Atoi(m[1]); used < 128 || used > 1024 {
				t.Errorf("stopped at %d MiB: want past 128 and well before 1 GiB", used)
			}
			if !im.Results[0].Passed || !im.Results[2].Passed {
				t.Errorf("the fixtures before and after: %+v, %+v", im.Results[0].Actual, im.Results[2].Actual)
			}
			if im.Restarts != 1 {
				t.Errorf("%d restarts, want 1", im.Restarts)
			}
			if fault == "growchild" {
				g := regexp.MustCompile(`grower (\d+)`).FindStringSubmatch(im.Stderr)
				if g == nil {
					t.Fatalf("no grower in stderr %q", im.Stderr)
				}
				if pid, _ := strconv.Atoi(g[1]); alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("the child holding the memory, %d, outlived the limit", pid)
				}
			}
		})
	}
}

// TestMemoryChecks: measured less often while the memory stays flat and
// far below the limit, and every memoryPoll when it grows or nears it.
func TestMemoryChecks(t *testing.T) {
	const MiB = 1 << 20
	const limit = 1024 * MiB
	t0 := time.Unix(1000, 0)
	if d := nextMemoryCheck(memoryMeasure{}, 100*MiB, t0, limit); d != memoryPoll {
		t.Errorf("the first wait is %v", d)
	}
	last := memoryMeasure{bytes: 100 * MiB, at: t0, delay: memoryPoll}
	var waits []time.Duration
	for range 5 {
		d := nextMemoryCheck(last, 100*MiB, last.at.Add(last.delay), limit)
		waits = append(waits, d)
		last = memoryMeasure{bytes: 100 * MiB, at: last.at.Add(last.delay), delay: d}
	}
	want := []time.Duration{400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second, time.Second}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("flat and far below: waits %v, want %v", waits, want)
		}
	}
	for _, c := range []struct {
		bytes int64
		want  time.Duration
		why   string
	}{
		{300 * MiB, time.Second, "growing 200 MiB a second: 1024 MiB is 3.6 s away"},
		{450 * MiB, memoryPoll, "growing 350 MiB a second"},
		{110 * MiB, time.Second, "slow growth far below"},
	} {
		if d := nextMemoryCheck(last, c.bytes, last.at.Add(time.Second), limit); d != c.want {
			t.Errorf("%s: %v, want %v", c.why, d, c.want)
		}
	}
	near := last
	near.bytes = 600 * MiB
	if d := nextMemoryCheck(near, 600*MiB, last.at.Add(time.Second), limit); d != memoryPoll {
		t.Errorf("past half the limit: %v", d)
	}
}
