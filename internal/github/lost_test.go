package github

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// A create and an annotation batch that GitHub applied, but whose answer
// was lost, are found rather than sent twice.
func TestWritesWhoseAnswerIsLostAreNotAppliedTwice(t *testing.T) {
	for _, f := range []githubtest.Fault{
		{Method: "POST", Path: "/repos/acme/widgets/check-runs", Reset: true, AfterApply: true, Times: 2},
		{Method: "PATCH", Path: "/repos/acme/widgets/check-runs/", Status: 502, AfterApply: true, Times: 1},
		{Method: "PATCH", Path: "/repos/acme/widgets/check-runs/", Status: 200, Body: "{", AfterApply: true, Times: 2},
		{Method: "PATCH", Path: "/repos/acme/widgets/check-runs/", Reset: true, Times: 1},
	} {
		srv := githubtest.New(t, githubtest.Options{Token: testToken})
		srv.AddFault(f)
		c := newClient(t, srv, testPacing(newClock()))
		res, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "n", HeadSHA: "abc", ExternalID: "run 1", Conclusion: "failure",
			Title: "t", Summary: "s", Annotations: annotations(120)})
		runs := srv.CheckRuns()
		if err != nil || len(runs) != 1 || len(runs[0].Annotations) != 120 || res.Annotated != 120 || res.ID != runs[0].ID {
			t.Errorf("%+v: err %v, result %+v, %d check runs", f, err, res, len(runs))
			continue
		}
		if got := fmt.Sprint(runs[0].Batches); got != "[50 50 20]" {
			t.Errorf("%+v: batches %s, want [50 50 20]", f, got)
		}
	}
}

// A refused later batch leaves a check run that shows its verdict and the
// first annotations, and says so.
func TestRefusedLaterBatchIsPartial(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddFault(githubtest.Fault{Method: "PATCH", Path: "/repos/acme/widgets/check-runs/", Status: 422, Body: `{"message":"Validation Failed"}`})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "n", HeadSHA: "abc", Conclusion: "failure", Title: "t", Summary: "s", Annotations: annotations(120)})
	var partial *PartialCheckError
	if !asPartial(err, &partial) || partial.Attached != 50 || partial.Total != 120 || res.URL == "" || res.Annotated != 50 {
		t.Errorf("err %v, result %+v", err, res)
	}
}

func asPartial(err error, p **PartialCheckError) bool {
	e, ok := err.(*PartialCheckError)
	*p = e
	return ok
}

// A comment create whose answer is lost, again and again, leaves one comment.
func TestCommentCreateWhoseAnswerIsLostLeavesOne(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddPull(7, "abc")
	srv.AddFault(githubtest.Fault{Method: "POST", Path: "/repos/acme/widgets/issues/7/comments", Reset: true, AfterApply: true, Times: 3})
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: "red", Mode: CommentAlways,
		Run: CommentRun{Head: "abc", ID: 5, Attempt: 1}})
	if got := srv.Comments(7); err != nil || len(got) != 1 || res.Outcome != CommentCreated || res.ID != got[0].ID {
		t.Errorf("err %v, result %+v, comments %+v", err, res, got)
	}
}

// Every copy of the sticky comment is removed but the one with the newest
// verdict; another author's pasted marker is left alone.
func TestEveryDuplicateIsRemoved(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddPull(7, "abc")
	for i := range 7 {
		srv.AddComment(7, bot, fmt.Sprintf("%s\n%s\nstale %d", marker, CommentRun{Head: "old", ID: int64(i)}.line(), i))
	}
	srv.AddComment(7, "mallory", marker+"\nhijack")
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: "green", Mode: CommentAlways,
		Run: CommentRun{Head: "abc", ID: 9, Attempt: 1}})
	got := srv.Comments(7)
	if err != nil || len(got) != 2 || got[1].Login != "mallory" || !strings.HasSuffix(got[0].Body, "\ngreen") || res.ID != got[0].ID {
		t.Errorf("err %v, result %+v, comments %+v", err, res, got)
	}
}

// A run of a superseded commit writes nothing; a run older than the one
// that wrote the comment of the same commit leaves it.
func TestOlderVerdictsNeverOverwrite(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddPull(7, "new")
	newer := srv.AddComment(7, bot, marker+"\n"+CommentRun{Head: "new", ID: 10, Attempt: 1, Nonce: "aa"}.line()+"\nnewest")
	c := newClient(t, srv, testPacing(newClock()))
	for _, run := range []CommentRun{{Head: "old", ID: 11, Attempt: 1}, {Head: "new", ID: 9, Attempt: 3}} {
		res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: "stale", Mode: CommentAlways, Run: run})
		want := map[string]CommentOutcome{"old": CommentSuperseded, "new": CommentKept}[run.Head]
		if err != nil || res.Outcome != want {
			t.Errorf("run %+v: err %v, result %+v, want %s", run, err, res, want)
		}
	}
	if got := srv.Comments(7); len(got) != 1 || got[0].ID != newer || !strings.HasSuffix(got[0].Body, "newest") || sawMethod(srv, "PATCH") || sawRequest(srv, "POST", "/repos/acme/widgets/issues/7/comments") {
		t.Errorf("comments %+v", got)
	}
}

// A comment write GitHub asks to wait a minute for is not sent unchanged
// after the wait: the pull request's head is read again, and a push meanwhile
// leaves the comment to the new head's run.
func TestCommentAfterALongWaitLooksAgain(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddPull(7, "abc")
	srv.AddFault(githubtest.Fault{Method: "POST", Path: "/repos/acme/widgets/issues/7/comments", Status: 403, Times: 1,
		Header: map[string]string{"Retry-After": "60"}, Body: `{"message":"` + githubtest.SecondaryLimitMessage + `"}`})
	srv.OnRequest("POST", "/repos/acme/widgets/issues/7/comments", 1, func() { srv.AddPull(7, "def") })
	c := newClient(t, srv, testPacing(newClock()))
	res, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: "red", Mode: CommentAlways,
		Run: CommentRun{Head: "abc", ID: 5, Attempt: 1}})
	if err != nil || res.Outcome != CommentSuperseded || res.Head != "def" || len(srv.Comments(7)) != 0 {
		t.Errorf("err %v, result %+v, comments %+v", err, res, srv.Comments(7))
	}
}
