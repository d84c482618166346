package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// A Link header that points back at a page already read ends the list at
// once instead of reading it forever.
func TestLoopingLinkHeaderIsNotFollowed(t *testing.T) {
	for _, back := range []int{1, 2} {
		t.Run(fmt.Sprint("next is page ", back), func(t *testing.T) {
			srv := githubtest.New(t, githubtest.Options{Token: testToken})
			// Many answers, so that a client without a bound ends the test
			// with a count instead of hanging.
			srv.AddFault(githubtest.Fault{Method: "GET", Path: "/repos/acme/widgets/issues/7/comments", Status: 200, Times: 1000, Body: "[]",
				Header: map[string]string{"Link": fmt.Sprintf(`<%s/repos/acme/widgets/issues/7/comments?page=%d>; rel="next"`, srv.URL, back)}})
			c := newClient(t, srv, testPacing(newClock()))
			_, err := c.PublishComment(context.Background(), Comment{Repo: repo, Number: 7, Marker: marker, Body: marker + "\nx", Mode: CommentAlways})
			var pe *PagingError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a PagingError", err)
			}
			lists := 0
			for _, r := range srv.Requests() {
				if r.Method == "GET" && r.Path == "/repos/acme/widgets/issues/7/comments" {
					lists++
				}
				if r.Method != "GET" && r.Path != "/graphql" { // the viewer query reads
					t.Errorf("wrote after an unfinished list: %s %s", r.Method, r.Path)
				}
			}
			if lists != back {
				t.Errorf("list requests = %d, want %d", lists, back)
			}
		})
	}
}

// A Link header that always names one more page is followed at most
// maxListPages times.
func TestEndlessLinkHeaderIsBounded(t *testing.T) {
	var requests atomic.Int32
	var api *httptest.Server
	api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if n < 5000 { // the test's own bound, far past the client's
			w.Header().Set("Link", fmt.Sprintf(`<%s/repos/acme/widgets/pulls?page=%d>; rel="next"`, api.URL, page+1))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"number": 1, "head": {"sha": "other"}}]`)
	}))
	defer api.Close()
	c, err := New(Options{APIURL: api.URL, Token: testToken, Pacing: testPacing(newClock())})
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.PullForSHA(context.Background(), repo, "wanted")
	var pe *PagingError
	if !errors.As(err, &pe) || n != 0 || pe.Pages != maxListPages {
		t.Fatalf("PullForSHA = %d, %v; want a PagingError after %d pages", n, err, maxListPages)
	}
	if got := requests.Load(); got != maxListPages {
		t.Errorf("requests = %d, want %d", got, maxListPages)
	}
}
