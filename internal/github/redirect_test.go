package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// stranger is a second server on 127.0.0.1 (another port, so another
// host) that records what reaches it and answers like the API would.
type stranger struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD path auth"
}

func newStranger(t *testing.T) *stranger {
	s := &stranger{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/pulls") {
			fmt.Fprint(w, `[{"number": 66, "head": {"sha": "s"}}]`)
			return
		}
		fmt.Fprint(w, `{"id": 666, "name": "n", "html_url": "https://evil.example/run"}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *stranger) Seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func TestCrossHostRedirectNeverCarriesTheToken(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := githubtest.New(t, githubtest.Options{Token: testToken})
			other := newStranger(t)
			srv.AddFault(githubtest.Fault{Method: "GET", Path: "/repos/acme/widgets/pulls", Status: status,
				Header: map[string]string{"Location": other.URL + "/repos/acme/widgets/pulls"}})
			c := newClient(t, srv, testPacing(newClock()))
			n, err := c.PullForSHA(context.Background(), repo, "s")
			for _, s := range other.Seen() {
				if strings.Contains(s, testToken) {
					t.Errorf("the token reached another host: %s", s)
				}
			}
			var re *RedirectError
			if !errors.As(err, &re) || n != 0 {
				t.Fatalf("PullForSHA = %d, %v; want a RedirectError", n, err)
			}
			if re.Status != status || !strings.Contains(err.Error(), "leads away from the API") || strings.Contains(err.Error(), testToken) {
				t.Errorf("error = %v", err)
			}
		})
	}
}

func TestRedirectedWriteFails(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		for _, where := range []string{"same host", "other host"} {
			t.Run(fmt.Sprint(status, " ", where), func(t *testing.T) {
				srv := githubtest.New(t, githubtest.Options{Token: testToken})
				other := newStranger(t)
				// A check run that a GET after the redirect would find.
				id := srv.SeedCheckRun("old", "s")
				to := fmt.Sprintf("%s/repos/acme/widgets/check-runs/%d", srv.URL, id)
				if where == "other host" {
					to = other.URL + "/repos/acme/widgets/check-runs/1"
				}
				srv.AddFault(githubtest.Fault{Method: "POST", Path: "/repos/acme/widgets/check-runs", Status: status,
					Header: map[string]string{"Location": to}})
				c := newClient(t, srv, testPacing(newClock()))
				res, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "n", HeadSHA: "s", Conclusion: "failure", Summary: "x"})
				var re *RedirectError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), "a write is never redirected") {
					t.Fatalf("PublishCheck = %+v, %v; want a RedirectError", res, err)
				}
				if res.ID != 0 || res.URL != "" {
					t.Errorf("a redirected answer was taken for the created check run: %+v", res)
				}
				if got := other.Seen(); len(got) != 0 {
					t.Errorf("the write was replayed on another host: %q", got)
				}
				for _, r := range srv.Requests() {
					if r.Method != "POST" {
						t.Errorf("the write was replayed as %s %s", r.Method, r.Path)
					}
				}
			})
		}
	}
}

// GitHub answers 301 for a renamed repository; a read on the API's own
// host still follows it, with the token.
func TestSameHostReadRedirectIsFollowed(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddPull(5, "s")
	srv.AddFault(githubtest.Fault{Method: "GET", Path: "/repos/old/name/pulls", Status: 301, Times: 1,
		Header: map[string]string{"Location": srv.URL + "/repos/acme/widgets/pulls?state=open"}})
	c := newClient(t, srv, testPacing(newClock()))
	n, err := c.PullForSHA(context.Background(), Repo{Owner: "old", Name: "name"}, "s")
	if err != nil || n != 5 {
		t.Fatalf("PullForSHA = %d, %v; want 5", n, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Path != "/repos/acme/widgets/pulls" || reqs[1].Auth != "Bearer "+testToken {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestRedirectPolicy(t *testing.T) {
	api, _ := url.Parse("https://api.github.com/")
	policy := checkRedirect(api)
	get, _ := http.NewRequest("GET", "https://api.github.com/repos/a/b/pulls", nil)
	tests := []struct {
		to   string
		hops int
		want string // "" follows
	}{
		{"https://api.github.com/repositories/1/pulls", 1, ""},
		{"https://API.GITHUB.COM/repositories/1/pulls", 1, ""},
		{"http://api.github.com/repositories/1/pulls", 1, "leads away"}, // a downgrade sends the token in clear
		{"https://api.github.com:8443/x", 1, "leads away"},
		{"https://evil.example/x", 1, "leads away"},
		{"https://api.github.com/x", maxRedirects, "more than"},
	}
	for _, tt := range tests {
		next, _ := http.NewRequest("GET", tt.to, nil)
		via := make([]*http.Request, tt.hops)
		for i := range via {
			via[i] = get
		}
		err := policy(next, via)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("redirect to %s after %d hop(s): %v, want %q", tt.to, tt.hops, err, tt.want)
		}
	}
}

// The transport itself never puts the token on a request to another
// origin, whatever sent it there.
func TestTransportKeepsTheTokenHome(t *testing.T) {
	var got []string
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = append(got, r.URL.Host+" "+r.Header.Get("Authorization"))
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	api, _ := url.Parse("https://api.github.com/")
	tr := newTransport(base, testToken, Pacing{WriteInterval: -1}, api, nil)
	for _, u := range []string{"https://api.github.com/user", "https://evil.example/user", "http://api.github.com/user"} {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Authorization", "Bearer "+testToken) // as http.Client copies it on a same-domain hop
		if _, err := tr.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"api.github.com Bearer " + testToken, "evil.example ", "api.github.com "}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests = %q, want %q", got, want)
	}
}
