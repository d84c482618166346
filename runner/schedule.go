package runner

// The selected fixtures on the worker pool, each under its wall-clock
// limit and all of them under the run's: a fixture stopped at its limit is
// reported as such, and the run goes on without it.

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// runAll runs the selected fixtures on the worker pool and returns their
// results in selection order, without the fixtures filtered out. ctx, the
// caller's, aborts the run: a fixture not begun when it ends would have no
// result. runCtx ends at the run's time limit: the fixtures not begun by
// then are reported as not run.
func (j *fixtureJob) runAll(ctx, runCtx context.Context, selected []string, workers int) ([]model.Result, error) {
	results := make([]model.Result, len(selected))
	keep := make([]bool, len(selected))
	var aborted atomic.Bool
	loops := fixtureLoops{idle: make(chan chan<- fixtureCall, max(workers, runtime.GOMAXPROCS(0)))}
	defer loops.close()
	forEach(len(selected), workers, 1, func(int) bool {
		if ctx.Err() != nil {
			aborted.Store(true)
			return true
		}
		return false
	}, func(i, _ int) {
		if runCtx.Err() != nil {
			results[i], keep[i] = j.notRun(selected[i], context.Cause(runCtx)), true
			j.progress.Did(true)
			return
		}
		results[i], keep[i] = j.runWithBudget(runCtx, selected[i], &loops)
		j.progress.Did(keep[i] && !results[i].Passed)
	})
	if aborted.Load() {
		return nil, ctx.Err()
	}
	// Drop the filtered-out fixtures in place: a large run holds one
	// results array, not two.
	kept := results[:0]
	for i := range results {
		if keep[i] {
			kept = append(kept, results[i])
		}
	}
	return kept, nil
}

// runWithBudget runs one fixture on another goroutine (a loop) under its
// wall-clock limit (and the run's, through ctx). At the limit the fixture's
// context is cancelled: its phases see it and end (the schema phase every
// 1,024 commands, the checker every 4,096), and runWithBudget waits for
// them, so that no abandoned work goes on using the machine. What is left
// to wait for is bounded by the fixture's deterministic limits.
func (j *fixtureJob) runWithBudget(ctx context.Context, rel string, loops *fixtureLoops) (model.Result, bool) {
	if j.budget <= 0 {
		return j.run(ctx, rel)
	}
	fctx, cancel := context.WithTimeoutCause(ctx, j.budget, j.overBudget)
	defer cancel()
	done := make(chan fixtureOutcome, 1)
	loop := loops.get(j)
	loop <- fixtureCall{ctx: fctx, rel: rel, done: done}
	select {
	case o := <-done:
		loops.put(loop)
		return o.res, o.keep
	case <-fctx.Done():
	}
	// The phases of this runner stop within moments of the cancellation;
	// a Checker that ignores its context is given stopGrace, then left.
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case o := <-done:
		loops.put(loop)
		return o.res, o.keep
	case <-grace.C:
	}
	// The loop ends when the checker returns at last.
	close(loop)
	if j.name != "" || len(j.tags) > 0 {
		// As for a corpus error: the name and tags may not be known yet.
		return model.Result{}, false
	}
	return model.Result{Path: j.corpus.display(rel), RelPath: rel, Folder: folderOf(rel), Name: stem(rel),
		Actual: model.Actual{Outcome: model.CorpusError,
			Message: fmt.Sprintf("not judged: %v, and the checker did not stop within %s of it", context.Cause(fctx), stopGrace)}}, true
}

// fixtureLoops are goroutines that run fixtures one after another, each
// waiting for its next call: a goroutine's stack, grown by the first deep
// schema validation, then serves the next fixtures instead of growing again
// on a new goroutine for each (a few per cent of a large run's time). A loop
// is used by one worker at a time; one whose fixture is left running past
// its grace is closed instead of reused.
type fixtureLoops struct {
	idle chan chan<- fixtureCall
}

type fixtureCall struct {
	ctx  context.Context
	rel  string
	done chan<- fixtureOutcome
}

type fixtureOutcome struct {
	res  model.Result
	keep bool
}

// get returns an idle loop, or starts one.
func (ls *fixtureLoops) get(j *fixtureJob) chan<- fixtureCall {
	select {
	case loop := <-ls.idle:
		return loop
	default:
	}
	calls := make(chan fixtureCall)
	go func() {
		for c := range calls {
			res, keep := j.run(c.ctx, c.rel)
			c.done <- fixtureOutcome{res, keep}
		}
	}()
	return calls
}

// put makes loop idle, or ends it when enough are.
func (ls *fixtureLoops) put(loop chan<- fixtureCall) {
	select {
	case ls.idle <- loop:
	default:
		close(loop)
	}
}

// close ends the idle loops; the run's workers are done with them.
func (ls *fixtureLoops) close() {
	for {
		select {
		case loop := <-ls.idle:
			close(loop)
		default:
			return
		}
	}
}

// stopGrace is how long a cancelled fixture may take to stop.
const stopGrace = 10 * time.Second

// notRun is the result of a fixture the run did not start: why is the
// reason, the run's time limit.
func (j *fixtureJob) notRun(rel string, why error) model.Result {
	return model.Result{Path: j.corpus.display(rel), RelPath: rel, Folder: folderOf(rel), Name: stem(rel),
		Actual: model.Actual{Outcome: model.CorpusError, Message: fmt.Sprintf("not run: %v", why)}}
}
