package runner

import (
	"context"
	"sync"

	"github.com/drp2/drp2-fixtures/model"
)

// AnyCommandsChecker is a Checker that judges any stream of valid JSON
// commands, whether or not they passed the command schema, without harm
// (no panic, work within its budget, an early stop when ctx is done). The
// runner may then check a long stream while its command schema runs, and
// discard the checker's verdict when the schema fails, as if it had never
// run.
type AnyCommandsChecker interface {
	Checker
	ChecksAnyCommands() bool
}

// overlapMin is the fewest commands a stream has for its checker to run
// beside the command schema: below it, a goroutine is not worth its cost.
var overlapMin = 8192

func overlaps(c Checker, commands int) bool {
	a, ok := c.(AnyCommandsChecker)
	return ok && commands >= overlapMin && a.ChecksAnyCommands()
}

// overlapped runs the command schema and the checker at once, with the
// precedence of phases: the schema's failure, if any, is the verdict (the
// checker is stopped and its result discarded, a panic too); else, unless
// ctx ended during the schema phase, the checker's result. The checker's
// goroutine has ended when overlapped returns, whatever happens.
func (j *fixtureJob) overlapped(ctx context.Context, fx *fixture, stream model.Stream) (*model.Failure, []model.Finding) {
	sctx, cancel := context.WithCancel(ctx)
	var (
		wg       sync.WaitGroup
		fail     *model.Failure
		found    []model.Finding
		panicked any
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { panicked = recover() }()
		fail, found = j.checker.Check(sctx, stream, nil)
	}()
	stop := func() {
		cancel()
		wg.Wait()
	}
	defer stop()
	if f := j.commands.checkCommands(fx.commands, ctx.Done()); f != nil {
		return f, nil
	}
	if ctx.Err() != nil {
		return nil, nil
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	return fail, found
}
