package cli

// The progress line of a long run on a terminal: nothing for a second,
// then fixtures done of those announced, the rate and the failures so far,
// redrawn in place on standard error a few times a second and cleared
// when the run ends. Never in a log or CI, and never on standard output,
// which stays the same bytes with or without it.

import (
	"fmt"
	"time"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report/explain"
)

const (
	// progressAfter is how long a run goes before its progress is shown:
	// a short run prints no line to clear.
	progressAfter = time.Second
	// progressEvery is how often the line is redrawn.
	progressEvery = 250 * time.Millisecond
)

// showsProgress says whether a progress line may be drawn: standard
// error is a terminal that understands a cursor, outside CI.
func (e Env) showsProgress() bool {
	return e.StderrIsTerminal != nil && e.StderrIsTerminal() && e.Var("CI") == "" && e.Var("TERM") != "dumb"
}

// startProgress draws p's progress on standard error while a run goes,
// when showsProgress says so, and returns the function that stops and
// clears it; p is nil when no line is drawn.
func (e Env) startProgress(name string) (p *gate.Progress, stop func()) {
	if !e.showsProgress() {
		return nil, func() {}
	}
	now := e.Now
	if now == nil {
		now = time.Now
	}
	tick, stopTicker := e.ticker(progressEvery)
	p = &gate.Progress{}
	done, finished := make(chan struct{}), make(chan struct{})
	started := now()
	go func() {
		defer close(finished)
		drawn := false
		for {
			select {
			case <-done:
				if drawn {
					// The line holds only numbers and our words: it is
					// written as it is, past the line-based writers.
					fmt.Fprint(e.rawStderr, "\r\x1b[K")
				}
				return
			case t := <-tick:
				if elapsed := t.Sub(started); elapsed >= progressAfter {
					d, total, failed := p.Counts()
					fmt.Fprintf(e.rawStderr, "\r%s: %s\x1b[K", name, explain.Progress(d, total, failed, elapsed))
					drawn = true
				}
			}
		}
	}()
	return p, func() {
		close(done)
		<-finished
		stopTicker()
	}
}

// ticker is Tick, or a time.Ticker.
func (e Env) ticker(every time.Duration) (<-chan time.Time, func()) {
	if e.Tick != nil {
		return e.Tick(every)
	}
	t := time.NewTicker(every)
	return t.C, t.Stop
}
