package github

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
)

const testToken = "ghs_secretTOKENvalue123"

var repo = Repo{Owner: "acme", Name: "widgets"}

// fakeClock advances only when slept on, so retries take no real time.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept = append(c.slept, d)
	return ctx.Err()
}

func (c *fakeClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

func testPacing(clock *fakeClock) Pacing {
	return Pacing{
		Budget:         2 * time.Minute,
		AttemptTimeout: 2 * time.Second,
		WriteInterval:  -1,
		Now:            clock.Now,
		Sleep:          clock.Sleep,
	}
}

func newClient(t *testing.T, srv *githubtest.Server, p Pacing) *Client {
	t.Helper()
	c, err := New(Options{APIURL: srv.URL, Token: testToken, Pacing: p})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func annotations(n int) []annotation.Annotation {
	out := make([]annotation.Annotation, n)
	for i := range out {
		out[i] = annotation.Annotation{
			Path: fmt.Sprintf("fixtures/negative/case_%03d.json", i), StartLine: i + 1, EndLine: i + 1,
			StartColumn: 3, EndColumn: 9, Level: annotation.LevelFailure,
			Title: fmt.Sprintf("case_%03d", i), Message: "expected error, got success",
		}
	}
	return out
}

func TestCreateCheckRunSendsAnnotationsInBatchesOfFifty(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishCheck(context.Background(), Check{
		Repo: repo, Name: "DRP2 fixtures", HeadSHA: "abc123", Conclusion: "failure",
		CompletedAt: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		Title:       "120 of 125 fixtures failed", Summary: "summary", Annotations: annotations(120),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 3 {
		t.Errorf("requests = %d, want 3", res.Requests)
	}
	runs := srv.CheckRuns()
	if len(runs) != 1 {
		t.Fatalf("check runs = %d, want 1", len(runs))
	}
	got := runs[0]
	if fmt.Sprint(got.Batches) != "[50 50 20]" {
		t.Errorf("batches = %v, want [50 50 20]", got.Batches)
	}
	if got.Name != "DRP2 fixtures" || got.HeadSHA != "abc123" || got.Status != "completed" || got.Conclusion != "failure" {
		t.Errorf("check run = %+v", got)
	}
	if got.CompletedAt != "2025-03-01T12:00:00Z" {
		t.Errorf("completed_at = %q", got.CompletedAt)
	}
	if got.Annotations[119].Path != "fixtures/negative/case_119.json" || got.Annotations[0].StartColumn != 3 {
		t.Errorf("annotations not sent in order: %+v", got.Annotations[119])
	}
	if res.URL != githubtest.WebURL+fmt.Sprintf("/acme/widgets/runs/%d", res.ID) {
		t.Errorf("url = %q", res.URL)
	}
	for _, r := range srv.Requests() {
		if r.Auth != "Bearer "+testToken {
			t.Errorf("%s %s: Authorization = %q", r.Method, r.Path, r.Auth)
		}
	}
}

// A check run an earlier step created with the token is completed, under
// its own name.
func TestCompleteExistingCheckRunKeepsItsName(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	id := srv.SeedCheckRun("conformance (ubuntu-latest)", "head1")
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishCheck(context.Background(), Check{
		Repo: repo, ID: id, Name: "ignored when updating", HeadSHA: "head1", Conclusion: "success",
		Title: "all passed", Summary: "ok", Annotations: annotations(51),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != id || res.Requests != 2 {
		t.Errorf("result = %+v, want id %d and 2 requests", res, id)
	}
	got := srv.CheckRuns()[0]
	if got.Name != "conformance (ubuntu-latest)" || got.Conclusion != "success" || fmt.Sprint(got.Batches) != "[50 1]" {
		t.Errorf("check run = %+v", got)
	}
	var methods []string
	for _, r := range srv.Requests() {
		methods = append(methods, r.Method)
		if r.Method == http.MethodPatch && !strings.Contains(string(r.Body), `"name":"conformance (ubuntu-latest)"`) {
			t.Errorf("update without the current name: %s", r.Body)
		}
	}
	if strings.Join(methods, " ") != "GET PATCH PATCH" {
		t.Errorf("methods = %v", methods)
	}
}

// The job's own check run gets its output only: github.com refuses a
// token that sets its status, conclusion or completion time.
func TestJobCheckRunGetsOutputOnly(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	id := srv.JobCheckRun("conformance (ubuntu-latest)", "head1")
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishCheck(context.Background(), Check{
		Repo: repo, ID: id, JobRun: true, Name: "ignored", HeadSHA: "head1", Conclusion: "failure",
		CompletedAt: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		Title:       "51 of 51 fixtures failed", Summary: "the summary", Text: "the text", Annotations: annotations(51),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != id || res.Requests != 2 || res.URL == "" {
		t.Errorf("result = %+v, want id %d, 2 requests and a URL", res, id)
	}
	got := srv.CheckRuns()[0]
	if got.Name != "conformance (ubuntu-latest)" || got.Status != "in_progress" || got.Conclusion != "" || got.CompletedAt != "" {
		t.Errorf("check run = %+v, want it named and in progress as Actions left it", got)
	}
	if got.Title != "51 of 51 fixtures failed" || got.Summary != "the summary" || got.Text != "the text" || fmt.Sprint(got.Batches) != "[50 1]" {
		t.Errorf("output = %q %q %q, batches %v", got.Title, got.Summary, got.Text, got.Batches)
	}
	for _, r := range srv.Requests() {
		for _, field := range []string{`"status"`, `"conclusion"`, `"completed_at"`} {
			if strings.Contains(string(r.Body), field) {
				t.Errorf("%s %s sends %s: %s", r.Method, r.Path, field, r.Body)
			}
		}
	}
}

// Completing the job's check run anyway gets github.com's 403, which is
// its own kind of error: no permission would allow it.
func TestCompletingTheJobCheckRunIsRefusedAsActionsOwned(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	id := srv.JobCheckRun("conformance", "head1")
	c := newClient(t, srv, testPacing(newClock()))
	_, err := c.PublishCheck(context.Background(), Check{Repo: repo, ID: id, HeadSHA: "head1", Conclusion: "success", Summary: "ok"})
	var ao *ActionsOwnedError
	if !errors.As(err, &ao) || ao.CheckRunID != id || !ActionsOwned(err) {
		t.Fatalf("err = %v, want an ActionsOwnedError for %d", err, id)
	}
	if Forbidden(err) {
		t.Errorf("Forbidden(%v) = true: the advice to grant checks: write would be wrong", err)
	}
	if StatusCode(err) != http.StatusForbidden || !strings.Contains(err.Error(), githubtest.ActionsOwnedMessage) {
		t.Errorf("error does not carry GitHub's answer: %v", err)
	}
	if got := srv.CheckRuns()[0]; got.Status != "in_progress" || got.Conclusion != "" {
		t.Errorf("the fake let the token complete the job's check run: %+v", got)
	}
	// Any other 403 is still a permission refusal.
	srv.AddFault(githubtest.Fault{Status: 403, Body: `{"message":"Resource not accessible by integration"}`})
	_, err = c.PublishCheck(context.Background(), Check{Repo: repo, ID: id, JobRun: true, Summary: "ok"})
	if !Forbidden(err) || ActionsOwned(err) {
		t.Errorf("a plain 403: Forbidden %v, ActionsOwned %v", Forbidden(err), ActionsOwned(err))
	}
}

// The fake refuses what github.com refuses: a completed status without a
// conclusion.
func TestFakeRefusesCompletionWithoutConclusion(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	c := newClient(t, srv, testPacing(newClock()))
	_, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "n", HeadSHA: "s", Summary: "x"})
	if StatusCode(err) != http.StatusUnprocessableEntity {
		t.Errorf("err = %v, want 422", err)
	}
}

func TestCheckRunFieldsAreTrimmedToGitHubLimits(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	c := newClient(t, srv, testPacing(newClock()))
	big := strings.Repeat("é", 40000) // 80000 bytes
	_, err := c.PublishCheck(context.Background(), Check{
		Repo: repo, Name: "n", HeadSHA: "s", Conclusion: "failure", Title: strings.Repeat("t", 400),
		Summary: big, Text: big,
		Annotations: []annotation.Annotation{{
			Path: "a.json", StartLine: 2, EndLine: 5, StartColumn: 1, EndColumn: 4,
			Title: strings.Repeat("x", 300), Message: big + big, RawDetails: big,
		}, {Path: "b.json", Title: "no lines"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.CheckRuns()[0]
	if len(got.Summary) > escape.CheckOutputBytes || !utf8.ValidString(got.Summary) || !strings.HasSuffix(got.Summary, truncatedNote) {
		t.Errorf("summary: %d bytes, valid UTF-8 %v", len(got.Summary), utf8.ValidString(got.Summary))
	}
	if utf8.RuneCountInString(got.Title) > escape.CheckTitleChars {
		t.Errorf("title has %d characters", utf8.RuneCountInString(got.Title))
	}
	a := got.Annotations[0]
	if utf8.RuneCountInString(a.Title) != escape.AnnotationTitleChars || len(a.Message) > escape.AnnotationDetailBytes {
		t.Errorf("annotation title %d chars, message %d bytes", utf8.RuneCountInString(a.Title), len(a.Message))
	}
	if a.StartColumn != 0 || a.EndColumn != 0 {
		t.Errorf("columns kept on a multi-line annotation: %+v", a)
	}
	b := got.Annotations[1]
	if b.StartLine != 1 || b.EndLine != 1 || b.Message != "no lines" || b.AnnotationLevel != "failure" {
		t.Errorf("defaults not applied: %+v", b)
	}
}

func TestEnterpriseServerAPIPrefix(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken, Prefix: "/api/v3"})
	if !strings.HasSuffix(srv.URL, "/api/v3") {
		t.Fatalf("fake URL %q", srv.URL)
	}
	c := newClient(t, srv, testPacing(newClock()))
	if _, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "n", HeadSHA: "s", Conclusion: "success", Summary: "x"}); err != nil {
		t.Fatal(err)
	}
	if len(srv.CheckRuns()) != 1 {
		t.Fatal("no check run created under /api/v3")
	}
}

func TestNewRejectsBadAPIURL(t *testing.T) {
	for _, u := range []string{"ftp://x", "::", "http://"} {
		if _, err := New(Options{APIURL: u}); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
}

func TestParseRepo(t *testing.T) {
	if r, err := ParseRepo("acme/widgets"); err != nil || r != repo || r.String() != "acme/widgets" {
		t.Errorf("ParseRepo = %v, %v", r, err)
	}
	for _, s := range []string{"", "acme", "/w", "a/", "a/b/c"} {
		if _, err := ParseRepo(s); err == nil {
			t.Errorf("ParseRepo(%q) succeeded", s)
		}
	}
}

// Without GITHUB_API_URL the client talks to github.com's API.
func TestDefaultAPIURLIsGitHubCom(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.gh.BaseURL.String(); got != "https://api.github.com/" {
		t.Errorf("base URL = %q", got)
	}
}

// TestNoRequestBodyCarriesASecret: the check run and the comment never
// publish the token, nor another secret the client was given, in any
// encoding, whatever text carries it (an implementation's stderr, a
// message).
func TestNoRequestBodyCarriesASecret(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	const other = "another-secret-value"
	c, err := New(Options{APIURL: srv.URL, Token: testToken, Pacing: testPacing(newClock()), Redact: secret.NewRedactor(other)})
	if err != nil {
		t.Fatal(err)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + testToken))
	leak := "stderr: " + testToken + " AUTHORIZATION: basic " + basic + " " + other
	anns := annotations(2)
	anns[0].Message, anns[1].RawDetails, anns[1].Title = leak, leak, leak
	if _, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "DRP2", HeadSHA: "abc", Conclusion: "failure",
		Title: leak, Summary: leak, Text: leak, Annotations: anns}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: "<!-- m -->", Body: leak, Mode: CommentAlways}); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.Requests() {
		for _, s := range []string{testToken, basic[20:40], other} {
			if strings.Contains(string(r.Body), s) {
				t.Errorf("%s %s carries %q: %s", r.Method, r.Path, s, r.Body)
			}
		}
	}
	if cs := srv.Comments(7); len(cs) != 1 || !strings.Contains(cs[0].Body, "stderr: *** AUTHORIZATION") {
		t.Errorf("%+v", cs)
	}
}

// TestAppTokenCreatesItsOwnCheckRun: a GitHub App's token may not touch
// the job's check run, which GitHub Actions' App created (403 "Invalid
// app_id"); the results go to a check run of the App's own on the head
// commit instead, completed with the run's conclusion.
func TestAppTokenCreatesItsOwnCheckRun(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken, App: "drp2-gate"})
	id := srv.JobCheckRun("conformance (ubuntu-latest)", "head1")
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishCheck(context.Background(), Check{
		Repo: repo, ID: id, JobRun: true, Name: "DRP2 fixtures", HeadSHA: "head1", Conclusion: "failure",
		CompletedAt: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		Title:       "51 of 51 fixtures failed", Summary: "the summary", Annotations: annotations(51),
	})
	if err != nil {
		t.Fatal(err)
	}
	runs := srv.CheckRuns()
	if len(runs) != 2 || res.ID != runs[1].ID || res.URL == "" {
		t.Fatalf("result %+v, check runs %+v", res, runs)
	}
	got := runs[1]
	if got.Name != "DRP2 fixtures" || got.HeadSHA != "head1" || got.Conclusion != "failure" || got.Title != "51 of 51 fixtures failed" || fmt.Sprint(got.Batches) != "[50 1]" {
		t.Errorf("check run = %+v", got)
	}
	if runs[0].Title != "" {
		t.Errorf("the job's check run was changed: %+v", runs[0])
	}
}
