package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	gh "github.com/google/go-github/v60/github"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// CommentMode says when the sticky comment is written.
type CommentMode string

const (
	// CommentAlways creates or updates the comment on every run.
	CommentAlways CommentMode = "always"
	// CommentFailures creates the comment only when fixtures fail, but
	// always updates an existing one, so that a stale red turns green.
	CommentFailures CommentMode = "failures"
	// CommentChanges writes only when the body differs from the existing one.
	CommentChanges CommentMode = "changes"
	// CommentOff never comments.
	CommentOff CommentMode = "off"
)

// CommentModes lists the modes in documentation order.
var CommentModes = []CommentMode{CommentAlways, CommentFailures, CommentChanges, CommentOff}

// ParseCommentMode accepts one of CommentModes.
func ParseCommentMode(s string) (CommentMode, error) {
	for _, m := range CommentModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("comment mode %q is not one of always, failures, changes, off", s)
}

// botLogin is the author of comments written with GITHUB_TOKEN, whose
// installation token may not read GET /user.
const botLogin = "github-actions[bot]"

// Comment is the sticky comment of one corpus on one pull request.
type Comment struct {
	Repo   Repo
	Number int
	// Marker is the hidden line that identifies the comment of this corpus.
	Marker  string
	Body    string
	Mode    CommentMode
	Failing bool
	// ResultKey identifies what the body reports apart from the links of
	// one run (commit, check run, workflow run), which change on every
	// run. When set, it is kept in a hidden line after the marker, and
	// CommentChanges compares keys instead of whole bodies.
	ResultKey string
}

// resultKeyPrefix starts the hidden line that carries Comment.ResultKey.
const resultKeyPrefix = "<!-- drp2-fixtures:result "

// resultKeyLine is the hidden line for key; keys are hex, so nothing in
// them can end the HTML comment.
func resultKeyLine(key string) string {
	return resultKeyPrefix + key + " -->"
}

// sameResult reports whether an existing comment reports what body does:
// with a key, its second line (after the marker) carries the same key.
func sameResult(existing, body, key string) bool {
	if key == "" {
		return existing == body
	}
	lines := strings.SplitN(existing, "\n", 3)
	return len(lines) >= 2 && strings.TrimRight(lines[1], "\r") == resultKeyLine(key)
}

// CommentOutcome tells what PublishComment did.
type CommentOutcome string

const (
	CommentCreated   CommentOutcome = "created"
	CommentUpdated   CommentOutcome = "updated"
	CommentUnchanged CommentOutcome = "unchanged"
	CommentSkipped   CommentOutcome = "skipped"
)

// CommentResult is the comment after PublishComment; ID and URL are empty
// when no comment exists.
type CommentResult struct {
	ID      int64
	URL     string
	Outcome CommentOutcome
}

// decideComment is the comment policy, apart from any I/O.
func decideComment(mode CommentMode, exists, sameBody, failing bool) CommentOutcome {
	switch {
	case mode == CommentOff:
		return CommentSkipped
	case exists && mode == CommentChanges && sameBody:
		return CommentUnchanged
	case exists:
		return CommentUpdated
	case mode == CommentFailures && !failing:
		return CommentSkipped
	default:
		return CommentCreated
	}
}

// PublishComment creates, updates or leaves the sticky comment of a
// corpus on a pull request, as the comment mode says.
func (c *Client) PublishComment(ctx context.Context, cm Comment) (CommentResult, error) {
	if cm.Mode == CommentOff {
		return CommentResult{Outcome: CommentSkipped}, nil
	}
	if cm.Marker == "" || strings.ContainsAny(cm.Marker, "\r\n") {
		return CommentResult{}, fmt.Errorf("sticky comment needs a marker of one line, got %q", cm.Marker)
	}
	body := truncateCharsNote(cm.Body, escape.CommentChars)
	if !hasMarker(body, cm.Marker) {
		// The marker on the first line is how the next run finds this
		// comment: never lose it.
		body = cm.Marker + "\n" + truncateCharsNote(cm.Body, escape.CommentChars-utf8.RuneCountInString(cm.Marker)-1)
	}
	if cm.ResultKey != "" {
		if strings.ContainsFunc(cm.ResultKey, func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) }) {
			return CommentResult{}, fmt.Errorf("comment result key %q is not lower-case hex", cm.ResultKey)
		}
		marker, rest, _ := strings.Cut(body, "\n")
		body = marker + "\n" + resultKeyLine(cm.ResultKey) + "\n" + rest
		body = truncateCharsNote(body, escape.CommentChars)
	}
	existing, err := c.findComment(ctx, cm.Repo, cm.Number, cm.Marker)
	if err != nil {
		return CommentResult{}, err
	}
	outcome := decideComment(cm.Mode, existing != nil, existing != nil && sameResult(existing.GetBody(), body, cm.ResultKey), cm.Failing)
	switch outcome {
	case CommentCreated:
		return c.createComment(ctx, cm, body)
	case CommentUpdated:
		edited, _, err := c.gh.Issues.EditComment(ctx, cm.Repo.Owner, cm.Repo.Name, existing.GetID(), &gh.IssueComment{Body: &body})
		if StatusCode(err) == http.StatusNotFound {
			// Deleted between finding and editing it (by a person, or by a
			// concurrent run removing its duplicate): write it anew, if the
			// mode creates a comment where none exists.
			if decideComment(cm.Mode, false, false, cm.Failing) == CommentCreated {
				return c.createComment(ctx, cm, body)
			}
			return CommentResult{Outcome: CommentSkipped}, nil
		}
		if err != nil {
			return CommentResult{}, fmt.Errorf("update comment %d on pull request #%d: %w", existing.GetID(), cm.Number, unwrapURL(err))
		}
		return CommentResult{ID: edited.GetID(), URL: edited.GetHTMLURL(), Outcome: outcome}, nil
	}
	res := CommentResult{Outcome: outcome}
	if existing != nil {
		res.ID, res.URL = existing.GetID(), existing.GetHTMLURL()
	}
	return res, nil
}

// createComment creates the sticky comment, then makes sure it is the only
// one. Two runs at the same moment (matrix legs with one report name, a
// re-run) can both find no comment and both create one. Each lists again
// afterwards; a run whose comment is not the oldest removes its own and
// writes its body into the oldest instead, so one comment stays.
func (c *Client) createComment(ctx context.Context, cm Comment, body string) (CommentResult, error) {
	created, _, err := c.gh.Issues.CreateComment(ctx, cm.Repo.Owner, cm.Repo.Name, cm.Number, &gh.IssueComment{Body: &body})
	if err != nil {
		return CommentResult{}, fmt.Errorf("create comment on pull request #%d: %w", cm.Number, unwrapURL(err))
	}
	res := CommentResult{ID: created.GetID(), URL: created.GetHTMLURL(), Outcome: CommentCreated}
	oldest, err := c.findComment(ctx, cm.Repo, cm.Number, cm.Marker)
	if err != nil {
		return res, fmt.Errorf("comment %d created, but looking for a duplicate from a concurrent run failed: %w", res.ID, err)
	}
	if oldest == nil || oldest.GetID() == res.ID {
		return res, nil
	}
	_, err = c.gh.Issues.DeleteComment(ctx, cm.Repo.Owner, cm.Repo.Name, res.ID)
	if err != nil && StatusCode(err) != http.StatusNotFound {
		return res, fmt.Errorf("remove comment %d, a duplicate of comment %d from a concurrent run: %w", res.ID, oldest.GetID(), unwrapURL(err))
	}
	res = CommentResult{ID: oldest.GetID(), URL: oldest.GetHTMLURL(), Outcome: CommentUpdated}
	if oldest.GetBody() == body {
		return res, nil
	}
	edited, _, err := c.gh.Issues.EditComment(ctx, cm.Repo.Owner, cm.Repo.Name, oldest.GetID(), &gh.IssueComment{Body: &body})
	if err != nil {
		return res, fmt.Errorf("update comment %d on pull request #%d after removing a duplicate: %w", oldest.GetID(), cm.Number, unwrapURL(err))
	}
	res.ID, res.URL = edited.GetID(), edited.GetHTMLURL()
	return res, nil
}

// hasMarker reports whether the comment body's first line is the marker.
// A marker anywhere else (a quoted comment, a file path in a report)
// identifies nothing: it must not let one corpus overwrite another's
// comment. Trailing spaces and the CR of a body edited in the browser are
// ignored.
func hasMarker(body, marker string) bool {
	first, _, _ := strings.Cut(body, "\n")
	return strings.TrimRight(first, " \t\r") == marker
}

// findComment returns the oldest comment on the pull request whose first
// line is the marker and which was written by the token's own user, or
// nil. GitHub lists an issue's comments oldest first. Matching the author
// keeps anyone else from hijacking the comment by pasting the marker.
func (c *Client) findComment(ctx context.Context, repo Repo, number int, marker string) (*gh.IssueComment, error) {
	author, err := c.authorLogin(ctx)
	if err != nil {
		return nil, err
	}
	opts := &gh.IssueListCommentsOptions{
		Sort:        gh.String("created"),
		Direction:   gh.String("asc"),
		ListOptions: gh.ListOptions{PerPage: escape.PerPage},
	}
	var found *gh.IssueComment
	err = listPages(fmt.Sprintf("list comments of pull request #%d", number), func(page int) (bool, *gh.Response, error) {
		opts.Page = page
		comments, resp, err := c.gh.Issues.ListComments(ctx, repo.Owner, repo.Name, number, opts)
		for _, ic := range comments {
			if strings.EqualFold(ic.GetUser().GetLogin(), author) && hasMarker(ic.GetBody(), marker) {
				found = ic
				return true, resp, err
			}
		}
		return false, resp, err
	})
	return found, err
}

// authorLogin is the login of the token's user. An installation token may
// not read GET /user, nor GET /app (which takes the App's JWT); GraphQL's
// viewer names its bot: github-actions[bot] for GITHUB_TOKEN,
// "<app>[bot]" for a GitHub App's token (actions/create-github-app-token).
// Where GraphQL refuses too, the comments are taken to be
// github-actions[bot]'s.
func (c *Client) authorLogin(ctx context.Context) (string, error) {
	if c.author != "" {
		return c.author, nil
	}
	u, _, err := c.gh.Users.Get(ctx, "")
	switch {
	case err == nil && u.GetLogin() != "":
		c.author = u.GetLogin()
	case Forbidden(err) || StatusCode(err) == http.StatusNotFound:
		login, err := c.viewerLogin(ctx)
		switch {
		case err == nil:
			c.author = login
		case Forbidden(err) || StatusCode(err) == http.StatusNotFound || StatusCode(err) == http.StatusUnauthorized || errors.Is(err, errGraphQL):
			c.author = botLogin
		default:
			return "", fmt.Errorf("ask GraphQL who the token is: %w", unwrapURL(err))
		}
	case err == nil:
		return "", fmt.Errorf("read the token's user: no login in the answer")
	default:
		return "", fmt.Errorf("read the token's user: %w", unwrapURL(err))
	}
	return c.author, nil
}

// errGraphQL is a GraphQL answer that carries errors or no login.
var errGraphQL = errors.New("GraphQL did not name the viewer")

// viewerLogin asks GraphQL for the token's own login.
func (c *Client) viewerLogin(ctx context.Context) (string, error) {
	req, err := c.gh.NewRequest(http.MethodPost, graphqlURL(c.gh.BaseURL), map[string]string{"query": "query { viewer { login } }"})
	if err != nil {
		return "", err
	}
	var answer struct {
		Data struct {
			Viewer struct {
				Login string `json:"login"`
			} `json:"viewer"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if _, err := c.gh.Do(ctx, req, &answer); err != nil {
		return "", err
	}
	if len(answer.Errors) > 0 || answer.Data.Viewer.Login == "" {
		return "", errGraphQL
	}
	return answer.Data.Viewer.Login, nil
}

// graphqlURL is the GraphQL endpoint beside the REST API at base:
// https://api.github.com/graphql, or on Enterprise Server
// https://HOST/api/graphql beside https://HOST/api/v3.
func graphqlURL(base *url.URL) string {
	u := *base
	if p, ok := strings.CutSuffix(u.Path, "/api/v3/"); ok {
		u.Path = p + "/api/graphql"
	} else {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/graphql"
	}
	return u.String()
}

// PullForSHA finds the open pull request whose head is sha, or 0. A
// workflow_run event of a fork pull request lists no pull request, so it
// is found by its head commit.
func (c *Client) PullForSHA(ctx context.Context, repo Repo, sha string) (int, error) {
	opts := &gh.PullRequestListOptions{State: "open", ListOptions: gh.ListOptions{PerPage: escape.PerPage}}
	number := 0
	err := listPages("list open pull requests", func(page int) (bool, *gh.Response, error) {
		opts.Page = page
		pulls, resp, err := c.gh.PullRequests.List(ctx, repo.Owner, repo.Name, opts)
		for _, pr := range pulls {
			if pr.GetHead().GetSHA() == sha {
				number = pr.GetNumber()
				return true, resp, err
			}
		}
		return false, resp, err
	})
	return number, err
}
