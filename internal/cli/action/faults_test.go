package action_test

// The action against a GitHub that loses answers, stalls, refuses and
// garbles, and against runs that race on one pull request: what reviewers
// see (the sticky comment, the check runs) must stay true.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/github"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/version"
)

// virtualClock is the API's clock in these tests: real time plus every
// wait the client asked for, which returns at once. A wait of a minute on
// a secondary limit then costs nothing, while the budget still counts it.
type virtualClock struct {
	mu     sync.Mutex
	start  time.Time
	waited time.Duration
}

func newVirtualClock() *virtualClock { return &virtualClock{start: time.Now()} }

func (c *virtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.waited)
}

func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.waited += max(d, 0)
	c.mu.Unlock()
	return ctx.Err()
}

// faultyStep is a step on pull request 7 at head, as GitHub run runID
// runs it: the API paced by the virtual clock, with an attempt timeout
// short enough that a stall costs a fraction of a second.
type faultyStep struct {
	w     *sandbox
	head  string
	runID int
}

func (s faultyStep) run(t *testing.T, clock *virtualClock) result {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"number": 7, "pull_request": map[string]any{
		"number": 7, "head": map[string]any{"sha": s.head, "repo": map[string]any{"full_name": repoName}}}})
	if err := os.WriteFile(s.w.Event, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	s.w.Env["GITHUB_RUN_ID"] = strconv.Itoa(s.runID)
	s.w.Env["GITHUB_RUN_ATTEMPT"] = "1"
	pacing := github.Pacing{Budget: github.DefaultBudget, AttemptTimeout: 300 * time.Millisecond, Now: clock.Now, Sleep: clock.Sleep}
	return s.w.Run(t, func(t *testing.T, w *sandbox) (int, string) {
		var out bytes.Buffer
		redactor := secret.NewRedactor()
		log := redactor.Writer(&out)
		code := exit.Code(action.Run(context.Background(), action.Env{Log: log, RawLog: &out, Getenv: func(k string) string { return w.Env[k] },
			Now: func() time.Time { return fixedNow }, WorkDir: w.Dir, Redactor: redactor, ToolVersion: version.String(), Pacing: pacing}))
		log.Flush()
		return code, out.String()
	})
}

// shaOf is the head commit of push n.
func shaOf(n int) string { return fmt.Sprintf("%040x", 0xabc000+n) }

// failingOnPush: every odd push fails 60 fixtures (two annotation
// batches), every even one passes.
func failingOnPush(n int) int { return 60 * (n % 2) }

var (
	commentCommit = regexp.MustCompile(`/commit/([0-9a-f]{40})\)`)
	commentRun    = regexp.MustCompile(`/actions/runs/([0-9]+)`)
)

// shown is what the sticky comment tells a reviewer: the commit, the run
// and the verdict.
type shown struct {
	head    string
	run     int
	failing bool
}

func readComment(t *testing.T, gh *githubtest.Server) (shown, []githubtest.Comment) {
	t.Helper()
	var sticky []githubtest.Comment
	for _, c := range gh.Comments(7) {
		if c.Login == githubtest.ActionsBot && strings.HasPrefix(c.Body, "<!-- drp2-fixtures:comment:corpus -->") {
			sticky = append(sticky, c)
		}
	}
	if len(sticky) == 0 {
		return shown{}, nil
	}
	body := sticky[0].Body
	var s shown
	if m := commentCommit.FindStringSubmatch(body); m != nil {
		s.head = m[1]
	}
	if m := commentRun.FindStringSubmatch(body); m != nil {
		s.run, _ = strconv.Atoi(m[1])
	}
	s.failing = strings.Contains(body, "### ❌")
	if !s.failing && !strings.Contains(body, "### ✅") {
		t.Errorf("the comment shows no verdict:\n%.400s", body)
	}
	return s, sticky
}

// A hundred runs on one pull request, each under random faults of every
// kind on every request, with pushes between them and runs that finish
// after the next push: one sticky comment stays, and it shows the verdict
// of the newest head whose run published it, naming that run; check runs
// are never duplicated, nor annotation batches applied twice.
func TestHundredRunsUnderFaultsLeaveOneTrueComment(t *testing.T) {
	clock := newVirtualClock()
	gh := githubtest.New(t, githubtest.Options{Token: token, Now: clock.Now})
	w := newWorkspace(t, gh.URL, 7, repoName)
	corpus := filepath.Join(w.Dir, "corpus")
	gh.SetChaos(githubtest.Chaos{Seed: 41, Rate: 0.25})
	push := 0
	gh.AddPull(7, shaOf(push))
	// published is, per head, the newest run that says it wrote the comment.
	published := map[string]int{}
	failingRun := map[int]bool{}
	written := -1
	runsOn := map[string]int{}
	lastLog := ""
	for i := range 100 {
		if i%10 == 0 {
			push++
			gh.AddPull(7, shaOf(push))
		}
		judged := push
		if i%10 == 3 || i%10 == 9 {
			// A run that started before the push finishes after it.
			judged = push - 1
		}
		if failingOnPush(judged) != written {
			written = failingOnPush(judged)
			writeCorpus(t, corpus, written, 5)
		}
		runID := 1000 + i
		runsOn[shaOf(judged)]++
		r := faultyStep{w: w, head: shaOf(judged), runID: runID}.run(t, clock)
		failingRun[runID] = r.Code == 1
		lastLog = apiLines(r.Log)
		if r.Code != 0 && r.Code != 1 {
			t.Fatalf("run %d: exit %d\n%s", runID, r.Code, r.Log)
		}
		if r.Outputs["comment-url"] != "" && judged == push && !warnedAboutComment(r.Log) {
			published[shaOf(judged)] = runID
		}
	}
	t.Logf("%d faults injected over %d requests", len(gh.ChaosEvents()), len(gh.Requests()))
	gh.SetChaos(githubtest.Chaos{})
	if os.Getenv("DEBUGLOG") != "" {
		t.Log(lastLog)
	}

	got, sticky := readComment(t, gh)
	if len(sticky) != 1 {
		t.Fatalf("%d sticky comments, want 1", len(sticky))
	}
	head := shaOf(push)
	newest, ok := published[head]
	if !ok {
		t.Fatalf("no run on the final head %s published its comment", head)
	}
	if got.head != head || got.run < newest {
		t.Errorf("the comment shows commit %s from run %d; want the head %s, from run %d or later", got.head, got.run, head, newest)
	}
	if failingRun[got.run] != got.failing {
		t.Errorf("the comment shows failing=%v, but run %d's verdict was failing=%v", got.failing, got.run, failingRun[got.run])
	}
	checkRunsOnePerRun(t, gh, runsOn)
}

// warnedAboutComment reports whether a log warns that the comment was
// not written as it should be.
func warnedAboutComment(log string) bool {
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "::warning") && strings.Contains(strings.ToLower(line), "comment") {
			return true
		}
	}
	return false
}

// checkRunsOnePerRun: a commit has at most one check run per run that
// judged it, and each carries every annotation once.
func checkRunsOnePerRun(t *testing.T, gh *githubtest.Server, runsOn map[string]int) {
	t.Helper()
	perHead := map[string]int{}
	for _, cr := range gh.CheckRuns() {
		perHead[cr.HeadSHA]++
		seen := map[string]bool{}
		for _, a := range cr.Annotations {
			key := fmt.Sprintf("%s:%d", a.Path, a.StartLine)
			if seen[key] {
				t.Errorf("check run %d carries the annotation of %s twice (%d annotations, batches %v)", cr.ID, key, len(cr.Annotations), cr.Batches)
				break
			}
			seen[key] = true
		}
	}
	for head, n := range perHead {
		if n > runsOn[head] {
			t.Errorf("%d check runs on %s, from %d runs", n, head, runsOn[head])
		}
	}
}

// Three runs on one pull request at once, a push between each start, as
// when commits are pushed while earlier runs are still under way. Each run
// is held as it begins to publish until the order of the trial: in even
// trials the head's run publishes first and the superseded ones after it,
// in odd ones the other way round. The comment ends with the verdict of
// the head either way, and the superseded runs say why they left it.
func TestConcurrentRunsWithPushesEndWithTheHeadsVerdict(t *testing.T) {
	for trial := range 4 {
		clock := newVirtualClock()
		gh := githubtest.New(t, githubtest.Options{Token: token, Now: clock.Now})
		var mu sync.Mutex
		arrived := 0
		publishing := make(chan struct{}, 3)
		release := []chan struct{}{make(chan struct{}), make(chan struct{}), make(chan struct{})}
		gh.OnRequest("POST", "/repos/acme/widgets/check-runs", 0, func() {
			mu.Lock()
			k := arrived
			arrived++
			mu.Unlock()
			if k < 3 {
				publishing <- struct{}{}
				<-release[k]
			}
		})
		var wg sync.WaitGroup
		results := make([]result, 3)
		done := make([]chan struct{}, 3)
		for k := range 3 {
			gh.AddPull(7, shaOf(k))
			w := newWorkspace(t, gh.URL, 7, repoName)
			writeCorpus(t, filepath.Join(w.Dir, "corpus"), failingOnPush(k+trial), 5)
			step := faultyStep{w: w, head: shaOf(k), runID: 500 + k}
			done[k] = make(chan struct{})
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(done[k])
				results[k] = step.run(t, clock)
			}()
			// The next commit is pushed once this run has judged its own.
			<-publishing
		}
		if trial%2 == 0 {
			close(release[2])
			<-done[2]
			close(release[0])
			close(release[1])
		} else {
			close(release[0])
			close(release[1])
			<-done[0]
			<-done[1]
			close(release[2])
		}
		wg.Wait()
		got, sticky := readComment(t, gh)
		if len(sticky) != 1 {
			t.Errorf("trial %d: %d sticky comments, want 1", trial, len(sticky))
			continue
		}
		wantFailing := failingOnPush(2+trial) > 0
		if got.head != shaOf(2) || got.run != 502 || got.failing != wantFailing {
			t.Errorf("trial %d: the comment shows commit %s from run %d (failing=%v); want the head %s from run 502 (failing=%v)",
				trial, got.head, got.run, got.failing, shaOf(2), wantFailing)
		}
		for k, r := range results[:2] {
			if !strings.Contains(r.Log, "superseded by "+shaOf(2)) {
				t.Errorf("trial %d: the run of %s does not say that its commit was superseded:\n%s", trial, shaOf(k), apiLines(r.Log))
			}
		}
	}
}

// apiLines are the lines of a log that speak of GitHub: warnings and
// notices, not the report.
func apiLines(log string) string {
	var b strings.Builder
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "::warning") || strings.HasPrefix(line, "::notice") || strings.HasPrefix(line, "GitHub") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// Each sink says what became of it, and none stops another: a check run
// that gives up, a failed author lookup, a refused annotation batch, a
// garbled answer or a minute's wait on a secondary limit.
func TestFaultsOfOneSinkLeaveTheOthers(t *testing.T) {
	for _, c := range []struct {
		name   string
		faults []githubtest.Fault
		check  func(t *testing.T, r result, gh *githubtest.Server)
	}{{
		name:   "the check run gives up; the comment is written",
		faults: []githubtest.Fault{{Method: "POST", Path: "/repos/acme/widgets/check-runs", Status: 500, Body: `{"message":"Server Error"}`}},
		check: func(t *testing.T, r result, gh *githubtest.Server) {
			if !strings.Contains(apiLines(r.Log), "Check run not published") || warnedAboutComment(r.Log) || r.Outputs["comment-url"] == "" {
				t.Errorf("outputs %v\n%s", r.Outputs, apiLines(r.Log))
			}
			if n := strings.Count(r.Log, "::error file=corpus/positive/"); n != 10 {
				t.Errorf("%d annotations in the log, want the 10 a step shows", n)
			}
		},
	}, {
		name: "the author lookup fails; the comment is written",
		faults: []githubtest.Fault{{Method: "GET", Path: "/user", Status: 502, Body: `{"message":"Server Error"}`},
			{Method: "POST", Path: "/graphql", Status: 502, Body: `{"message":"Server Error"}`}},
		check: func(t *testing.T, r result, gh *githubtest.Server) {
			if strings.Contains(r.Log, "::warning") || r.Outputs["comment-url"] == "" || len(gh.Comments(7)) != 1 {
				t.Errorf("outputs %v\n%s", r.Outputs, apiLines(r.Log))
			}
		},
	}, {
		name:   "the second annotation batch is refused; the check run keeps its link",
		faults: []githubtest.Fault{{Method: "PATCH", Path: "/repos/acme/widgets/check-runs/", Status: 422, Body: `{"message":"Validation Failed"}`, Times: 1}},
		check: func(t *testing.T, r result, gh *githubtest.Server) {
			log := apiLines(r.Log)
			if !strings.Contains(log, "the first 50 of 60 annotations; the other 10 are in the log") || strings.Contains(log, "not published") {
				t.Errorf("the warning does not say what the check run shows:\n%s", log)
			}
			if r.Outputs["check-url"] == "" || len(gh.Comments(7)) != 1 || !strings.Contains(gh.Comments(7)[0].Body, "[Check run]("+r.Outputs["check-url"]+")") {
				t.Errorf("the check run lost its link: outputs %v", r.Outputs)
			}
			if n := strings.Count(r.Log, "::error file=corpus/positive/"); n != 10 {
				t.Errorf("%d annotations in the log, want the 10 not attached", n)
			}
		},
	}, {
		name: "a list of comments cut short is read again",
		faults: []githubtest.Fault{{Method: "GET", Path: "/repos/acme/widgets/issues/7/comments", Status: 200, Body: `[{"id": 1, "bo`, Times: 1},
			{Method: "GET", Path: "/repos/acme/widgets/pulls/7", Status: 200, Body: `<html>`, Times: 1}},
		check: func(t *testing.T, r result, gh *githubtest.Server) {
			if strings.Contains(r.Log, "::warning") || len(gh.Comments(7)) != 1 {
				t.Errorf("comments %d\n%s", len(gh.Comments(7)), apiLines(r.Log))
			}
		},
	}, {
		name: "a secondary rate limit's minute is said plainly",
		faults: []githubtest.Fault{{Method: "POST", Path: "/repos/acme/widgets/issues/7/comments", Status: 403, Times: 1,
			Header: map[string]string{"Retry-After": "60"}, Body: `{"message":"` + githubtest.SecondaryLimitMessage + `"}`}},
		check: func(t *testing.T, r result, gh *githubtest.Server) {
			want := "GitHub API POST /repos/acme/widgets/issues/7/comments: 403 Forbidden (rate limited); waiting 1m0s before attempt 2"
			if !strings.Contains(r.Log, "\n"+want+"\n") || len(gh.Comments(7)) != 1 {
				t.Errorf("the wait is not said plainly:\n%s", apiLines(r.Log))
			}
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			clock := newVirtualClock()
			gh := githubtest.New(t, githubtest.Options{Token: token, Now: clock.Now})
			gh.AddPull(7, headSHA)
			for _, f := range c.faults {
				gh.AddFault(f)
			}
			w := newWorkspace(t, gh.URL, 7, repoName)
			writeCorpus(t, filepath.Join(w.Dir, "corpus"), 60, 1)
			r := faultyStep{w: w, head: headSHA, runID: 77}.run(t, clock)
			if r.Code != 1 {
				t.Fatalf("exit %d, want 1 (the verdict alone)", r.Code)
			}
			c.check(t, r, gh)
		})
	}
}
