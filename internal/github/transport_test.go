package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

func createCheck(c *Client) error {
	_, err := c.PublishCheck(context.Background(), Check{Repo: repo, Name: "n", HeadSHA: "s", Conclusion: "failure", Summary: "x"})
	return err
}

// TestFaults drives each GitHub fault through the fake and checks that the
// request ends within the budget, retried or not as the fault deserves, and
// that no error ever shows the token.
func TestFaults(t *testing.T) {
	reset := time.Date(2025, 3, 1, 12, 0, 42, 0, time.UTC) // 42 s after the fake clock's start
	tests := []struct {
		name        string
		faults      []githubtest.Fault
		wantErr     bool
		wantAttempt int             // requests the fake saw
		wantSlept   []time.Duration // waits between attempts
		check       func(t *testing.T, err error)
	}{
		{
			name:        "500 502 503 then success",
			faults:      []githubtest.Fault{{Status: 500, Times: 1}, {Status: 502, Times: 1}, {Status: 503, Times: 1}},
			wantAttempt: 4, wantSlept: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second},
		},
		{
			name:        "persistent 500 gives up within the budget",
			faults:      []githubtest.Fault{{Status: 500, Body: `{"message":"boom"}`}},
			wantErr:     true,
			wantAttempt: 8, wantSlept: []time.Duration{1, 2, 4, 8, 16, 30, 30}, // seconds; 91 s < 120 s
			check: func(t *testing.T, err error) {
				var ge *GiveUpError
				if !errors.As(err, &ge) || ge.StatusCode != 500 || ge.Attempts != 8 {
					t.Errorf("want GiveUpError after 8 attempts with status 500, got %v", err)
				}
			},
		},
		{
			name: "403 secondary rate limit honours Retry-After",
			faults: []githubtest.Fault{{Status: 403, Times: 1, Header: map[string]string{"Retry-After": "7"},
				Body: `{"message":"You have exceeded a secondary rate limit."}`}},
			wantAttempt: 2, wantSlept: []time.Duration{7 * time.Second},
		},
		{
			name: "403 secondary rate limit without headers waits at least a minute",
			faults: []githubtest.Fault{{Status: 403, Times: 1,
				Body: `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`}},
			wantAttempt: 2, wantSlept: []time.Duration{time.Minute},
		},
		{
			name: "429 waits until x-ratelimit-reset",
			faults: []githubtest.Fault{{Status: 429, Times: 1, Header: map[string]string{
				"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": strconv.FormatInt(reset.Unix(), 10)}}},
			wantAttempt: 2, wantSlept: []time.Duration{42 * time.Second},
		},
		{
			name:        "Retry-After beyond the budget gives up at once",
			faults:      []githubtest.Fault{{Status: 429, Header: map[string]string{"Retry-After": "3600"}}},
			wantErr:     true,
			wantAttempt: 1,
		},
		{
			name:        "401 bad token is not retried",
			faults:      []githubtest.Fault{{Status: 401, Body: `{"message":"Bad credentials"}`}},
			wantErr:     true,
			wantAttempt: 1,
			check: func(t *testing.T, err error) {
				if StatusCode(err) != 401 || Forbidden(err) {
					t.Errorf("status %d, forbidden %v", StatusCode(err), Forbidden(err))
				}
			},
		},
		{
			name:        "403 resource not accessible is not retried",
			faults:      []githubtest.Fault{{Status: 403, Body: `{"message":"Resource not accessible by integration"}`}},
			wantErr:     true,
			wantAttempt: 1,
			check: func(t *testing.T, err error) {
				if !Forbidden(err) {
					t.Errorf("Forbidden(%v) = false", err)
				}
			},
		},
		{
			name:        "404 is not retried",
			faults:      []githubtest.Fault{{Status: 404, Body: `{"message":"Not Found"}`}},
			wantErr:     true,
			wantAttempt: 1,
		},
		{
			name:        "422 is not retried",
			faults:      []githubtest.Fault{{Status: 422, Body: `{"message":"Invalid request.\n\nsummary exceeds a maximum bytesize of 65535"}`}},
			wantErr:     true,
			wantAttempt: 1,
			check: func(t *testing.T, err error) {
				if !strings.Contains(err.Error(), "422") || !strings.Contains(err.Error(), "bytesize") {
					t.Errorf("error does not say what GitHub refused: %v", err)
				}
			},
		},
		{
			name:        "connection reset then success",
			faults:      []githubtest.Fault{{Reset: true, Times: 2}},
			wantAttempt: 3, wantSlept: []time.Duration{time.Second, 2 * time.Second},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := githubtest.New(t, githubtest.Options{Token: testToken})
			for _, f := range tt.faults {
				srv.AddFault(f)
			}
			clock := newClock()
			c := newClient(t, srv, testPacing(clock))
			err := createCheck(c)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), testToken) {
				t.Errorf("error shows the token: %v", err)
			}
			if n := len(srv.Requests()); n != tt.wantAttempt {
				t.Errorf("attempts = %d, want %d", n, tt.wantAttempt)
			}
			want := tt.wantSlept
			if tt.name == "persistent 500 gives up within the budget" {
				want = nil
				for _, s := range tt.wantSlept {
					want = append(want, s*time.Second)
				}
			}
			if got := clock.Slept(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("slept %v, want %v", got, want)
			}
			if elapsed := clock.Now().Sub(newClock().Now()); elapsed > 2*time.Minute {
				t.Errorf("spent %s, beyond the 2m budget", elapsed)
			}
			if !tt.wantErr && len(srv.CheckRuns()) != 1 {
				t.Errorf("check runs = %d, want 1", len(srv.CheckRuns()))
			}
			if tt.check != nil {
				tt.check(t, err)
			}
		})
	}
}

// TestSilentServerEndsWithinTheBudget uses real time: a server that never
// answers is cut off by the attempt timeout, and the budget stops retries.
func TestSilentServerEndsWithinTheBudget(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddFault(githubtest.Fault{Hang: true})
	c := newClient(t, srv, Pacing{Budget: 600 * time.Millisecond, AttemptTimeout: 100 * time.Millisecond,
		BaseDelay: 50 * time.Millisecond, WriteInterval: -1})
	start := time.Now()
	err := createCheck(c)
	elapsed := time.Since(start)
	var ge *GiveUpError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "no answer within") {
		t.Fatalf("want GiveUpError naming the timeout, got %v", err)
	}
	if elapsed > 2*time.Second {
		t.Errorf("took %s for a 600ms budget", elapsed)
	}
	if n := len(srv.Requests()); n < 2 {
		t.Errorf("attempts = %d, want retries after a timeout", n)
	}
}

// TestBudgetIsSharedAcrossRequests: once one request spent the budget, the
// next one fails at once instead of starting its own two minutes.
func TestBudgetIsSharedAcrossRequests(t *testing.T) {
	srv := githubtest.New(t, githubtest.Options{Token: testToken})
	srv.AddFault(githubtest.Fault{Status: 503})
	clock := newClock()
	p := testPacing(clock)
	p.Budget = 10 * time.Second
	c := newClient(t, srv, p)
	if err := createCheck(c); err == nil {
		t.Fatal("want an error")
	}
	if err := createCheck(c); err == nil {
		t.Fatal("second request: want an error")
	}
	spent := len(srv.Requests())
	if err := createCheck(c); err == nil || !strings.Contains(err.Error(), "budget of 10s already spent") {
		t.Fatalf("third request: want the spent budget named, got %v", err)
	}
	if len(srv.Requests()) != spent {
		t.Errorf("a request was sent after the budget was spent")
	}
	if clock.Now().Sub(newClock().Now()) > 10*time.Second {
		t.Errorf("spent %s of a 10s budget", clock.Now().Sub(newClock().Now()))
	}
}

// TestWritesAreSerializedAndSpaced fires concurrent writes and checks that
// at most one is in flight and that each waits for the interval.
func TestWritesAreSerializedAndSpaced(t *testing.T) {
	var inflight, peak atomic.Int32
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		return &http.Response{StatusCode: 201, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	clock := newClock()
	tr := newTransport(base, testToken, Pacing{WriteInterval: time.Second, Now: clock.Now, Sleep: clock.Sleep}, &url.URL{Scheme: "http", Host: "127.0.0.1"}, nil)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/x", strings.NewReader("{}"))
			if _, err := tr.RoundTrip(req); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if peak.Load() != 1 {
		t.Errorf("peak concurrent writes = %d, want 1", peak.Load())
	}
	if got := clock.Slept(); len(got) != 5 {
		t.Errorf("waits between 6 writes = %v, want 5 of 1s", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
