package action_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestInterruptedStepWritesWhatRan: a step whose context a SIGTERM ends
// while its implementation works on the second of three fixtures writes
// the record of the one that ran, interrupted and failing, publishes
// nothing, and exits 143 (the signal binary itself: TestSIGTERMDuringLevel2Action).
func TestInterruptedStepWritesWhatRan(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 3)
	busy := filepath.Join(t.TempDir(), "busy")
	w.Env["INPUT_IMPLEMENTATION"] = leakyImplementation(t, t.TempDir(), `echo '{"type":"verdict","seq":1,"outcome":"success","replies":[]}'
read line
echo busy > '`+busy+`'
sleep 300`)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for {
			if _, err := os.Stat(busy); err == nil {
				cancel(&exit.Interruption{Signal: "SIGTERM", Number: 15})
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	defer cancel(nil)
	start := time.Now()
	r := w.Run(t, func(t *testing.T, w *sandbox) (int, string) { return runAt(t, ctx, w, fixedNow) })
	if d := time.Since(start); d > time.Minute {
		t.Errorf("the step took %v", d)
	}
	if r.Code != 143 {
		t.Errorf("exit code %d, want 143\n%s", r.Code, r.Log)
	}
	const headline = "interrupted by SIGTERM after 1 of 3 fixtures"
	if !strings.Contains(r.Summary, headline) || strings.Contains(r.Summary, "tool's own failure") {
		t.Errorf("the job summary:\n%s", r.Summary)
	}
	if r.Outputs["conclusion"] != "failure" {
		t.Errorf("outputs %v", r.Outputs)
	}
	if !strings.Contains(r.Log, "::warning title=drp2-fixtures::interrupted by SIGTERM: nothing was published") || strings.Contains(r.Log, "context canceled") {
		t.Errorf("the log:\n%s", r.Log)
	}
	report, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err != nil || !strings.Contains(string(report), `"interrupted": {`) {
		t.Errorf("the JSON report: %v\n%s", err, report)
	}
	if n := len(gh.CheckRuns()); n != 0 {
		t.Errorf("%d check runs published", n)
	}
}
