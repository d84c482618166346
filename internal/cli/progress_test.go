package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeTicker is a ticker the test drives: each send is one redraw.
type fakeTicker struct {
	c       chan time.Time
	stopped bool
}

func (f *fakeTicker) tick(every time.Duration) (<-chan time.Time, func()) {
	return f.c, func() { f.stopped = true }
}

// TestProgressLine: nothing for the first second, then done/total, the
// rate and the failures so far, redrawn in place at each tick, and the
// line cleared at the end; nothing at all for a run shorter than a second.
func TestProgressLine(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var stderr bytes.Buffer
	ft := &fakeTicker{c: make(chan time.Time)}
	env := Env{Stderr: &stderr, StderrIsTerminal: func() bool { return true }, Tick: ft.tick,
		Now: func() time.Time { return t0 }}
	env.Protect()
	p, stop := env.startProgress("drp2-fixtures run")
	p.Add(100)
	ft.c <- t0.Add(500 * time.Millisecond) // too soon: nothing drawn
	for i := range 42 {
		p.Did(i%20 == 0)
	}
	ft.c <- t0.Add(2 * time.Second)
	ft.c <- t0 // taken once the line above is drawn: nothing drawn
	p.Add(50)  // an implementation's fixtures
	for range 48 {
		p.Did(false)
	}
	ft.c <- t0.Add(3 * time.Second)
	stop()
	want := "\rdrp2-fixtures run: 42/100 fixtures, 21/s, 3 failed\x1b[K" +
		"\rdrp2-fixtures run: 90/150 fixtures, 30/s, 3 failed\x1b[K" +
		"\r\x1b[K"
	if got := stderr.String(); got != want || !ft.stopped {
		t.Errorf("progress on standard error:\n%q\nwant\n%q (ticker stopped: %v)", got, want, ft.stopped)
	}

	stderr.Reset()
	ft = &fakeTicker{c: make(chan time.Time)}
	env.Tick = ft.tick
	_, stop = env.startProgress("drp2-fixtures run")
	ft.c <- t0.Add(900 * time.Millisecond)
	stop()
	if stderr.Len() != 0 {
		t.Errorf("a run shorter than a second drew %q", stderr.String())
	}
}

// TestProgressOnlyOnATerminal: no line unless standard error is a
// terminal, and never in CI or on a dumb terminal.
func TestProgressOnlyOnATerminal(t *testing.T) {
	yes := func() bool { return true }
	for _, c := range []struct {
		name string
		env  Env
	}{
		{"not a terminal", Env{}},
		{"standard output a terminal, standard error not", Env{IsTerminal: yes}},
		{"in CI", Env{StderrIsTerminal: yes, Getenv: func(k string) string { return map[string]string{"CI": "true"}[k] }}},
		{"a dumb terminal", Env{StderrIsTerminal: yes, Getenv: func(k string) string { return map[string]string{"TERM": "dumb"}[k] }}},
	} {
		if c.env.showsProgress() {
			t.Errorf("%s: progress shown", c.name)
		}
		if p, _ := c.env.startProgress("x"); p != nil {
			t.Errorf("%s: progress counted", c.name)
		}
	}
	if !(Env{StderrIsTerminal: yes}).showsProgress() {
		t.Errorf("a terminal outside CI: no progress")
	}
}

// TestProgressLeavesStdoutAlone: a run on a terminal draws its progress on
// standard error, and standard output is the same bytes as without it.
func TestProgressLeavesStdoutAlone(t *testing.T) {
	dir := t.TempDir()
	// The project's own corpus: a clone always has it (../shared, the
	// upstream corpus, is only beside the project in CI).
	corpus, err := filepath.Abs("../../fixtures")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}[k] }
	runOnce := func(terminal bool) (string, string) {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Getenv: getenv}
		if terminal {
			env.StderrIsTerminal = func() bool { return true }
			env.Tick = func(time.Duration) (<-chan time.Time, func()) {
				c := make(chan time.Time, 1)
				c <- time.Now().Add(time.Hour) // past the first second
				return c, func() {}
			}
		}
		code := Main(context.Background(), []string{"run", "--corpus", corpus, "--format", "text"}, env)
		if code != ExitOK {
			t.Fatalf("exit %d\n%s", code, errb.String())
		}
		return out.String(), errb.String()
	}
	plain, plainErr := runOnce(false)
	shown, shownErr := runOnce(true)
	if plain != shown {
		t.Errorf("standard output differs with the progress line shown")
	}
	if plainErr != "" || !strings.HasPrefix(shownErr, "\rdrp2-fixtures run: ") || !strings.HasSuffix(shownErr, "\x1b[K\r\x1b[K") {
		t.Errorf("standard error: %q without progress, %q with", plainErr, shownErr)
	}
}
