package github

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/report/github/githubtest"
	"github.com/drp2/drp2-fixtures/report/limit"
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
	if len(comments) != 5 || comments[4].Body != marker+"\nnow green" || comments[1].Body != marker+"\nhijack" {
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
	if len(comments) != 1 || comments[0].Body != marker+"\ngreen" || comments[0].Login != "octo-bot" {
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
	if n := utf8.RuneCountInString(got); n > limit.CommentChars || !strings.HasPrefix(got, marker) {
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
