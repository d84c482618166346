// Package githubtest is a fake GitHub REST API for tests: it keeps check
// runs and issue comments in memory, enforces the limits GitHub enforces,
// records every request with its body, and injects faults.
//
// It must refuse whatever github.com refuses: a request only the fake
// accepts is a bug in the fake, since the client would pass its tests and
// fail in use. So it refuses a token that completes the job's own check
// run (JobCheckRun), more than 80 writes a minute, and malformed check run
// output; it paginates lists with a Link header; and OnRequest lets a test
// act between two requests of the client, as a concurrent run or a person
// would (create a comment first, delete one before it is edited).
package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// WebURL is the web host the fake uses in html_url values.
const WebURL = "https://github.example"

// Request is one request the fake received.
type Request struct {
	Method   string
	Path     string // without the API prefix
	RawQuery string
	Auth     string
	Body     []byte
}

// Fault replaces the answer to matching requests.
type Fault struct {
	Method string // "" matches any
	Path   string // path prefix without the API prefix; "" matches any
	Status int
	Header map[string]string
	Body   string
	// Hang never answers: the handler waits until the client goes away.
	Hang bool
	// Reset closes the connection without an answer.
	Reset bool
	// Times is how many requests the fault answers; 0 means all.
	Times int
	// AfterApply applies the request first, as github.com does when an
	// answer is lost on the way back: the fault then replaces the answer.
	AfterApply bool
}

// Annotation is a check run annotation as sent.
type Annotation struct {
	Path            string `json:"path"`
	StartLine       int    `json:"start_line"`
	EndLine         int    `json:"end_line"`
	StartColumn     int    `json:"start_column"`
	EndColumn       int    `json:"end_column"`
	AnnotationLevel string `json:"annotation_level"`
	Title           string `json:"title"`
	Message         string `json:"message"`
	RawDetails      string `json:"raw_details"`
}

// checkRunBody is a create or update request; pointers tell a field sent
// from one left out.
type checkRunBody struct {
	Name        *string `json:"name"`
	HeadSHA     string  `json:"head_sha"`
	ExternalID  *string `json:"external_id"`
	Status      *string `json:"status"`
	Conclusion  *string `json:"conclusion"`
	CompletedAt *string `json:"completed_at"`
	Output      *struct {
		Title       *string      `json:"title"`
		Summary     *string      `json:"summary"`
		Text        string       `json:"text"`
		Annotations []Annotation `json:"annotations"`
	} `json:"output"`
}

// CheckRun is a check run as the fake holds it.
type CheckRun struct {
	ID          int64
	Name        string
	HeadSHA     string
	ExternalID  string
	Status      string
	Conclusion  string
	CompletedAt string
	Title       string
	Summary     string
	Text        string
	Annotations []Annotation
	// Batches is the number of annotations in each request that sent some.
	Batches []int
	// ActionsOwned marks a check run that GitHub Actions created (a job's
	// own): a token may update its output but not complete it.
	ActionsOwned bool
}

// Comment is an issue comment as the fake holds it.
type Comment struct {
	ID     int64
	Number int
	Login  string
	Body   string
}

// Server is the fake GitHub.
type Server struct {
	// URL is the API base URL (GITHUB_API_URL).
	URL string
	srv *httptest.Server

	// Prefix is the API path prefix ("/api/v3" on Enterprise Server).
	prefix string

	mu       sync.Mutex
	token    string
	login    string // "" answers GET /user with 403, as for an installation token
	app      string // the slug of the App whose installation token this is
	pageSize int
	pulls    map[int]string // open pull request number → head SHA
	chaos    *chaos
	requests []Request
	checks   map[int64]*CheckRun
	comments []*Comment
	nextID   int64
	faults   []*Fault
	hooks    []*hook
	writes   []time.Time // when recent writes arrived, for the secondary limit
	readOnly bool
	now      func() time.Time
	gone     chan struct{}
}

// writesPerMinute is GitHub's secondary rate limit on content-creating
// requests ("no more than 80 ... per minute", REST API rate limits).
const writesPerMinute = 80

// SecondaryLimitMessage is how GitHub refuses a request past a secondary
// rate limit.
const SecondaryLimitMessage = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."

// hook is a function run when a matching request arrives.
type hook struct {
	method, path string
	times        int
	fn           func()
}

// Options configure the fake.
type Options struct {
	Token string
	// Login of the token's user; "" makes GET /user answer 403.
	Login string
	// App makes the token a GitHub App's installation token (from
	// actions/create-github-app-token), App being the App's slug: GET
	// /user answers 403 and GET /app 401 (it needs the App's JWT), as for
	// GITHUB_TOKEN, but GraphQL's viewer and the comments it writes are
	// "<App>[bot]", and a check run GitHub Actions created is not its to
	// update. Without App or Login the token is GITHUB_TOKEN, the
	// installation token of GitHub Actions' own App.
	App string
	// Prefix is the API path prefix, e.g. "/api/v3".
	Prefix string
	// PageSize caps comments per page below per_page, to force pagination.
	PageSize int
	// ReadOnly answers every write as github.com answers a read-only
	// GITHUB_TOKEN (a Dependabot or fork pull request): 403 "Resource not
	// accessible by integration".
	ReadOnly bool
	// Now is the clock of the secondary limit on writes; nil means
	// time.Now. A test whose client waits on a virtual clock gives the
	// fake the same one.
	Now func() time.Time
}

// New starts a fake GitHub that is closed when the test ends.
func New(t testing.TB, opts Options) *Server {
	s := &Server{
		prefix:   strings.TrimRight(opts.Prefix, "/"),
		token:    opts.Token,
		login:    opts.Login,
		app:      opts.App,
		pageSize: opts.PageSize,
		readOnly: opts.ReadOnly,
		now:      opts.Now,
		pulls:    map[int]string{},
		checks:   map[int64]*CheckRun{},
		nextID:   1000,
		gone:     make(chan struct{}),
	}
	if s.pageSize <= 0 {
		s.pageSize = 100
	}
	if s.now == nil {
		s.now = time.Now
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /user", s.user)
	mux.HandleFunc("GET /app", s.getApp)
	mux.HandleFunc("POST "+s.graphqlPath(), s.graphql)
	mux.HandleFunc("POST /repos/{owner}/{repo}/check-runs", s.createCheck)
	mux.HandleFunc("GET /repos/{owner}/{repo}/check-runs/{id}", s.getCheck)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/check-runs/{id}", s.updateCheck)
	mux.HandleFunc("GET /repos/{owner}/{repo}/issues/{number}/comments", s.listComments)
	mux.HandleFunc("POST /repos/{owner}/{repo}/issues/{number}/comments", s.createComment)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/issues/comments/{id}", s.editComment)
	mux.HandleFunc("DELETE /repos/{owner}/{repo}/issues/comments/{id}", s.deleteComment)
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls", s.listPulls)
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}", s.getPull)
	mux.HandleFunc("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", s.commitChecks)
	s.srv = httptest.NewServer(s.handler(mux))
	s.URL = s.srv.URL + s.prefix
	t.Cleanup(s.Close)
	return s
}

// Close releases hanging handlers and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.gone:
	default:
		close(s.gone)
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// AddFault queues a fault; faults are tried in the order added.
func (s *Server) AddFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// OnRequest runs fn when a request with this method ("" any) and path
// prefix arrives, before the fake answers it; times is how many requests it
// runs for (0: all). It is how tests put what another actor does between
// two requests of the client: a concurrent run that creates its comment
// first (a POST hook that calls AddComment), a person who deletes the
// comment about to be edited (a PATCH hook that calls DeleteComment). fn
// runs without the fake's lock held, so it may call any method, and may
// block to line up concurrent clients.
func (s *Server) OnRequest(method, pathPrefix string, times int, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = append(s.hooks, &hook{method: method, path: pathPrefix, times: times, fn: fn})
}

// takeHooks returns the hooks matching a request; s.mu is held.
func (s *Server) takeHooks(method, path string) []func() {
	var fns []func()
	kept := s.hooks[:0]
	for _, h := range s.hooks {
		if (h.method == "" || h.method == method) && strings.HasPrefix(path, h.path) {
			fns = append(fns, h.fn)
			if h.times > 0 {
				h.times--
				if h.times == 0 {
					continue
				}
			}
		}
		kept = append(kept, h)
	}
	s.hooks = kept
	return fns
}

// DeleteComment removes a comment, as its author or a maintainer would in
// the browser. It reports whether the comment existed.
func (s *Server) DeleteComment(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.removeComment(id)
}

// removeComment deletes comment id; s.mu is held.
func (s *Server) removeComment(id int64) bool {
	for i, c := range s.comments {
		if c.ID == id {
			s.comments = append(s.comments[:i:i], s.comments[i+1:]...)
			return true
		}
	}
	return false
}

// AddPull adds an open pull request, or moves the head of one: a push to
// its branch.
func (s *Server) AddPull(number int, headSHA string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls[number] = headSHA
}

// AddComment adds a comment as if login had written it.
func (s *Server) AddComment(number int, login, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.comments = append(s.comments, &Comment{ID: s.nextID, Number: number, Login: login, Body: body})
	return s.nextID
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// CheckRuns returns the check runs in order of creation.
func (s *Server) CheckRuns() []CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]int64, 0, len(s.checks))
	for id := range s.checks {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]CheckRun, 0, len(ids))
	for _, id := range ids {
		c := *s.checks[id]
		c.Annotations = append([]Annotation(nil), c.Annotations...)
		c.Batches = append([]int(nil), c.Batches...)
		out = append(out, c)
	}
	return out
}

// SeedCheckRun adds an in-progress check run as if an earlier step had
// created it through the API with the same token: the token may complete it.
func (s *Server) SeedCheckRun(name, headSHA string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.checks[s.nextID] = &CheckRun{ID: s.nextID, Name: name, HeadSHA: headSHA, Status: "in_progress"}
	return s.nextID
}

// JobCheckRun adds the in-progress check run of a job, as GitHub Actions
// creates it (its id is job.check_run_id). Like github.com since
// 2025-03-31, the fake refuses with 403 any update of it that sends
// status, conclusion or completed_at; output-only updates are accepted.
func (s *Server) JobCheckRun(name, headSHA string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.checks[s.nextID] = &CheckRun{ID: s.nextID, Name: name, HeadSHA: headSHA, Status: "in_progress", ActionsOwned: true}
	return s.nextID
}

// ActionsOwnedMessage is github.com's answer to a token that tries to
// complete a check run GitHub Actions owns.
const ActionsOwnedMessage = "Check run status and conclusions can only be updated internally by GitHub Actions"

// Comments returns the comments of a pull request in order of creation.
func (s *Server) Comments(number int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Number == number {
			out = append(out, *c)
		}
	}
	return out
}

func (s *Server) handler(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := strings.CutPrefix(r.URL.Path, s.prefix)
		switch {
		case r.URL.Path == s.graphqlURLPath():
			path, ok = s.graphqlPath(), true
		case path == s.graphqlPath():
			ok = false // Enterprise Server has no GraphQL under /api/v3
		}
		if !ok || path == "" {
			writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, Request{Method: r.Method, Path: path, RawQuery: r.URL.RawQuery, Auth: r.Header.Get("Authorization"), Body: body})
		hooks := s.takeHooks(r.Method, path)
		s.mu.Unlock()
		for _, fn := range hooks {
			fn()
		}
		s.mu.Lock()
		f := s.takeFault(r.Method, path)
		s.mu.Unlock()
		if f != nil && !f.AfterApply {
			s.serveFault(w, r, f)
			return
		}
		if auth := r.Header.Get("Authorization"); auth != "Bearer "+s.token && auth != "token "+s.token {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && s.readOnly {
			writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration",
				"documentation_url": "https://docs.github.com/rest"})
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !s.allowWrite(s.now()) {
			writeSecondaryLimit(w)
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = path
		r2.Body = io.NopCloser(strings.NewReader(string(body)))
		if f != nil {
			mux.ServeHTTP(httptest.NewRecorder(), r2)
			s.serveFault(w, r, f)
			return
		}
		s.serveChaos(w, r2, mux)
	})
}

// allowWrite counts a write against the secondary limit and reports
// whether it is within it.
func (s *Server) allowWrite(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	recent := s.writes[:0]
	for _, t := range s.writes {
		if now.Sub(t) < time.Minute {
			recent = append(recent, t)
		}
	}
	s.writes = recent
	if len(s.writes) >= writesPerMinute {
		return false
	}
	s.writes = append(s.writes, now)
	return true
}

// takeFault returns the first fault matching the request; s.mu is held.
func (s *Server) takeFault(method, path string) *Fault {
	for i, f := range s.faults {
		if (f.Method != "" && f.Method != method) || !strings.HasPrefix(path, f.Path) {
			continue
		}
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return f
	}
	return nil
}

func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, f *Fault) {
	switch {
	case f.Hang:
		select {
		case <-r.Context().Done():
		case <-s.gone:
		}
		return
	case f.Reset:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic("githubtest: response writer cannot hijack")
		}
		conn, _, err := hj.Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	for k, v := range f.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	io.WriteString(w, f.Body)
}

// writeSecondaryLimit refuses a request as github.com refuses one past a
// secondary rate limit: 403, Retry-After, and the message.
func writeSecondaryLimit(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "60")
	writeJSON(w, http.StatusForbidden, map[string]string{"message": SecondaryLimitMessage,
		"documentation_url": "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func unprocessable(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": msg})
}

func (s *Server) user(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	login := s.login
	s.mu.Unlock()
	if login == "" {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration",
			"documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"login": login, "id": 1, "type": "User"})
}

// getApp answers GET /app as github.com does for any token that is not
// the App's JWT: installation tokens and personal tokens alike.
func (s *Server) getApp(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "A JSON web token could not be decoded",
		"documentation_url": "https://docs.github.com/rest"})
}

// graphqlPath is where the fake serves GraphQL, in the same terms as the
// REST paths (without the API prefix): github.com serves it at
// /graphql beside the REST API, Enterprise Server at /api/graphql, outside
// the REST prefix /api/v3.
func (s *Server) graphqlPath() string { return "/graphql" }

// graphqlURLPath is the URL path of GraphQL on this server.
func (s *Server) graphqlURLPath() string {
	if strings.HasSuffix(s.prefix, "/api/v3") {
		return strings.TrimSuffix(s.prefix, "/v3") + "/graphql"
	}
	return s.prefix + "/graphql"
}

// graphql answers the one query the fake knows, the token's viewer; any
// other query gets GraphQL's error answer (status 200, "errors").
func (s *Server) graphql(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Query string `json:"query"`
	}
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if !strings.Contains(q.Query, "viewer") || strings.Contains(q.Query, "mutation") {
		writeJSON(w, http.StatusOK, map[string]any{"errors": []map[string]string{{"message": "the fake answers only the viewer query"}}})
		return
	}
	s.mu.Lock()
	login := s.author()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"viewer": map[string]any{"login": login}}})
}

// validateOutput enforces the Checks API limits the fake knows.
func validateOutput(b *checkRunBody) string {
	if b.Output == nil {
		return ""
	}
	if n := len(b.Output.Annotations); n > 50 {
		return fmt.Sprintf("Invalid request.\n\nOnly 50 annotations are allowed per request. No more than 50 items are allowed; %d were supplied.", n)
	}
	if b.Output.Title == nil || b.Output.Summary == nil {
		return "Invalid request.\n\n\"title\" and \"summary\" are required in \"output\""
	}
	if len(*b.Output.Summary) > 65535 {
		return "Invalid request.\n\nsummary exceeds a maximum bytesize of 65535"
	}
	if len(b.Output.Text) > 65535 {
		return "Invalid request.\n\ntext exceeds a maximum bytesize of 65535"
	}
	for _, a := range b.Output.Annotations {
		if utf8.RuneCountInString(a.Title) > 255 {
			return "Invalid request.\n\nannotation title is too long (maximum is 255 characters)"
		}
		if a.Path == "" || a.StartLine < 1 || a.EndLine < a.StartLine || a.Message == "" || a.AnnotationLevel == "" {
			return "Invalid request.\n\nannotation is missing path, lines, level or message"
		}
		if a.AnnotationLevel != "notice" && a.AnnotationLevel != "warning" && a.AnnotationLevel != "failure" {
			return "Invalid request.\n\nannotation_level is not one of notice, warning, failure"
		}
		if len(a.Message) > 64*1024 || len(a.RawDetails) > 64*1024 {
			return "Invalid request.\n\nannotation message and raw_details are at most 64 KB"
		}
		if (a.StartColumn != 0 || a.EndColumn != 0) && a.StartLine != a.EndLine {
			return "Invalid request.\n\ncolumns are allowed only when start_line equals end_line"
		}
	}
	return ""
}

// validateCompletion enforces the Checks API rule that a completed check
// run has a conclusion.
func validateCompletion(b *checkRunBody) string {
	if b.Status != nil && *b.Status == "completed" && (b.Conclusion == nil || *b.Conclusion == "") {
		return "Invalid request.\n\n\"conclusion\" is required when \"status\" is \"completed\""
	}
	return ""
}

func (c *CheckRun) apply(b *checkRunBody) {
	if b.Status != nil {
		c.Status = *b.Status
	}
	if b.Conclusion != nil && *b.Conclusion != "" {
		// A conclusion completes the check run (Checks API).
		c.Conclusion, c.Status = *b.Conclusion, "completed"
	}
	if b.CompletedAt != nil {
		c.CompletedAt = *b.CompletedAt
	}
	if b.Output != nil {
		c.Title, c.Summary, c.Text = *b.Output.Title, *b.Output.Summary, b.Output.Text
		if n := len(b.Output.Annotations); n > 0 {
			c.Annotations = append(c.Annotations, b.Output.Annotations...)
			c.Batches = append(c.Batches, n)
		}
	}
}

func checkJSON(c *CheckRun, owner, repo string) map[string]any {
	return map[string]any{
		"id": c.ID, "name": c.Name, "head_sha": c.HeadSHA, "external_id": c.ExternalID, "status": c.Status, "conclusion": c.Conclusion,
		"html_url": fmt.Sprintf("%s/%s/%s/runs/%d", WebURL, owner, repo, c.ID),
		"output":   map[string]any{"title": c.Title, "summary": c.Summary, "annotations_count": len(c.Annotations)},
	}
}

func (s *Server) createCheck(w http.ResponseWriter, r *http.Request) {
	var b checkRunBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if b.Name == nil || *b.Name == "" || b.HeadSHA == "" {
		unprocessable(w, "Invalid request.\n\n\"name\" and \"head_sha\" are required")
		return
	}
	if msg := validateOutput(&b) + validateCompletion(&b); msg != "" {
		unprocessable(w, msg)
		return
	}
	s.mu.Lock()
	s.nextID++
	c := &CheckRun{ID: s.nextID, Name: *b.Name, HeadSHA: b.HeadSHA}
	if b.ExternalID != nil {
		c.ExternalID = *b.ExternalID
	}
	c.apply(&b)
	s.checks[c.ID] = c
	out := checkJSON(c, r.PathValue("owner"), r.PathValue("repo"))
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, out)
}

func (s *Server) check(w http.ResponseWriter, r *http.Request) *CheckRun {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	c := s.checks[id]
	if c == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	}
	return c
}

func (s *Server) getCheck(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.check(w, r); c != nil {
		writeJSON(w, http.StatusOK, checkJSON(c, r.PathValue("owner"), r.PathValue("repo")))
	}
}

func (s *Server) updateCheck(w http.ResponseWriter, r *http.Request) {
	var b checkRunBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.check(w, r)
	if c == nil {
		return
	}
	if c.ActionsOwned && s.app != "" {
		// Another App's installation token may not touch it at all.
		writeJSON(w, http.StatusForbidden, map[string]string{"message": fmt.Sprintf("Invalid app_id `%d` - check run can only be modified by the GitHub App that created it.", actionsAppID),
			"documentation_url": "https://docs.github.com/rest/checks/runs#update-a-check-run"})
		return
	}
	if c.ActionsOwned && (b.Status != nil || b.Conclusion != nil || b.CompletedAt != nil) {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": ActionsOwnedMessage,
			"documentation_url": "https://docs.github.com/rest/checks/runs#update-a-check-run"})
		return
	}
	if msg := validateOutput(&b) + validateCompletion(&b); msg != "" {
		unprocessable(w, msg)
		return
	}
	// GitHub renames a check run to whatever name an update sends,
	// including an empty one; tests assert that the name survives.
	if b.Name != nil {
		c.Name = *b.Name
	}
	if b.ExternalID != nil {
		c.ExternalID = *b.ExternalID
	}
	c.apply(&b)
	writeJSON(w, http.StatusOK, checkJSON(c, r.PathValue("owner"), r.PathValue("repo")))
}

func commentJSON(c *Comment, owner, repo string) map[string]any {
	kind := "User"
	if strings.HasSuffix(c.Login, "[bot]") {
		kind = "Bot"
	}
	return map[string]any{
		"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.Login, "type": kind},
		"html_url": fmt.Sprintf("%s/%s/%s/pull/%d#issuecomment-%d", WebURL, owner, repo, c.Number, c.ID),
	}
}

// paginate picks the page of n items a list request asks for (per_page
// at most 100, 30 when not given, as GitHub does; the fake's PageSize caps
// it further) and sets the Link header to the next page, if any.
func (s *Server) paginate(w http.ResponseWriter, r *http.Request, n int) (from, to int) {
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	s.mu.Lock()
	per = min(per, s.pageSize, 100)
	s.mu.Unlock()
	from = min((page-1)*per, n)
	to = min(from+per, n)
	if to < n {
		next := *r.URL
		next.Path = s.prefix + r.URL.Path
		nq := next.Query()
		nq.Set("page", strconv.Itoa(page+1))
		next.RawQuery = nq.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.srv.URL, next.RequestURI()))
	}
	return from, to
}

// issueNumber is the {number} of an issue's path, or false (and a 404
// written, as github.com answers) when it names no issue: a comment needs a
// pull request or an issue, and a run that belongs to none (a push, a
// merge queue entry) has no number to give.
func issueNumber(w http.ResponseWriter, r *http.Request) (int, bool) {
	number, err := strconv.Atoi(r.PathValue("number"))
	if err != nil || number <= 0 {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return 0, false
	}
	return number, true
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	number, ok := issueNumber(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	var all []map[string]any
	for _, c := range s.comments {
		if c.Number == number {
			all = append(all, commentJSON(c, r.PathValue("owner"), r.PathValue("repo")))
		}
	}
	s.mu.Unlock()
	from, to := s.paginate(w, r, len(all))
	writeJSON(w, http.StatusOK, append([]map[string]any{}, all[from:to]...))
}

type commentBody struct {
	Body string `json:"body"`
}

func (s *Server) commentBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	var b commentBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return "", false
	}
	if utf8.RuneCountInString(b.Body) > 65536 {
		unprocessable(w, "Validation Failed: Body is too long (maximum is 65536 characters)")
		return "", false
	}
	return b.Body, true
}

// author is who the fake says wrote a comment: the token's user, or the
// Actions bot for an installation token.
func (s *Server) author() string {
	switch {
	case s.app != "":
		return s.app + "[bot]"
	case s.login == "":
		return ActionsBot
	}
	return s.login
}

// ActionsBot is the author of what GITHUB_TOKEN writes.
const ActionsBot = "github-actions[bot]"

// actionsAppID is the id of GitHub Actions' own App, which creates the
// jobs' check runs.
const actionsAppID = 15368

func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	number, ok := issueNumber(w, r)
	if !ok {
		return
	}
	body, ok := s.commentBody(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	s.nextID++
	c := &Comment{ID: s.nextID, Number: number, Login: s.author(), Body: body}
	s.comments = append(s.comments, c)
	out := commentJSON(c, r.PathValue("owner"), r.PathValue("repo"))
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, out)
}

func (s *Server) editComment(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	body, ok := s.commentBody(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comments {
		if c.ID == id {
			if c.Login != s.author() {
				writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
				return
			}
			c.Body = body
			writeJSON(w, http.StatusOK, commentJSON(c, r.PathValue("owner"), r.PathValue("repo")))
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comments {
		if c.ID == id {
			if c.Login != s.author() {
				writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
				return
			}
			s.removeComment(id)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

func (s *Server) listPulls(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	numbers := make([]int, 0, len(s.pulls))
	for n := range s.pulls {
		numbers = append(numbers, n)
	}
	sort.Ints(numbers)
	var all []map[string]any
	for _, n := range numbers {
		all = append(all, map[string]any{"number": n, "head": map[string]any{"sha": s.pulls[n]}})
	}
	s.mu.Unlock()
	from, to := s.paginate(w, r, len(all))
	writeJSON(w, http.StatusOK, append([]map[string]any{}, all[from:to]...))
}

// getPull answers GET /repos/{owner}/{repo}/pulls/{number} with the pull
// request's number, state and head, or 404.
func (s *Server) getPull(w http.ResponseWriter, r *http.Request) {
	number, _ := strconv.Atoi(r.PathValue("number"))
	s.mu.Lock()
	sha, ok := s.pulls[number]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	full := r.PathValue("owner") + "/" + r.PathValue("repo")
	writeJSON(w, http.StatusOK, map[string]any{"number": number, "state": "open",
		"head": map[string]any{"sha": sha, "repo": map[string]any{"full_name": full}}})
}

// commitChecks answers GET /repos/{owner}/{repo}/commits/{ref}/check-runs:
// the check runs of a commit (ref a full SHA here), newest first, those
// named check_name only when it is given; filter=latest (the default)
// keeps the newest of each name, as github.com does.
func (s *Server) commitChecks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	var runs []*CheckRun
	for _, c := range s.checks {
		if c.HeadSHA == r.PathValue("ref") && (q.Get("check_name") == "" || c.Name == q.Get("check_name")) {
			runs = append(runs, c)
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].ID > runs[j].ID })
	if q.Get("filter") != "all" {
		seen := map[string]bool{}
		latest := runs[:0]
		for _, c := range runs {
			if !seen[c.Name] {
				seen[c.Name] = true
				latest = append(latest, c)
			}
		}
		runs = latest
	}
	all := make([]map[string]any, 0, len(runs))
	for _, c := range runs {
		all = append(all, checkJSON(c, r.PathValue("owner"), r.PathValue("repo")))
	}
	s.mu.Unlock()
	from, to := s.paginate(w, r, len(all))
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(all), "check_runs": all[from:to]})
}
