package githubtest

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

const token = "ghs_fake"

func send(t *testing.T, s *Server, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The job's check run takes output, but no status, conclusion or
// completion time, each refused on its own.
func TestJobCheckRunRefusesCompletion(t *testing.T) {
	s := New(t, Options{Token: token})
	id := s.JobCheckRun("build", "sha")
	path := "/repos/o/r/check-runs/" + itoa(id)
	for _, field := range []string{`"status":"completed","conclusion":"success"`, `"conclusion":"failure"`,
		`"completed_at":"2025-04-01T00:00:00Z"`, `"status":"in_progress"`} {
		code, body := send(t, s, "PATCH", path, `{"name":"build",`+field+`}`)
		if code != http.StatusForbidden || !strings.Contains(body, ActionsOwnedMessage) {
			t.Errorf("PATCH with %s: %d %s", field, code, body)
		}
	}
	code, body := send(t, s, "PATCH", path, `{"name":"build","output":{"title":"t","summary":"s"}}`)
	if code != http.StatusOK {
		t.Errorf("output-only update: %d %s", code, body)
	}
	if got := s.CheckRuns()[0]; got.Status != "in_progress" || got.Title != "t" {
		t.Errorf("check run = %+v", got)
	}
	// A check run the token created itself may be completed.
	other := s.SeedCheckRun("mine", "sha")
	if code, body := send(t, s, "PATCH", "/repos/o/r/check-runs/"+itoa(other), `{"name":"mine","status":"completed","conclusion":"success"}`); code != http.StatusOK {
		t.Errorf("completing a seeded check run: %d %s", code, body)
	}
}

func TestCheckRunValidation(t *testing.T) {
	s := New(t, Options{Token: token})
	for _, body := range []string{
		`{"name":"n","head_sha":"s","status":"completed"}`,
		`{"name":"n","head_sha":"s","output":{"title":"t"}}`,
		`{"name":"n","head_sha":"s","output":{"title":"t","summary":"s","annotations":[{"path":"a","start_line":1,"end_line":1,"annotation_level":"error","message":"m"}]}}`,
		`{"name":"n","head_sha":"s","output":{"title":"t","summary":"s","annotations":[{"path":"a","start_line":1,"end_line":1,"annotation_level":"failure","message":"` + strings.Repeat("m", 64*1024+1) + `"}]}}`,
	} {
		if code, _ := send(t, s, "POST", "/repos/o/r/check-runs", body); code != http.StatusUnprocessableEntity {
			t.Errorf("%.120s: %d, want 422", body, code)
		}
	}
	if len(s.CheckRuns()) != 0 {
		t.Errorf("a refused request created a check run")
	}
}

func TestSecondaryRateLimitOnWrites(t *testing.T) {
	s := New(t, Options{Token: token})
	for i := range writesPerMinute {
		if code, body := send(t, s, "POST", "/repos/o/r/issues/1/comments", `{"body":"x"}`); code != http.StatusCreated {
			t.Fatalf("write %d: %d %s", i+1, code, body)
		}
	}
	if code, body := send(t, s, "POST", "/repos/o/r/issues/1/comments", `{"body":"x"}`); code != http.StatusForbidden || !strings.Contains(body, "secondary rate limit") {
		t.Errorf("write %d: %d %s, want 403 secondary rate limit", writesPerMinute+1, code, body)
	}
	if code, _ := send(t, s, "GET", "/repos/o/r/issues/1/comments", ""); code != http.StatusOK {
		t.Errorf("a read was limited: %d", code)
	}
	if n := len(s.Comments(1)); n != writesPerMinute {
		t.Errorf("comments = %d", n)
	}
}

func TestListsArePaginatedWithLink(t *testing.T) {
	s := New(t, Options{Token: token, PageSize: 2})
	for n := 1; n <= 5; n++ {
		s.AddPull(n, "sha")
	}
	req, _ := http.NewRequest("GET", s.URL+"/repos/o/r/pulls?per_page=100&page=2", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(resp.Header.Get("Link"), `page=3&per_page=100>; rel="next"`) || strings.Count(string(b), `"number"`) != 2 {
		t.Errorf("page 2: Link %q, body %s", resp.Header.Get("Link"), b)
	}
}

func TestDeleteComment(t *testing.T) {
	s := New(t, Options{Token: token, Login: "me"})
	mine := s.AddComment(1, "me", "x")
	theirs := s.AddComment(1, "you", "y")
	if code, _ := send(t, s, "DELETE", "/repos/o/r/issues/comments/"+itoa(theirs), ""); code != http.StatusForbidden {
		t.Errorf("deleting another's comment: %d", code)
	}
	if code, _ := send(t, s, "DELETE", "/repos/o/r/issues/comments/"+itoa(mine), ""); code != http.StatusNoContent {
		t.Errorf("deleting my comment: %d", code)
	}
	if code, _ := send(t, s, "PATCH", "/repos/o/r/issues/comments/"+itoa(mine), `{"body":"z"}`); code != http.StatusNotFound {
		t.Errorf("editing a deleted comment: %d, want 404", code)
	}
	if got := s.Comments(1); len(got) != 1 || got[0].ID != theirs {
		t.Errorf("comments = %+v", got)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// An App's installation token: no GET /user, no GET /app (that needs the
// App's JWT), but GraphQL names its bot, which writes its comments, and
// the jobs' check runs belong to another App. GITHUB_TOKEN is the
// installation token of GitHub Actions' App.
func TestAppInstallationToken(t *testing.T) {
	s := New(t, Options{Token: token, App: "drp2-gate"})
	if code, body := send(t, s, "GET", "/user", ""); code != http.StatusForbidden || !strings.Contains(body, "not accessible by integration") {
		t.Errorf("GET /user: %d %s", code, body)
	}
	if code, body := send(t, s, "GET", "/app", ""); code != http.StatusUnauthorized || !strings.Contains(body, "JSON web token") {
		t.Errorf("GET /app: %d %s", code, body)
	}
	if code, body := send(t, s, "POST", "/graphql", `{"query":"query { viewer { login } }"}`); code != http.StatusOK || body != `{"data":{"viewer":{"login":"drp2-gate[bot]"}}}`+"\n" {
		t.Errorf("viewer: %d %s", code, body)
	}
	if code, body := send(t, s, "POST", "/repos/o/r/issues/7/comments", `{"body":"hi"}`); code != http.StatusCreated || !strings.Contains(body, `"login":"drp2-gate[bot]","type":"Bot"`) {
		t.Errorf("comment: %d %s", code, body)
	}
	id := s.JobCheckRun("build", "sha")
	if code, body := send(t, s, "PATCH", "/repos/o/r/check-runs/"+itoa(id), `{"name":"build","output":{"title":"t","summary":"s"}}`); code != http.StatusForbidden ||
		!strings.Contains(body, "can only be modified by the GitHub App that created it") {
		t.Errorf("job check run: %d %s", code, body)
	}

	actions := New(t, Options{Token: token})
	if code, body := send(t, actions, "POST", "/graphql", `{"query":"{viewer{login}}"}`); code != http.StatusOK || !strings.Contains(body, `"login":"github-actions[bot]"`) {
		t.Errorf("GITHUB_TOKEN's viewer: %d %s", code, body)
	}
	ghes := New(t, Options{Token: token, Prefix: "/api/v3", App: "drp2-gate"})
	if code, _ := send(t, ghes, "POST", "/graphql", `{"query":"{viewer{login}}"}`); code != http.StatusNotFound {
		t.Errorf("Enterprise Server answered GraphQL under /api/v3: %d", code)
	}
	req, _ := http.NewRequest("POST", strings.TrimSuffix(ghes.URL, "/v3")+"/graphql", strings.NewReader(`{"query":"{viewer{login}}"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("Enterprise Server /api/graphql: %d", resp.StatusCode)
	}
}

// Chaos draws the same faults for the same requests under one seed, and
// a fault after apply changes the fake's state though the answer is lost.
func TestChaosIsRepeatableAndAppliesFirst(t *testing.T) {
	draws := func() ([]ChaosEvent, int) {
		s := New(t, Options{Token: token})
		s.SetChaos(Chaos{Seed: 7, Rate: 0.5, Kinds: []ChaosKind{DropAfterApply, ServerErrorAfterApply, Malformed}})
		for range 20 {
			req, _ := http.NewRequest("POST", s.URL+"/repos/o/r/issues/1/comments", strings.NewReader(`{"body":"x"}`))
			req.Header.Set("Authorization", "Bearer "+token)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		return s.ChaosEvents(), len(s.Comments(1))
	}
	first, n := draws()
	again, _ := draws()
	if len(first) == 0 || len(first) == 20 || fmt.Sprint(first) != fmt.Sprint(again) {
		t.Errorf("draws %v then %v", first, again)
	}
	if n != 20 {
		t.Errorf("%d comments, want 20: every fault here comes after the request is applied", n)
	}
}

// A comment needs an issue to belong to: a run that belongs to no pull
// request has no number, and github.com answers 404 to what the path
// would then hold.
func TestCommentNeedsAnIssue(t *testing.T) {
	s := New(t, Options{Token: token})
	for _, number := range []string{"0", "-7", "", "null"} {
		path := "/repos/o/r/issues/" + number + "/comments"
		if code, body := send(t, s, "POST", path, `{"body":"hello"}`); code != http.StatusNotFound {
			t.Errorf("POST %s: %d %s, want 404", path, code, body)
		}
		if code, body := send(t, s, "GET", path, ""); code != http.StatusNotFound {
			t.Errorf("GET %s: %d %s, want 404", path, code, body)
		}
	}
	if code, body := send(t, s, "POST", "/repos/o/r/issues/7/comments", `{"body":"hello"}`); code != http.StatusCreated || len(s.Comments(7)) != 1 {
		t.Errorf("a comment on pull request 7: %d %s", code, body)
	}
}
