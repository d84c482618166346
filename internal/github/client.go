// Package github is the GitHub API port of the action: it creates or
// updates the check run with its annotations, keeps one sticky pull request
// comment per corpus, and finds the pull request of a commit. It is the only
// package that talks HTTP. Every request goes through one transport that
// authenticates, retries within a time budget and spaces writes.
package github

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Repo names a repository.
type Repo struct{ Owner, Name string }

// ParseRepo splits "owner/name" (GITHUB_REPOSITORY).
func ParseRepo(s string) (Repo, error) {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return Repo{}, fmt.Errorf("repository %q is not of the form owner/name", s)
	}
	return Repo{Owner: owner, Name: name}, nil
}

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// Client talks to the GitHub REST API at one base URL.
type Client struct {
	gh *gh.Client
	t  *transport
	// author is the login that owns the sticky comments, found once.
	author string
}

// Options configure a Client.
type Options struct {
	// APIURL is GITHUB_API_URL: https://api.github.com, or
	// https://HOST/api/v3 on GitHub Enterprise Server. Empty means github.com.
	APIURL string
	Token  string
	Pacing Pacing
	// Base is the underlying transport; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Redact holds the secrets no request body may carry; the token is
	// added to it (nil: the token alone).
	Redact *secret.Redactor
}

// New returns a Client. The token is only ever placed in the Authorization
// header by the transport; it appears in no error and no log line, and
// the transport redacts it, and every other secret opts.Redact holds, from
// every request body: a check run or comment never publishes one, whatever
// its text came from.
func New(opts Options) (*Client, error) {
	api := opts.APIURL
	if api == "" {
		api = "https://api.github.com"
	}
	base, err := url.Parse(strings.TrimRight(api, "/") + "/")
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q is not an http(s) URL", api)
	}
	t := newTransport(opts.Base, opts.Token, opts.Pacing, base, opts.Redact)
	hc := &http.Client{Transport: t, CheckRedirect: checkRedirect(base)}
	gh := gh.NewClient(hc)
	// BaseURL is set as given rather than through WithEnterpriseURLs, which
	// would append /api/v3 to any host that lacks it.
	gh.BaseURL = base
	gh.UploadURL = base
	return &Client{gh: gh, t: t}, nil
}

// Check is a check run to publish.
type Check struct {
	Repo Repo
	// ID of an existing check run to update; 0 creates a new one named
	// Name on HeadSHA, completed with Conclusion.
	ID int64
	// JobRun says that ID is the job's own check run (job.check_run_id),
	// which GitHub Actions created and alone may complete: it gets the
	// output only (title, summary, text, annotations, under its current
	// name), never a status, conclusion or completion time. The job's
	// conclusion comes from the step's exit code. A GitHub App's token may
	// not update it at all (another App created it): the results then go
	// to a check run of their own named Name on HeadSHA, completed with
	// Conclusion. Without JobRun, a check run named by ID is completed
	// with Conclusion.
	JobRun bool
	// ExternalID marks a check run this client creates as this run's own
	// (the action's run and a nonce), so that a create whose answer was
	// lost is found on the commit rather than made twice.
	ExternalID  string
	Name        string
	HeadSHA     string
	Conclusion  string // "success" or "failure"
	CompletedAt time.Time
	Title       string
	Summary     string
	Text        string
	Annotations []annotation.Annotation
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// batchAnnotations converts and splits annotations into requests of at most
// escape.AnnotationsPerRequest. It always returns at least one (maybe empty) batch.
func batchAnnotations(anns []annotation.Annotation) [][]*gh.CheckRunAnnotation {
	batches := [][]*gh.CheckRunAnnotation{nil}
	for _, a := range anns {
		last := len(batches) - 1
		if len(batches[last]) == escape.AnnotationsPerRequest {
			batches = append(batches, nil)
			last++
		}
		batches[last] = append(batches[last], toCheckAnnotation(a))
	}
	return batches
}

func toCheckAnnotation(a annotation.Annotation) *gh.CheckRunAnnotation {
	start := max(a.StartLine, 1)
	end := max(a.EndLine, start)
	level := string(a.Level)
	if level == "" {
		level = string(annotation.LevelFailure)
	}
	msg := a.Message
	if msg == "" {
		msg = a.Title // message is required by the API
	}
	out := &gh.CheckRunAnnotation{
		Path:            gh.String(a.Path),
		StartLine:       gh.Int(start),
		EndLine:         gh.Int(end),
		AnnotationLevel: gh.String(level),
		Title:           optional(escape.Clip(a.Title, escape.AnnotationTitleChars)),
		Message:         gh.String(truncateBytes(msg, escape.AnnotationDetailBytes)),
		RawDetails:      optional(truncateBytes(a.RawDetails, escape.AnnotationDetailBytes)),
	}
	// Columns are accepted only on a single line (Checks API reference).
	if start == end && a.StartColumn > 0 {
		out.StartColumn = gh.Int(a.StartColumn)
		out.EndColumn = gh.Int(max(a.EndColumn, a.StartColumn))
	}
	return out
}

// Forbidden reports whether err is GitHub refusing a request for lack of
// permission (a 403 that is not a rate limit): the read-only token of a
// fork pull request gets "Resource not accessible by integration". The
// refusal to complete a check run that GitHub Actions owns is not one: no
// permission allows it (see ActionsOwned).
func Forbidden(err error) bool {
	var er *gh.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden && !ActionsOwned(err)
}

// refusedAsActionsOwned tells GitHub's 403 for a check run that Actions
// owns by its message: the status code alone is shared with every other
// permission refusal.
func refusedAsActionsOwned(err error) bool {
	var er *gh.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden &&
		strings.Contains(strings.ToLower(er.Message), actionsOwnedMessage)
}

// otherAppsCheckRun tells GitHub's 403 for a check run another App
// created ("Invalid app_id `15368` - check run can only be modified by the
// GitHub App that created it") by its message.
func otherAppsCheckRun(err error) bool {
	var er *gh.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden &&
		strings.Contains(strings.ToLower(er.Message), "can only be modified by the github app that created it")
}

// actionsOwnedMessage is how github.com refuses, since 2025-03-31, a token
// that sets status, conclusion or completed_at on a check run GitHub
// Actions created ("Check run status and conclusions can only be updated
// internally by GitHub Actions").
const actionsOwnedMessage = "can only be updated internally by github actions"

// ActionsOwnedError is GitHub refusing to let a token change the status,
// conclusion or completion time of a check run that GitHub Actions owns:
// the job's own. Only its output may be updated.
type ActionsOwnedError struct {
	CheckRunID int64
	Err        error
}

func (e *ActionsOwnedError) Error() string {
	return fmt.Sprintf("check run %d is owned by GitHub Actions, which alone sets its status and conclusion; "+
		"only its output may be updated: %v", e.CheckRunID, e.Err)
}

func (e *ActionsOwnedError) Unwrap() error { return e.Err }

// ActionsOwned reports whether err is GitHub refusing to let the token
// complete a check run that GitHub Actions owns.
func ActionsOwned(err error) bool {
	var ao *ActionsOwnedError
	return errors.As(err, &ao) || refusedAsActionsOwned(err)
}

// actionsOwned wraps err in an ActionsOwnedError when it is GitHub's 403
// for a check run that Actions owns, recognised by its message.
func actionsOwned(id int64, err error) error {
	if refusedAsActionsOwned(err) {
		return &ActionsOwnedError{CheckRunID: id, Err: err}
	}
	return err
}

// StatusCode returns the HTTP status behind err, or 0.
func StatusCode(err error) int {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	var ge *GiveUpError
	if errors.As(err, &ge) {
		return ge.StatusCode
	}
	return 0
}

// unwrapURL drops the *url.Error around a GiveUpError or a RedirectError:
// their messages already name the method and path, and the URL would only
// repeat it.
func unwrapURL(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	var ge *GiveUpError
	if errors.As(ue.Err, &ge) {
		return ge
	}
	var re *RedirectError
	if errors.As(ue.Err, &re) {
		return re
	}
	var le *LostAnswerError
	if errors.As(ue.Err, &le) {
		return le
	}
	return err
}
