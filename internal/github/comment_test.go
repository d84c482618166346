package github

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/report/escape"
)

const marker = "<!-- drp2-fixtures:fixtures -->"

func TestDecideComment(t *testing.T) {
	tests := []struct {
		mode                  CommentMode
		exists, same, failing bool
		want                  CommentOutcome
	}{
		{CommentOff, true, false, true, CommentSkipped},
		{CommentOff, false, false, true, CommentSkipped},
		{CommentAlways, false, false, false, CommentCreated},
		{CommentAlways, true, true, false, CommentUpdated},
		{CommentFailures, false, false, false, CommentSkipped},
		{CommentFailures, false, false, true, CommentCreated},
		{CommentFailures, true, false, false, CommentUpdated}, // stale red turns green
		{CommentChanges, true, true, true, CommentUnchanged},
		{CommentChanges, true, false, true, CommentUpdated},
		{CommentChanges, false, false, false, CommentCreated},
	}
	for _, tt := range tests {
		if got := decideComment(tt.mode, tt.exists, tt.same, tt.failing); got != tt.want {
			t.Errorf("decideComment(%s, exists=%v, same=%v, failing=%v) = %s, want %s",
				tt.mode, tt.exists, tt.same, tt.failing, got, tt.want)
		}
	}
}

func TestParseCommentMode(t *testing.T) {
	for _, m := range CommentModes {
		if got, err := ParseCommentMode(string(m)); err != nil || got != m {
			t.Errorf("ParseCommentMode(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseCommentMode("sometimes"); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Errorf("bad mode accepted or unnamed: %v", err)
	}
}

func TestStickyCommentIsFoundAcrossPagesAndUpdatedInPlace(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken, PageSize: 2})
	// Noise before the sticky comment, including a pasted marker by someone
	// else, pushes it to the third page.
	srv.AddComment(7, "alice", "looks good")
	srv.AddComment(7, "mallory", marker+"\nhijack")
	srv.AddComment(7, "bob", "nit")
	srv.AddComment(7, "github-actions[bot]", "<!-- another tool -->")
	mine := srv.AddComment(7, "github-actions[bot]", marker+"\nold red")
	c := newClient(t, srv, testPacing(newClock()))

	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nnow green", Mode: CommentFailures})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != CommentUpdated || res.ID != mine {
		t.Fatalf("result = %+v, want update of %d", res, mine)
	}
	if want := fmt.Sprintf("%s/acme/widgets/pull/7#issuecomment-%d", githubtest.WebURL, mine); res.URL != want {
		t.Errorf("url = %q, want %q", res.URL, want)
	}
	comments := srv.Comments(7)
	if len(comments) != 5 || withoutRunLine(comments[4].Body) != marker+"\nnow green" || withoutRunLine(comments[1].Body) != marker+"\nhijack" {
		t.Errorf("comments after update: %+v", comments)
	}
	var pages []string
	for _, r := range srv.Requests() {
		if r.Method == "GET" && strings.HasSuffix(r.Path, "/comments") {
			pages = append(pages, r.RawQuery)
		}
	}
	if len(pages) != 3 || !strings.Contains(pages[2], "page=3") || !strings.Contains(pages[0], "per_page=100") {
		t.Errorf("comment pages requested: %v", pages)
	}
}

func TestStickyCommentRerunNeverDuplicates(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken, Login: "octo-bot"})
	c := newClient(t, srv, testPacing(newClock()))
	ctx := context.Background()
	for i, body := range []string{"red", "red", "green"} {
		res, err := c.PublishComment(ctx, Comment{Repo: repo, Number: 3, Marker: marker, Body: marker + "\n" + body, Mode: CommentChanges, Failing: body == "red"})
		if err != nil {
			t.Fatal(err)
		}
		want := []CommentOutcome{CommentCreated, CommentUnchanged, CommentUpdated}[i]
		if res.Outcome != want {
			t.Errorf("run %d: outcome %s, want %s", i+1, res.Outcome, want)
		}
	}
	comments := srv.Comments(3)
	if len(comments) != 1 || withoutRunLine(comments[0].Body) != marker+"\ngreen" || comments[0].Login != "octo-bot" {
		t.Errorf("comments = %+v", comments)
	}
	var writes int
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			writes++
		}
	}
	if writes != 2 {
		t.Errorf("writes = %d, want 2 (the identical rerun writes nothing)", writes)
	}
}

func TestFailuresModeDoesNotCreateAGreenComment(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 1, Marker: marker, Body: marker + "\ngreen", Mode: CommentFailures})
	if err != nil || res.Outcome != CommentSkipped || len(srv.Comments(1)) != 0 {
		t.Errorf("result %+v, %v, comments %d", res, err, len(srv.Comments(1)))
	}
}

func TestOversizedCommentIsCutAndKeepsItsMarker(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	c := newClient(t, srv, testPacing(newClock()))
	body := strings.Repeat("ü", 70000) + marker // marker lost by a plain cut
	if _, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 1, Marker: marker, Body: body, Mode: CommentAlways}); err != nil {
		t.Fatal(err)
	}
	got := srv.Comments(1)[0].Body
	if n := utf8.RuneCountInString(got); n > escape.CommentChars || !strings.HasPrefix(got, marker) {
		t.Errorf("comment has %d characters, marker first: %v", n, strings.HasPrefix(got, marker))
	}
}

func TestPullForSHA(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddPull(4, "aaa")
	srv.AddPull(9, "bbb")
	c := newClient(t, srv, testPacing(newClock()))
	for sha, want := range map[string]int{"bbb": 9, "ccc": 0} {
		if got, err := c.PullForSHA(context.Background(), repo, sha); err != nil || got != want {
			t.Errorf("PullForSHA(%s) = %d, %v, want %d", sha, got, err, want)
		}
	}
}

const bot = "github-actions[bot]"

// The marker identifies a comment only as its first line: a comment of
// another corpus that merely mentions it (a file path, a quote) is left
// alone.
func TestStickyCommentMarkerCountsOnlyAsTheFirstLine(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	other := srv.AddComment(7, bot, "<!-- drp2-fixtures:comment:other -->\n| `corpus/"+marker+".json` | failed |")
	quoted := srv.AddComment(7, bot, " "+marker+"\nindented, not first")
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nmine", Mode: CommentAlways})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != CommentCreated || res.ID == other || res.ID == quoted {
		t.Errorf("result = %+v: another comment was taken for this corpus's", res)
	}
	comments := srv.Comments(7)
	if len(comments) != 3 || !strings.Contains(comments[0].Body, "failed") || !strings.Contains(comments[1].Body, "indented") {
		t.Errorf("comments = %+v", comments)
	}
}

// A body edited in the browser comes back with CRLF line ends; its first
// line is still the marker.
func TestStickyCommentMarkerBeforeCRLF(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	mine := srv.AddComment(7, bot, marker+"\r\nold")
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nnew", Mode: CommentAlways})
	if err != nil || res.ID != mine || res.Outcome != CommentUpdated {
		t.Errorf("result = %+v, %v; want comment %d updated", res, err, mine)
	}
}

// A body whose marker is not on the first line gets it there, so that the
// next run finds the comment.
func TestStickyCommentBodyGetsTheMarkerFirst(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	c := newClient(t, srv, testPacing(newClock()))
	ctx := context.Background()
	for range 2 {
		if _, err := c.PublishComment(ctx, Comment{Repo: repo, Number: 7, Marker: marker, Body: "report\n" + marker, Mode: CommentAlways}); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Comments(7); len(got) != 1 || withoutRunLine(got[0].Body) != marker+"\nreport\n"+marker {
		t.Errorf("comments = %+v", got)
	}
	if _, err := c.PublishComment(ctx, Comment{Repo: repo, Number: 7, Marker: marker + "\nx", Body: "b", Mode: CommentAlways}); err == nil {
		t.Errorf("a marker of two lines was accepted")
	}
}

// otherStep is the hidden run line of another step of the same workflow
// run (a matrix leg of the same report name): same run, another nonce.
var otherStep = CommentRun{Nonce: "0123456789abcdef"}.line()

// A run that creates its comment just after a concurrent step of the same
// run created its own removes its duplicate and writes into the older one.
func TestConcurrentRunCreatedFirst(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	var theirs int64
	srv.OnRequest("POST", "/repos/acme/widgets/issues/7/comments", 1, func() {
		theirs = srv.AddComment(7, bot, marker+"\n"+otherStep+"\nthe other run")
	})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nthis run", Mode: CommentAlways})
	if err != nil {
		t.Fatal(err)
	}
	comments := srv.Comments(7)
	if len(comments) != 1 || comments[0].ID != theirs || withoutRunLine(comments[0].Body) != marker+"\nthis run" {
		t.Fatalf("comments = %+v, want only %d with this run's body", comments, theirs)
	}
	if res.ID != theirs || res.Outcome != CommentUpdated || !strings.HasSuffix(res.URL, fmt.Sprint(theirs)) {
		t.Errorf("result = %+v", res)
	}
	var deleted []string
	for _, r := range srv.Requests() {
		if r.Method == "DELETE" {
			deleted = append(deleted, r.Path)
		}
	}
	if len(deleted) != 1 || deleted[0] == fmt.Sprintf("/repos/acme/widgets/issues/comments/%d", theirs) {
		t.Errorf("deleted %v, want only this run's own comment", deleted)
	}
}

// A run whose comment is the older one keeps it, and removes the newer
// duplicate of the concurrent step: every run removes every duplicate.
func TestConcurrentRunCreatedSecond(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	var theirs int64
	srv.OnRequest("POST", "/repos/acme/widgets/issues/7/comments", 1, func() {
		srv.OnRequest("GET", "/repos/acme/widgets/issues/7/comments", 1, func() {
			theirs = srv.AddComment(7, bot, marker+"\n"+otherStep+"\nthe other run")
		})
	})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nthis run", Mode: CommentAlways})
	if err != nil {
		t.Fatal(err)
	}
	comments := srv.Comments(7)
	if res.Outcome != CommentCreated || len(comments) != 1 || comments[0].ID != res.ID || withoutRunLine(comments[0].Body) != marker+"\nthis run" {
		t.Errorf("result %+v, comments %+v", res, comments)
	}
	if sawMethod(srv, "PATCH") || !sawRequest(srv, "DELETE", fmt.Sprintf("/repos/acme/widgets/issues/comments/%d", theirs)) {
		t.Errorf("the older comment's run did not keep its own and remove the newer one: %+v", srv.Requests())
	}
}

// Two clients at the same moment: both find no comment, both create one,
// and one comment stays.
func TestTwoRunsAtTheSameMomentLeaveOneComment(t *testing.T) {
	for round := range 20 {
		srv := githubtest.New(t, githubtest.Options{Token: testToken})
		// Hold each create until both runs have looked for a comment and
		// found none.
		var arrived sync.WaitGroup
		arrived.Add(2)
		srv.OnRequest("POST", "/repos/acme/widgets/issues/7/comments", 2, func() {
			arrived.Done()
			arrived.Wait()
		})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := newClient(t, srv, testPacing(newClock()))
				_, errs[i] = c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker,
					Body: fmt.Sprintf("%s\nrun %d", marker, i), Mode: CommentAlways})
			}()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: %v / %v", round, errs[0], errs[1])
		}
		if got := srv.Comments(7); len(got) != 1 {
			t.Fatalf("round %d: %d comments left: %+v", round, len(got), got)
		}
	}
}

// A comment deleted between finding and editing it (404 on PATCH) is
// created anew.
func TestCommentDeletedBeforeEditIsCreatedAnew(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	old := srv.AddComment(7, bot, marker+"\nold")
	srv.OnRequest("PATCH", "/repos/acme/widgets/issues/comments/", 1, func() {
		if !srv.DeleteComment(old) {
			t.Error("the comment to delete was not there")
		}
	})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nnew", Mode: CommentAlways})
	if err != nil {
		t.Fatal(err)
	}
	comments := srv.Comments(7)
	if len(comments) != 1 || comments[0].ID == old || withoutRunLine(comments[0].Body) != marker+"\nnew" {
		t.Fatalf("comments = %+v", comments)
	}
	if res.Outcome != CommentCreated || res.ID != comments[0].ID {
		t.Errorf("result = %+v", res)
	}
}

// In failures mode a green run does not recreate a comment someone deleted.
func TestGreenRunDoesNotRecreateADeletedFailuresComment(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	old := srv.AddComment(7, bot, marker+"\nred")
	srv.OnRequest("PATCH", "/repos/acme/widgets/issues/comments/", 1, func() { srv.DeleteComment(old) })
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\ngreen", Mode: CommentFailures})
	if err != nil || res.Outcome != CommentSkipped || len(srv.Comments(7)) != 0 {
		t.Errorf("result %+v, %v; comments %+v", res, err, srv.Comments(7))
	}
}

func sawMethod(srv *githubtest.Server, method string) bool {
	for _, r := range srv.Requests() {
		if r.Method == method {
			return true
		}
	}
	return false
}

func TestPullForSHAAcrossPages(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken, PageSize: 2})
	for n := 1; n <= 5; n++ {
		srv.AddPull(n, fmt.Sprint("sha", n))
	}
	c := newClient(t, srv, testPacing(newClock()))
	if got, err := c.PullForSHA(context.Background(), repo, "sha5"); err != nil || got != 5 {
		t.Errorf("PullForSHA = %d, %v, want 5 from the third page", got, err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("requests = %d, want 3 pages", n)
	}
}

// With a result key, "changes" compares what the comment reports, not the
// links of each run, which differ every time.
func TestChangesModeComparesTheResultKey(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken, Login: "octo-bot"})
	c := newClient(t, srv, testPacing(newClock()))
	ctx := context.Background()
	runs := []struct {
		body, key string
		want      CommentOutcome
	}{
		{"red, run 1", "aa11", CommentCreated},
		{"red, run 2", "aa11", CommentUnchanged},
		{"green, run 3", "bb22", CommentUpdated},
	}
	for i, r := range runs {
		res, err := c.PublishComment(ctx, Comment{Repo: repo, Number: 4, Marker: marker, Body: marker + "\n" + r.body,
			Mode: CommentChanges, Failing: true, ResultKey: r.key})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != r.want {
			t.Errorf("run %d: outcome %s, want %s", i+1, res.Outcome, r.want)
		}
	}
	comments := srv.Comments(4)
	if len(comments) != 1 || withoutRunLine(comments[0].Body) != marker+"\n<!-- drp2-fixtures:result bb22 -->\ngreen, run 3" {
		t.Errorf("comments = %+v", comments)
	}
	if _, err := c.PublishComment(ctx, Comment{Repo: repo, Number: 4, Marker: marker, Body: "x", Mode: CommentChanges, ResultKey: "--> <script>"}); err == nil {
		t.Error("a key that could end the HTML comment was accepted")
	}
}

// TestAppTokenKeepsOneComment: with a GitHub App's installation token
// (actions/create-github-app-token), GET /user is refused as for
// GITHUB_TOKEN, but the comments are by the App's bot, not by
// github-actions[bot]: the client asks GraphQL who the token is, finds its
// comment again on every run, and still ignores a pasted marker.
func TestAppTokenKeepsOneComment(t *testing.T) {
	for _, prefix := range []string{"", "/api/v3"} {
		srv := githubtest.New(t, githubtest.Options{Token: testToken, App: "drp2-gate", Prefix: prefix})
		srv.AddComment(3, "mallory", marker+"\npasted")
		srv.AddComment(3, githubtest.ActionsBot, marker+"\nby GITHUB_TOKEN in another workflow")
		for i := 0; i < 3; i++ {
			// A new client per run, as every run of the action has.
			c := newClient(t, srv, testPacing(newClock()))
			res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 3, Marker: marker, Body: fmt.Sprintf("%s\nrun %d", marker, i), Mode: CommentAlways})
			if err != nil {
				t.Fatalf("%q run %d: %v", prefix, i, err)
			}
			want := []CommentOutcome{CommentCreated, CommentUpdated, CommentUpdated}[i]
			if res.Outcome != want {
				t.Errorf("%q run %d: %s, want %s", prefix, i, res.Outcome, want)
			}
		}
		var mine []githubtest.Comment
		for _, c := range srv.Comments(3) {
			if c.Login == "drp2-gate[bot]" {
				mine = append(mine, c)
			}
		}
		if len(mine) != 1 || withoutRunLine(mine[0].Body) != marker+"\nrun 2" || len(srv.Comments(3)) != 3 {
			t.Errorf("%q: comments %+v", prefix, srv.Comments(3))
		}
	}
}

func sawRequest(srv *githubtest.Server, method, path string) bool {
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			return true
		}
	}
	return false
}
