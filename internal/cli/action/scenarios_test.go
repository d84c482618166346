package action_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

func TestActionInProcess(t *testing.T) { scenarios(t, inProcess) }

func scenarios(t *testing.T, step stepRunner) {
	baselineScenarios(t, step)
	t.Run("120 mismatches, rerun, green rerun", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		w := newWorkspace(t, gh.URL, 7, repoName)
		corpus := filepath.Join(w.Dir, "corpus")
		writeCorpus(t, corpus, 120, 5)

		r := w.Run(t, step)
		if r.Code != 1 {
			t.Fatalf("exit code %d, want 1 (fail-on mismatch)\n%s", r.Code, r.Log)
		}
		want := map[string]string{"total": "125", "run": "125", "passed": "5", "failed": "120", "corpus-errors": "0",
			"conclusion": "failure", "junit-path": "drp2-fixtures-junit.xml", "json-path": "drp2-fixtures.json"}
		for k, v := range want {
			if r.Outputs[k] != v {
				t.Errorf("output %s = %q, want %q", k, r.Outputs[k], v)
			}
		}
		for _, f := range []string{"drp2-fixtures-junit.xml", "drp2-fixtures.json"} {
			if st, err := os.Stat(filepath.Join(w.Dir, f)); err != nil || st.Size() == 0 {
				t.Errorf("%s not written: %v", f, err)
			}
		}
		if xml, _ := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures-junit.xml")); !strings.Contains(string(xml), `name="github.run_id" value="77"`) {
			t.Errorf("the JUnit report does not record the GitHub run")
		}
		if !strings.Contains(r.Summary, "render_case_000") {
			t.Errorf("job summary does not list the failing fixtures:\n%.500s", r.Summary)
		}
		runs := gh.CheckRuns()
		if len(runs) != 1 {
			t.Fatalf("check runs = %d, want 1", len(runs))
		}
		cr := runs[0]
		if len(cr.Batches) != 3 || cr.Batches[0] > 50 || cr.Batches[1] > 50 || cr.Batches[2] > 50 || len(cr.Annotations) != 120 {
			t.Errorf("annotation batches = %v (%d annotations), want 3 requests of at most 50", cr.Batches, len(cr.Annotations))
		}
		if cr.HeadSHA != headSHA || cr.Name != "DRP2 fixtures" || cr.Conclusion != "failure" {
			t.Errorf("check run: head %s name %q conclusion %s", cr.HeadSHA, cr.Name, cr.Conclusion)
		}
		if !strings.HasPrefix(cr.Annotations[0].Path, "corpus/positive/") {
			t.Errorf("annotation path %q is not relative to the workspace", cr.Annotations[0].Path)
		}
		if r.Outputs["check-url"] == "" || !strings.HasPrefix(r.Outputs["check-url"], githubtest.WebURL) {
			t.Errorf("check-url = %q", r.Outputs["check-url"])
		}
		comments := gh.Comments(7)
		if len(comments) != 1 || !strings.Contains(comments[0].Body, "<!-- drp2-fixtures:comment:corpus -->") {
			t.Fatalf("comments = %+v", comments)
		}
		if !strings.Contains(comments[0].Body, headSHA) {
			t.Errorf("comment does not link files at the head commit")
		}
		if r.Outputs["comment-url"] == "" {
			t.Errorf("comment-url is empty")
		}
		if strings.Contains(r.Log, "::error file=") {
			t.Errorf("annotations were printed as workflow commands although the check run took them")
		}

		// A rerun updates the one comment.
		gh.ResetRequests()
		r = w.Run(t, step)
		if r.Code != 1 || len(gh.Comments(7)) != 1 {
			t.Fatalf("rerun: exit %d, comments %d", r.Code, len(gh.Comments(7)))
		}
		if !sawRequest(gh, "PATCH", "/repos/acme/widgets/issues/comments/") || sawRequest(gh, "POST", "/repos/acme/widgets/issues/7/comments") {
			t.Errorf("rerun did not update the comment in place")
		}

		// Fixed corpus: the comment turns green.
		writeCorpus(t, corpus, 0, 5)
		r = w.Run(t, step)
		if r.Code != 0 || r.Outputs["conclusion"] != "success" {
			t.Fatalf("green rerun: exit %d, conclusion %q\n%s", r.Code, r.Outputs["conclusion"], r.Log)
		}
		comments = gh.Comments(7)
		if len(comments) != 1 || strings.Contains(comments[0].Body, "render_case_000") {
			t.Errorf("the comment still shows the old failures: %+v", comments)
		}
		if runs := gh.CheckRuns(); runs[len(runs)-1].Conclusion != "success" {
			t.Errorf("last check run conclusion %q", runs[len(runs)-1].Conclusion)
		}
	})

	t.Run("fork pull request degrades without failing", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		w := newWorkspace(t, gh.URL, 8, "stranger/widgets")
		w.Env["INPUT_FAIL-ON"] = "never"
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 12, 1)
		r := w.Run(t, step)
		if r.Code != 0 {
			t.Fatalf("exit %d, want 0\n%s", r.Code, r.Log)
		}
		for _, req := range gh.Requests() {
			if req.Method != "GET" {
				t.Errorf("a fork run wrote to GitHub: %s %s", req.Method, req.Path)
			}
		}
		if n := strings.Count(r.Log, "::error file=corpus/positive/"); n != 10 {
			t.Errorf("workflow-command annotations = %d, want 10 (the per-step cap)", n)
		}
		if !strings.Contains(r.Log, "2 more") {
			t.Errorf("the log does not say that more annotations exist")
		}
		plain := strings.ReplaceAll(r.Summary, "\\", "") // undo Markdown escapes
		if !strings.Contains(plain, "stranger/widgets") || !strings.Contains(plain, "read-only") {
			t.Errorf("the job summary does not say what was skipped and why:\n%.2000s", r.Summary)
		}
		// fail-on never: the run passes, and every sink says so.
		if r.Outputs["conclusion"] != "success" || r.Outputs["check-url"] != "" {
			t.Errorf("outputs = %v", r.Outputs)
		}
	})

	t.Run("Dependabot pull request: a read-only token", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token, Login: "github-actions[bot]", ReadOnly: true})
		w := newWorkspace(t, gh.URL, 7, repoName)
		w.Env["GITHUB_ACTOR"] = "dependabot[bot]"
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 1)
		r := w.Run(t, step)
		if r.Code != 1 {
			t.Fatalf("exit %d, want 1 (the mismatches)\n%s", r.Code, r.Log)
		}
		plain := strings.ReplaceAll(r.Summary, "\\", "")
		if !strings.Contains(plain, "read-only") || !strings.Contains(plain, "results are in this job summary") || strings.Contains(plain, "grant") {
			t.Errorf("the job summary does not say why publishing was skipped and where the results are:\n%s", r.Summary)
		}
		if strings.Contains(r.Log, "[]") || strings.Contains(r.Summary, "[]") {
			t.Errorf("the client library's empty error list reached the report:\n%s", r.Log)
		}
		for _, req := range gh.Requests() {
			if strings.Contains(req.Path, "/comments") && req.Method != "GET" {
				t.Errorf("a comment was tried with a token already refused: %s %s\n%s", req.Method, req.Path, r.Log)
			}
		}
		if r.Outputs["check-url"] != "" || r.Outputs["comment-url"] != "" {
			t.Errorf("outputs = %v", r.Outputs)
		}
	})

	t.Run("full comment, no job summary, a Markdown file", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token, Login: "github-actions[bot]"})
		w := newWorkspace(t, gh.URL, 7, repoName)
		w.Env["INPUT_COMMENT-STYLE"] = "full"
		w.Env["INPUT_JOB-SUMMARY"] = "false"
		w.Env["INPUT_MARKDOWN-PATH"] = "reports/drp2.md"
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 1)
		r := w.Run(t, step)
		if r.Code != 1 {
			t.Fatalf("exit %d\n%s", r.Code, r.Log)
		}
		if r.Summary != "" {
			t.Errorf("job-summary: false wrote a job summary:\n%.300s", r.Summary)
		}
		md, err := os.ReadFile(filepath.Join(w.Dir, "reports", "drp2.md"))
		if err != nil || !strings.Contains(string(md), "DRP2 conformance: 2 of 3 fixtures failed") || !strings.Contains(string(md), "<summary>Evidence</summary>") {
			t.Errorf("Markdown file: %v\n%.300s", err, md)
		}
		if r.Outputs["markdown-path"] != "reports/drp2.md" {
			t.Errorf("markdown-path output = %q", r.Outputs["markdown-path"])
		}
		comments := gh.Comments(7)
		if len(comments) != 1 || !strings.Contains(comments[0].Body, "| Fixtures | Run | Passed | Failed |") || strings.Contains(comments[0].Body, "job summary") {
			t.Errorf("the full comment has no counts table, or sends readers to a job summary that is not there: %+v", comments)
		}
	})

	t.Run("bad comment-style, job-summary and finding-annotations", func(t *testing.T) {
		for _, in := range []string{"INPUT_COMMENT-STYLE", "INPUT_JOB-SUMMARY", "INPUT_FINDING-ANNOTATIONS"} {
			gh := githubtest.New(t, githubtest.Options{Token: token})
			w := newWorkspace(t, gh.URL, 7, repoName)
			w.Env[in] = "sometimes"
			writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
			if r := w.Run(t, step); r.Code != ExitUsage || !strings.Contains(r.Log, strings.ToLower(strings.TrimPrefix(in, "INPUT_"))) {
				t.Errorf("%s=sometimes: exit %d\n%s", in, r.Code, r.Log)
			}
		}
	})

	t.Run("503 then 200 succeeds", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		gh.AddFault(githubtest.Fault{Method: "POST", Path: "/repos/acme/widgets/check-runs", Status: 503, Times: 1})
		w := newWorkspace(t, gh.URL, 0, "")
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 2)
		r := w.Run(t, step)
		if r.Code != 1 || len(gh.CheckRuns()) != 1 || r.Outputs["check-url"] == "" {
			t.Fatalf("exit %d, check runs %d, check-url %q\n%s", r.Code, len(gh.CheckRuns()), r.Outputs["check-url"], r.Log)
		}
		if cr := gh.CheckRuns()[0]; cr.HeadSHA != mergeSHA {
			t.Errorf("push check run on %s, want GITHUB_SHA", cr.HeadSHA)
		}
		if strings.Contains(r.Log, "::warning") {
			t.Errorf("a recovered 503 left a warning:\n%s", r.Log)
		}
	})

	t.Run("persistent 500 ends within the bound", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		gh.AddFault(githubtest.Fault{Status: 500, Body: `{"message":"Server Error"}`})
		w := newWorkspace(t, gh.URL, 9, repoName)
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 3, 0)
		start := time.Now()
		r := w.Run(t, step)
		if elapsed := time.Since(start); elapsed > 10*time.Second {
			t.Errorf("took %s with a 3s API budget", elapsed)
		}
		if r.Code != 1 {
			t.Errorf("exit %d, want 1 (by fail-on only)", r.Code)
		}
		if r.Outputs["failed"] != "3" || r.Summary == "" {
			t.Errorf("results not on disk: outputs %v", r.Outputs)
		}
		for _, f := range []string{"drp2-fixtures-junit.xml", "drp2-fixtures.json"} {
			if _, err := os.Stat(filepath.Join(w.Dir, f)); err != nil {
				t.Errorf("%s not written: %v", f, err)
			}
		}
		var warnings []string
		for _, line := range strings.Split(r.Log, "\n") {
			if strings.HasPrefix(line, "::warning") {
				warnings = append(warnings, line)
			}
		}
		// The check run giving up does not stop the comment: each says
		// what became of it.
		if len(warnings) != 2 || !strings.Contains(warnings[0], "Check run not published") || !strings.Contains(warnings[1], "Pull request comment not published") {
			t.Errorf("want a warning for the check run and one for the comment, got %q", warnings)
		}
		for _, w := range warnings {
			if !strings.Contains(w, "gave up after") || !strings.Contains(w, "500") {
				t.Errorf("the warning does not say why: %q", w)
			}
		}
		if !strings.Contains(r.Log, "::error file=corpus/positive/") {
			t.Errorf("annotations did not fall back to workflow commands")
		}
		if !strings.Contains(r.Summary, "Check run not published") {
			t.Errorf("the job summary does not say the check run failed")
		}
	})
}

func TestUnusableInputsExitTwo(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	for input, value := range map[string]string{
		"INPUT_COMMENT": "sometimes", "INPUT_ANNOTATIONS": "everywhere", "INPUT_FAIL-ON": "always",
		"INPUT_CHECK-RUN-ID": "abc", "INPUT_CORPUS": "no/such/dir",
	} {
		w := newWorkspace(t, gh.URL, 7, repoName)
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 1)
		w.Env[input] = value
		r := w.Run(t, inProcess)
		if r.Code != 2 {
			t.Errorf("%s=%q: exit %d, want 2\n%s", input, value, r.Code, r.Log)
		}
		if !strings.Contains(r.Log, "::error") {
			t.Errorf("%s=%q: no error line", input, value)
		}
	}
	if len(gh.Requests()) != 0 {
		t.Errorf("unusable inputs still called GitHub")
	}
}

func TestTokenIsMaskedFirst(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	_, log := inProcess(t, w)
	if !strings.HasPrefix(log, "::add-mask::"+token+"\n") {
		t.Errorf("the log does not start by masking the token: %.80q", log)
	}
}

// The job's own check run gets the results as its output; GitHub Actions
// completes it from the step's exit code, and refuses a token that tries.
func TestUpdatesTheJobCheckRun(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	id := gh.JobCheckRun("conformance", headSHA)
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_CHECK-RUN-ID"] = "1001"
	if id != 1001 {
		t.Fatalf("seeded id %d", id)
	}
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 1)
	r := w.Run(t, inProcess)
	if r.Code != 1 {
		t.Errorf("exit %d, want 1: the step's exit code is the job's conclusion", r.Code)
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || runs[0].Name != "conformance" || runs[0].Status != "in_progress" || runs[0].Conclusion != "" ||
		runs[0].Title == "" || len(runs[0].Annotations) != 1 {
		t.Errorf("check runs = %+v", runs)
	}
	if want := githubtest.WebURL + "/acme/widgets/runs/1001"; r.Outputs["check-url"] != want {
		t.Errorf("check-url = %q, want %q", r.Outputs["check-url"], want)
	}
	if strings.Contains(r.Log, "::warning") || strings.Contains(r.Log, "::error file=") {
		t.Errorf("publishing to the job's check run warned or fell back to the log:\n%s", r.Log)
	}
}

func TestWorkflowRunFindsThePullRequestByHeadSHA(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	gh.AddPull(12, headSHA)
	w := newWorkspace(t, gh.URL, 0, "")
	w.Env["GITHUB_EVENT_NAME"] = "workflow_run"
	os.WriteFile(w.Event, []byte(`{"workflow_run": {"head_sha": "`+headSHA+`", "pull_requests": []}}`), 0o644)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 0)
	r := w.Run(t, inProcess)
	if len(gh.Comments(12)) != 1 || gh.CheckRuns()[0].HeadSHA != headSHA {
		t.Errorf("comments on #12: %d; log:\n%s", len(gh.Comments(12)), r.Log)
	}
}

func TestRunsOutsideActions(t *testing.T) {
	// No GITHUB_OUTPUT, no summary, no token: a local run must not panic.
	w := &sandbox{Dir: t.TempDir()}
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	w.Env = map[string]string{"INPUT_CORPUS": "corpus"}
	code, log := inProcess(t, w)
	if code != 0 {
		t.Errorf("exit %d\n%s", code, log)
	}
}

func TestContextCancelledStopsPublishing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("linux only")
	}
	gh := githubtest.New(t, githubtest.Options{Token: token})
	gh.AddFault(githubtest.Fault{Hang: true})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env[action.EnvBudget] = "1m"
	w.Env[action.EnvAttemptTimeout] = "1m"
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	runAt(t, ctx, w, fixedNow)
	if time.Since(start) > 5*time.Second {
		t.Errorf("cancellation did not stop publishing")
	}
}

// A rerun with the same results, hours later, leaves a "changes" comment
// alone: the body must not depend on when the run happened.
func TestChangesModeLeavesAnUnchangedComment(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_COMMENT"] = "changes"
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 1)
	at := func(now time.Time) stepRunner {
		return func(t *testing.T, w *sandbox) (int, string) {
			return runAt(t, context.Background(), w, now)
		}
	}
	w.Run(t, at(fixedNow))
	if len(gh.Comments(7)) != 1 {
		t.Fatalf("comments = %d, want 1", len(gh.Comments(7)))
	}
	gh.ResetRequests()
	r := w.Run(t, at(fixedNow.Add(3*time.Hour)))
	if sawRequest(gh, "PATCH", "/repos/acme/widgets/issues/comments/") || sawRequest(gh, "POST", "/repos/acme/widgets/issues/7/comments") {
		t.Errorf("an unchanged result rewrote the comment")
	}
	if r.Outputs["comment-url"] == "" {
		t.Errorf("comment-url is empty although the comment exists")
	}
}

// An API URL the client cannot use publishes nothing, says so once, and
// still puts the annotations in the log.
func TestUnusableAPIURLFallsBackToTheLog(t *testing.T) {
	w := newWorkspace(t, "ftp://github.example", 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 1)
	r := w.Run(t, inProcess)
	if r.Code != 1 {
		t.Errorf("exit %d, want 1 (by fail-on only)", r.Code)
	}
	if n := strings.Count(r.Log, "::warning title=drp2-fixtures::GitHub not updated"); n != 1 {
		t.Errorf("%d warnings about the API URL, want 1:\n%s", n, r.Log)
	}
	if n := strings.Count(r.Log, "::error file=corpus/positive/"); n != 2 {
		t.Errorf("%d annotations in the log, want 2", n)
	}
	if !strings.Contains(r.Summary, "Check run and pull request comment skipped") {
		t.Errorf("the job summary does not say what was skipped")
	}
}
