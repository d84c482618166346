// Command drp2-fixtures runs a DRP2 fixture corpus and reports the result,
// on a laptop or as a GitHub Action.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli"
	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/secret"
)

// The soft memory limit: the heap size past which garbage is collected
// more often than GOGC says. A run keeps one result per fixture and, while
// it writes its reports, a record of each in every report (each capped,
// report/escape.FullFailures), about 8 KiB a fixture at the peak. Under a
// fixed 112 MiB a run of 20,000 failing fixtures spent three quarters of
// its processor time collecting a heap it could not shrink. So the limit
// is 112 MiB plus 8 KiB a fixture, once the run knows its fixtures, and at
// most 1 GiB: a small corpus stays under the 112 MiB that keeps a small
// runner's memory safe, and 50,000 fixtures get 503 MiB, which a 7 GB
// hosted runner holds many times over.
//
// A long stream is one fixture whose heap grows with its commands: about
// 27 bytes a command stay alive (the file itself, 93 bytes a command, is
// mapped outside the heap), so GOGC=200 lets the heap reach about 0.85
// times the file. Under the fixed limit a 10M-command stream (934 MB)
// spent 2.2 times the processor time of the same run without it, all of
// it collecting. So each fixture file from largeFixture bytes on adds its
// size to the limit, beyond the ceiling: the file was already allowed by
// --max-fixture-size and is in memory anyway.
const (
	softMemoryLimit    = 112 << 20
	memoryPerFixture   = 8 << 10
	maxSoftMemoryLimit = 1 << 30
	largeFixture       = 16 << 20
)

// GOGC is 200 at first: a long stream's heap is mostly garbage, and
// collecting half as often saves about a sixth of its time. A run of many
// fixtures keeps a result of each alive (about resultHeap bytes: 62 MB at
// 50,000), and GOGC lets the heap grow past what is alive by that
// percentage of it: at 200, 50,000 fixtures peaked at 244-251 MB RSS,
// against 144-160 MB at 60. So GOGC leaves room for at most heapSlack
// above what the results keep, between 60 and 200: 200 up to about 12,000
// fixtures, 60 from 49,000 on, and in between the GOGC that keeps that
// slack. Before, GOGC went from 200 to 60 at 10,000 fixtures, and a quarter
// shard of 50,000 fixtures (about 12,500) spent 65 to 80 ms collecting,
// against 27 to 33 ms now, for a peak RSS of 82 to 94 MB against 56 to
// 63 MB: the four shards collected half as much again as the whole run
// (about 300 ms against 200 ms).
const (
	startGCPercent = 200
	manyGCPercent  = 60
	heapBase       = 4 << 20
	resultHeap     = 1200
	heapSlack      = 36 << 20
)

// gcPercent is the GOGC of a run of n fixtures.
func gcPercent(n int) int {
	live := heapBase + resultHeap*int64(max(n, 0))
	return int(min(max(100*heapSlack/live, manyGCPercent), startGCPercent))
}

// memoryLimit is the soft memory limit of a run of n fixtures whose
// largest file is largest bytes.
func memoryLimit(n int, largest int64) int64 {
	limit := min(softMemoryLimit+memoryPerFixture*int64(max(n, 0)), maxSoftMemoryLimit)
	if largest >= largeFixture {
		limit += largest
	}
	return limit
}

// memorySettings sets GOGC and the soft memory limit as a run learns its
// size, each unless its variable was set, and says on stderr when a large
// fixture raises the limit.
type memorySettings struct {
	gogc, limit bool
	stderr      io.Writer
	mu          sync.Mutex
	fixtures    int
	largest     int64
	// said is the limit last said on stderr; it is said again only once
	// it has doubled, so a corpus of growing fixtures says it a few times
	// at most.
	said int64
}

// start sets the values of a run that knows nothing yet.
func (m *memorySettings) start() {
	if m.gogc {
		debug.SetGCPercent(startGCPercent)
	}
	if m.limit {
		debug.SetMemoryLimit(softMemoryLimit)
	}
}

// sized is cli.Env.Sized: the run is about to run n fixtures.
func (m *memorySettings) sized(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fixtures = n
	if m.gogc {
		debug.SetGCPercent(gcPercent(n))
	}
	if m.limit {
		debug.SetMemoryLimit(memoryLimit(m.fixtures, m.largest))
	}
}

// holds is cli.Env.Holds: a merge holds n results read from reports, each
// about as large as a run's result of a fixture. The limit grows with
// them, never shrinks; GOGC stays: a merge allocates its results while
// it decodes them, and collecting at 60% cost a merge of four shards of
// 50,000 fixtures a sixth more processor time than at 200 (peak RSS 155
// against 178 MB).
func (m *memorySettings) holds(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fixtures = max(m.fixtures, n)
	if m.limit {
		debug.SetMemoryLimit(memoryLimit(m.fixtures, m.largest))
	}
}

// largestFixture is cli.Env.LargestFixture: the run read a fixture of
// this many bytes, more than any before it.
func (m *memorySettings) largestFixture(bytes int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.largest = max(m.largest, bytes)
	if !m.limit || m.largest < largeFixture {
		return
	}
	limit := memoryLimit(m.fixtures, m.largest)
	debug.SetMemoryLimit(limit)
	if m.said == 0 || limit >= 2*m.said {
		m.said = limit
		fmt.Fprintf(m.stderr, "drp2-fixtures: the soft memory limit is now %d MiB, raised for a fixture of %d MiB (GOMEMLIMIT sets another)\n",
			limit>>20, m.largest>>20)
	}
}

func main() {
	// First of all: the implementations this process may start run as the
	// same user and could read its environment, the token in it, from
	// /proc. Hide executes the binary again without the secrets there.
	if err := secret.Hide(); err != nil {
		fmt.Fprintf(os.Stderr, "drp2-fixtures: warning: the secrets in the environment could not be hidden from child processes: %v\n", err)
	}
	// GOGC (gcPercent) and the soft memory limit (memoryLimit) are set at
	// start and again once the run knows its fixtures and meets a large
	// one. The soft limit makes the collector work harder only near it,
	// so that the slack GOGC=200 allows never takes a long stream past a
	// small runner's memory. GOGC and GOMEMLIMIT, when set, still win.
	mem := &memorySettings{gogc: os.Getenv("GOGC") == "", limit: os.Getenv("GOMEMLIMIT") == "", stderr: os.Stderr}
	mem.start()
	ctx, stop := stopOnSignal()
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv, IsTerminal: isTerminal(os.Stdout),
		StderrIsTerminal: isTerminal(os.Stderr), Sized: mem.sized, Holds: mem.holds, LargestFixture: mem.largestFixture, Secrets: secret.FromEnviron(os.Environ()), Action: runAction})
	stop()
	mem.sayWhenHeld(os.Args[1:])
	os.Exit(code)
}

// sayWhenHeld says on stderr when the soft memory limit this process set
// held the collector to its cap of processor time: a run or a merge
// larger than the limits above foresee (past 1 GiB) is then slowed by
// memory, which only GOMEMLIMIT can give it. The site watches its own
// limit and says so itself.
func (m *memorySettings) sayWhenHeld(args []string) {
	if !m.limit || len(args) > 0 && args[0] == "site" {
		return
	}
	if held, limit := cli.LimitHeldCollector(); held {
		fmt.Fprintf(m.stderr, "drp2-fixtures: warning: the soft memory limit (%d MiB) held the collector to its share of processor time: the command was slowed by memory, not by its work (GOMEMLIMIT sets another limit)\n", limit>>20)
	}
}

// interruptGrace is how long a command may go on after SIGINT or SIGTERM
// ended its context: long enough to end the implementations and write the
// reports of what ran, and short of the 10 s after which a cancelled
// GitHub workflow (SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after that)
// or docker stop kills the process with nothing written.
const interruptGrace = 8 * time.Second

// stopOnSignal is the command's context, ended by the first SIGINT or
// SIGTERM with cli.Interrupted as its cause: the run stops starting
// fixtures, ends its implementations and writes what ran. The process then
// exits with the signal's code (128 plus its number) on a second signal,
// or interruptGrace after the first, whatever is still unwritten; stop
// ends the watch once the command returned by itself.
func stopOnSignal() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var first os.Signal
		select {
		case first = <-signals:
		case <-done:
			return
		}
		name, number := signalName(first)
		cancel(cli.Interrupted(name, number))
		select {
		case again := <-signals:
			fmt.Fprintf(os.Stderr, "drp2-fixtures: %s again: exiting now, without what is not yet written\n", again)
		case <-time.After(interruptGrace):
			fmt.Fprintf(os.Stderr, "drp2-fixtures: not ended %v after %s: exiting without what is not yet written\n", interruptGrace, name)
		case <-done:
			return
		}
		os.Exit(128 + number)
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
	}
}

// signalName is a stopping signal's name and number, as a shell reports
// them.
func signalName(s os.Signal) (string, int) {
	if s == syscall.SIGTERM {
		return "SIGTERM", int(syscall.SIGTERM)
	}
	return "SIGINT", int(syscall.SIGINT)
}

// runAction is the action subcommand: the action front end in the
// command line's protected environment. The two front ends stand side by
// side and meet only here.
func runAction(ctx context.Context, e cli.Env) error {
	return action.Run(ctx, action.Env{Log: e.Stdout, RawLog: e.RawStdout(), Getenv: e.Var, Now: e.Now,
		WorkDir: e.WorkDir, Redactor: e.Redactor(), ToolVersion: e.ToolVersion(), Sized: e.Sized, Holds: e.Holds,
		LargestFixture: e.LargestFixture})
}

// isTerminal reports whether f is a character device (a terminal): on
// standard output the text report may use colour, on standard error a
// long run shows its progress.
func isTerminal(f *os.File) func() bool {
	return func() bool {
		st, err := f.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0
	}
}
