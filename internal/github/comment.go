package github

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
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
	// Run is what the comment records of the run that writes it: the
	// commit it judged, the workflow run and a nonce of its own. A run
	// whose commit is no longer the pull request's head writes nothing,
	// and a comment of a later run of the same commit is kept.
	Run CommentRun
}

// CommentRun is the run a sticky comment's verdict comes from, kept in a
// hidden line after the marker.
type CommentRun struct {
	// Head is the commit judged; empty skips the check of the pull
	// request's head.
	Head string
	// ID and Attempt are GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT (0 outside
	// Actions): of two runs of one commit, the later one's verdict wins.
	ID, Attempt int64
	// Nonce is this run's own (empty: PublishComment makes one): a
	// comment whose create lost its answer is found by it.
	Nonce string
}

// runLinePrefix starts the hidden line that carries a CommentRun.
const runLinePrefix = "<!-- drp2-fixtures:run "

// line is the hidden line of r; every value is letters and digits, so
// nothing in it can end the HTML comment (a head of anything else, which
// no commit has, is left out).
func (r CommentRun) line() string {
	head := r.Head
	if strings.ContainsFunc(head, func(c rune) bool { return !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') }) {
		head = ""
	}
	return fmt.Sprintf("%shead=%s run=%d.%d nonce=%s -->", runLinePrefix, head, r.ID, r.Attempt, r.Nonce)
}

func isHex(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) })
}

// commentRun reads the run a comment body records, from the hidden lines
// after its marker; ok is false for a comment of an earlier version,
// which records none.
func commentRun(body string) (r CommentRun, ok bool) {
	lines := strings.SplitN(body, "\n", 4)
	for _, l := range lines[1:min(len(lines), 3)] {
		rest, found := strings.CutPrefix(strings.TrimRight(l, "\r"), runLinePrefix)
		if !found {
			continue
		}
		for _, f := range strings.Fields(strings.TrimSuffix(rest, "-->")) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "head":
				r.Head = v
			case "run":
				id, attempt, _ := strings.Cut(v, ".")
				r.ID, _ = strconv.ParseInt(id, 10, 64)
				r.Attempt, _ = strconv.ParseInt(attempt, 10, 64)
			case "nonce":
				r.Nonce = v
			}
		}
		return r, true
	}
	return r, false
}

// rank orders the verdicts of comments: one that records its run first
// (an earlier version's records none), then one about the pull request's
// head, then the later run, then the later attempt.
type rank struct {
	known, onHead bool
	id, attempt   int64
}

func rankOf(r CommentRun, known bool, head string) rank {
	if !known {
		return rank{}
	}
	return rank{known: true, onHead: r.Head == head && head != "", id: r.ID, attempt: r.Attempt}
}

func (a rank) less(b rank) bool {
	switch {
	case a.known != b.known:
		return b.known
	case a.onHead != b.onHead:
		return b.onHead
	case a.id != b.id:
		return a.id < b.id
	}
	return a.attempt < b.attempt
}

// resultKeyPrefix starts the hidden line that carries Comment.ResultKey.
const resultKeyPrefix = "<!-- drp2-fixtures:result "

// resultKeyLine is the hidden line for key; keys are hex, so nothing in
// them can end the HTML comment.
func resultKeyLine(key string) string {
	return resultKeyPrefix + key + " -->"
}

// sameResult reports whether an existing comment reports what body does:
// with a key, one of the hidden lines after the marker carries the same
// key; without one, the bodies are the same but for the run line.
func sameResult(existing, body, key string) bool {
	lines := strings.SplitN(existing, "\n", 4)
	if key == "" {
		return withoutRunLine(existing) == withoutRunLine(body)
	}
	for _, l := range lines[1:min(len(lines), 3)] {
		if strings.TrimRight(l, "\r") == resultKeyLine(key) {
			return true
		}
	}
	return false
}

func withoutRunLine(body string) string {
	marker, rest, _ := strings.Cut(body, "\n")
	if first, after, _ := strings.Cut(rest, "\n"); strings.HasPrefix(first, runLinePrefix) {
		rest = after
	}
	return marker + "\n" + rest
}

// CommentOutcome tells what PublishComment did.
type CommentOutcome string

const (
	CommentCreated   CommentOutcome = "created"
	CommentUpdated   CommentOutcome = "updated"
	CommentUnchanged CommentOutcome = "unchanged"
	CommentSkipped   CommentOutcome = "skipped"
	// CommentSuperseded: the pull request's head is no longer the commit
	// this run judged, so the comment was left to the head's run.
	CommentSuperseded CommentOutcome = "superseded"
	// CommentKept: a later run of the same commit wrote the comment; its
	// verdict stays.
	CommentKept CommentOutcome = "kept"
)

// CommentResult is the comment after PublishComment; ID and URL are empty
// when no comment exists.
type CommentResult struct {
	ID      int64
	URL     string
	Outcome CommentOutcome
	// Head is the pull request's head when it was read.
	Head string
	// Shown is the run the comment's verdict is from when this run did
	// not write it (Kept, Unchanged, a failure), as far as it is known:
	// Listed says the comments were read, and Shown is nil when there
	// was none or it records no run.
	Shown  *CommentRun
	Listed bool
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

// commentBody is the body as posted: the marker first, the run's hidden
// line, the result key's, then the text, within GitHub's size.
func commentBody(cm Comment) (string, error) {
	if cm.Marker == "" || strings.ContainsAny(cm.Marker, "\r\n") {
		return "", fmt.Errorf("sticky comment needs a marker of one line, got %q", cm.Marker)
	}
	if cm.ResultKey != "" && !isHex(cm.ResultKey) {
		return "", fmt.Errorf("comment result key %q is not lower-case hex", cm.ResultKey)
	}
	rest := cm.Body
	if hasMarker(rest, cm.Marker) {
		_, rest, _ = strings.Cut(rest, "\n")
	}
	hidden := cm.Marker + "\n" + cm.Run.line() + "\n"
	if cm.ResultKey != "" {
		hidden += resultKeyLine(cm.ResultKey) + "\n"
	}
	// The marker and the hidden lines are how the next run finds and
	// judges this comment: never cut them.
	return hidden + truncateCharsNote(rest, escape.CommentChars-utf8.RuneCountInString(hidden)), nil
}

// stickyRun is one PublishComment under way.
type stickyRun struct {
	c    *Client
	cm   Comment
	body string
	// did is what this run did to the comment, kept across tries.
	did CommentOutcome
}

// PublishComment creates, updates or leaves the sticky comment of a
// corpus on a pull request, as the comment mode says, and never over a
// newer verdict: the pull request's head is read first, and a run whose
// commit is no longer the head writes nothing. Every comment of the token's
// author that carries the marker is found; one is kept (the newest
// verdict, else the oldest comment), the others deleted. A write whose
// answer was lost is not sent again blindly: the comments are read again,
// and this run's nonce tells whether it landed.
func (c *Client) PublishComment(ctx context.Context, cm Comment) (CommentResult, error) {
	if cm.Mode == CommentOff {
		return CommentResult{Outcome: CommentSkipped}, nil
	}
	if cm.Run.Nonce == "" {
		cm.Run.Nonce = NewNonce()
	}
	body, err := commentBody(cm)
	if err != nil {
		return CommentResult{}, err
	}
	s := &stickyRun{c: c, cm: cm, body: body}
	// A write GitHub asks to wait for is not sent unchanged after the
	// wait: the head and the comments are read again first.
	ctx = withLookAgain(ctx)
	began := c.t.p.Now()
	for attempt := 1; ; attempt++ {
		res, err := s.try(ctx)
		var lost *LostAnswerError
		switch {
		case errors.Is(err, errListAgain) && attempt < maxAttempts:
			continue
		case !errors.As(err, &lost):
			return res, err
		}
		if err := c.t.pause(ctx, began, attempt, lost); err != nil {
			return res, fmt.Errorf("write comment on pull request #%d: %w", cm.Number, err)
		}
	}
}

// errListAgain: the comment to edit was deleted meanwhile.
var errListAgain = errors.New("the comment was deleted meanwhile")

// NewNonce returns 16 random hex digits.
func NewNonce() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// try reads the head and the comments, and writes what they call for.
func (s *stickyRun) try(ctx context.Context) (CommentResult, error) {
	c, cm := s.c, s.cm
	res := CommentResult{Head: cm.Run.Head}
	if cm.Run.Head != "" {
		pr, _, err := c.gh.PullRequests.Get(ctx, cm.Repo.Owner, cm.Repo.Name, cm.Number)
		switch {
		case StatusCode(err) == http.StatusNotFound:
			// Not a pull request this token can see as one: no head to
			// compare; the comments endpoint answers for itself.
		case err != nil:
			return res, fmt.Errorf("read the head of pull request #%d: %w", cm.Number, unwrapURL(err))
		}
		if head := pr.GetHead().GetSHA(); head != "" && head != cm.Run.Head {
			res.Head, res.Outcome = head, CommentSuperseded
			return res, nil
		}
	}
	all, err := c.markerComments(ctx, cm.Repo, cm.Number, cm.Marker)
	if err != nil {
		return res, err
	}
	res.Listed = true
	keeper := s.keeper(all)
	if keeper != nil {
		res.ID, res.URL = keeper.GetID(), keeper.GetHTMLURL()
		if run, ok := commentRun(keeper.GetBody()); ok {
			res.Shown = &run
		}
	}
	ours := rankOf(cm.Run, true, cm.Run.Head)
	switch {
	case s.did != "" && keeper != nil && res.Shown != nil && res.Shown.Nonce == cm.Run.Nonce:
		// A write whose answer was lost landed.
		res.Outcome, res.Shown = s.did, nil
	case keeper != nil && ours.less(s.rank(keeper)):
		res.Outcome = CommentKept
	default:
		if err := s.write(ctx, keeper, &res); err != nil {
			return res, err
		}
	}
	return res, s.dropDuplicates(ctx, &res, all)
}

// rank is the rank of a listed comment's verdict.
func (s *stickyRun) rank(ic *gh.IssueComment) rank {
	run, ok := commentRun(ic.GetBody())
	return rankOf(run, ok, s.cm.Run.Head)
}

// keeper is the comment to keep of those listed: the newest verdict,
// the oldest of equals.
func (s *stickyRun) keeper(all []*gh.IssueComment) *gh.IssueComment {
	var best *gh.IssueComment
	for _, ic := range all {
		if best == nil || s.rank(best).less(s.rank(ic)) {
			best = ic
		}
	}
	return best
}

// write creates the comment or edits keeper, as the mode says.
func (s *stickyRun) write(ctx context.Context, keeper *gh.IssueComment, res *CommentResult) error {
	c, cm := s.c, s.cm
	outcome := decideComment(cm.Mode, keeper != nil, keeper != nil && sameResult(keeper.GetBody(), s.body, cm.ResultKey), cm.Failing)
	res.Outcome = outcome
	switch outcome {
	case CommentCreated:
		s.did = outcome
		created, _, err := c.gh.Issues.CreateComment(ctx, cm.Repo.Owner, cm.Repo.Name, cm.Number, &gh.IssueComment{Body: &s.body})
		if err != nil {
			return fmt.Errorf("create comment on pull request #%d: %w", cm.Number, unwrapURL(err))
		}
		if login := created.GetUser().GetLogin(); login != "" {
			// GitHub names the author: the next listing finds this
			// comment even where the token's login had to be guessed.
			c.author = login
		}
		res.ID, res.URL, res.Shown = created.GetID(), created.GetHTMLURL(), nil
	case CommentUpdated:
		s.did = outcome
		edited, _, err := c.gh.Issues.EditComment(ctx, cm.Repo.Owner, cm.Repo.Name, keeper.GetID(), &gh.IssueComment{Body: &s.body})
		if StatusCode(err) == http.StatusNotFound {
			// Deleted between finding and editing it (by a person, or by
			// a concurrent run removing its duplicate): look again.
			return errListAgain
		}
		if err != nil {
			return fmt.Errorf("update comment %d on pull request #%d: %w", keeper.GetID(), cm.Number, unwrapURL(err))
		}
		res.ID, res.URL, res.Shown = edited.GetID(), edited.GetHTMLURL(), nil
	}
	return nil
}

// DuplicatesError is a comment published whose duplicates (left by
// earlier runs, or by a concurrent one) could not all be removed.
type DuplicatesError struct{ Err error }

func (e *DuplicatesError) Error() string {
	return "removing duplicate sticky comments failed: " + e.Err.Error()
}
func (e *DuplicatesError) Unwrap() error { return e.Err }

// dropDuplicates deletes every comment with the marker but the one res
// names. After this run created one, the comments are listed again: a
// concurrent run may have created one too, and the newest verdict of them
// all is the one kept (the oldest of equals, given this run's body when it
// is of the same run). An edit adds no comment: the list already read is
// the one to clean.
func (s *stickyRun) dropDuplicates(ctx context.Context, res *CommentResult, all []*gh.IssueComment) error {
	c, cm := s.c, s.cm
	if res.Outcome == CommentCreated {
		var err error
		if all, err = c.markerComments(ctx, cm.Repo, cm.Number, cm.Marker); err != nil {
			return &DuplicatesError{Err: err}
		}
		if keeper := s.keeper(all); keeper != nil && keeper.GetID() != res.ID {
			run, _ := commentRun(keeper.GetBody())
			switch {
			case run.Nonce == cm.Run.Nonce:
				// This run's create landed twice: the older stays.
			case s.rank(keeper) == rankOf(cm.Run, true, cm.Run.Head):
				edited, _, err := c.gh.Issues.EditComment(ctx, cm.Repo.Owner, cm.Repo.Name, keeper.GetID(), &gh.IssueComment{Body: &s.body})
				if err != nil {
					return &DuplicatesError{Err: fmt.Errorf("update comment %d, the one kept: %w", keeper.GetID(), unwrapURL(err))}
				}
				keeper, res.Outcome = edited, CommentUpdated
			default:
				// A later run's comment, created meanwhile, stays.
				res.Outcome, res.Shown = CommentKept, &run
			}
			res.ID, res.URL = keeper.GetID(), keeper.GetHTMLURL()
		}
	}
	for _, ic := range all {
		if ic.GetID() == res.ID {
			continue
		}
		_, err := c.gh.Issues.DeleteComment(ctx, cm.Repo.Owner, cm.Repo.Name, ic.GetID())
		if err != nil && StatusCode(err) != http.StatusNotFound {
			return &DuplicatesError{Err: fmt.Errorf("remove comment %d, a duplicate of comment %d: %w", ic.GetID(), res.ID, unwrapURL(err))}
		}
	}
	return nil
}

// markerComments returns every comment on the pull request whose first
// line is the marker and which was written by the token's own user,
// oldest first (as GitHub lists an issue's comments). Matching the author
// keeps anyone else from hijacking the comment by pasting the marker.
func (c *Client) markerComments(ctx context.Context, repo Repo, number int, marker string) ([]*gh.IssueComment, error) {
	author, err := c.authorLogin(ctx)
	if err != nil {
		return nil, err
	}
	opts := &gh.IssueListCommentsOptions{
		Sort:        gh.String("created"),
		Direction:   gh.String("asc"),
		ListOptions: gh.ListOptions{PerPage: escape.PerPage},
	}
	var found []*gh.IssueComment
	err = listPages(fmt.Sprintf("list comments of pull request #%d", number), func(page int) (bool, *gh.Response, error) {
		opts.Page = page
		comments, resp, err := c.gh.Issues.ListComments(ctx, repo.Owner, repo.Name, number, opts)
		for _, ic := range comments {
			if strings.EqualFold(ic.GetUser().GetLogin(), author) && hasMarker(ic.GetBody(), marker) {
				found = append(found, ic)
			}
		}
		return false, resp, err
	})
	return found, err
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
	if err == nil && u.GetLogin() != "" {
		c.author = u.GetLogin()
		return c.author, nil
	}
	// Any failure of GET /user, a refusal or a GitHub out of reach, falls
	// back: a lookup is never what keeps the comment from being written.
	// A guess that is wrong finds no comment, and the one this run
	// creates is then the duplicate the next run removes; GitHub's answer
	// to the create names the author (stickyRun.write).
	login, err := c.viewerLogin(ctx)
	if err == nil {
		c.author = login
		return c.author, nil
	}
	c.author = botLogin
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
