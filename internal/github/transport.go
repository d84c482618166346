package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/drp2/drp2-fixtures/internal/secret"
)

// Pacing configures retries, timeouts and the spacing of writes. The zero
// value of a field means its production default; Now and Sleep are injected
// so that tests run in milliseconds.
type Pacing struct {
	// Budget bounds the total time spent on the API by one Client: no
	// attempt starts and no wait is begun that would end after it.
	Budget time.Duration
	// AttemptTimeout ends one attempt (headers and body) to a silent server.
	AttemptTimeout time.Duration
	// WriteInterval is the least time between two writes (POST, PATCH, ...).
	// Negative means no spacing.
	WriteInterval time.Duration
	// BaseDelay is the first backoff after a 5xx or a network error; it
	// doubles on every further attempt up to MaxDelay.
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// RateLimitDelay is the least wait after a rate-limited response that
	// names neither Retry-After nor a reset time.
	RateLimitDelay time.Duration
	Now            func() time.Time
	Sleep          func(ctx context.Context, d time.Duration) error
	// Logf receives one line per retry. Nil discards them.
	Logf func(format string, args ...any)
	// Waitf receives, besides, one line for every wait of LongWait or
	// more (a secondary rate limit asks for a minute), so that a step
	// that seems stuck says why. Nil discards them.
	Waitf func(format string, args ...any)
}

// LongWait is the least wait before a retry that Pacing.Waitf is told of.
const LongWait = 5 * time.Second

func (p Pacing) withDefaults() Pacing {
	if p.Budget <= 0 {
		p.Budget = DefaultBudget
	}
	if p.AttemptTimeout <= 0 {
		p.AttemptTimeout = DefaultAttemptTimeout
	}
	if p.WriteInterval == 0 {
		p.WriteInterval = DefaultWriteInterval
	}
	if p.WriteInterval < 0 {
		p.WriteInterval = 0
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = defaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = defaultMaxDelay
	}
	if p.RateLimitDelay <= 0 {
		p.RateLimitDelay = rateLimitMinDelay
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Sleep == nil {
		p.Sleep = sleepContext
	}
	if p.Logf == nil {
		p.Logf = func(string, ...any) {}
	}
	if p.Waitf == nil {
		p.Waitf = func(string, ...any) {}
	}
	return p
}

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// GiveUpError is returned when a request still failed after the retries the
// budget allowed. It names the request by method and path only: never the
// headers, which carry the token.
type GiveUpError struct {
	Method, Path string
	Attempts     int
	Elapsed      time.Duration
	// StatusCode of the last response, or 0 when the last attempt got no
	// response (timeout, connection reset).
	StatusCode int
	// Last describes the last failure.
	Last string
}

func (e *GiveUpError) Error() string {
	return fmt.Sprintf("%s %s: gave up after %d attempt(s) in %s: %s",
		e.Method, e.Path, e.Attempts, e.Elapsed.Round(time.Millisecond), e.Last)
}

// LostAnswerError is a write whose outcome is unknown: the connection
// broke or stalled after the request was sent, GitHub (or a proxy in front
// of it) answered 5xx, or it answered success with a body that is not
// JSON. GitHub may have applied it. A create or an annotation batch sent
// again would then be applied twice, so the transport never repeats such
// a write: the caller looks whether it landed, and sends it again only if
// it did not.
type LostAnswerError struct {
	Method, Path string
	// Why says what became of the answer; StatusCode is its status, or
	// 0 when none came.
	Why        string
	StatusCode int
	// Deferred says GitHub did not apply it but asked for a long wait
	// (a rate limit), after which the caller reads again what the write
	// depends on before sending it: a minute is time enough for a push.
	Deferred bool
}

func (e *LostAnswerError) Error() string {
	if e.Deferred {
		return fmt.Sprintf("%s %s: %s; not applied, and sent again only after a fresh look", e.Method, e.Path, e.Why)
	}
	return fmt.Sprintf("%s %s: the answer was lost (%s); the request may have been applied", e.Method, e.Path, e.Why)
}

// lookAgainKey marks, in a request's context, a write whose caller reads
// again what it depends on after a long wait, rather than have the
// transport send it again unchanged.
type lookAgainKey struct{}

func withLookAgain(ctx context.Context) context.Context {
	return context.WithValue(ctx, lookAgainKey{}, true)
}

// reserveKey carries, in a request's context, the share of the budget
// its caller keeps for later requests.
type reserveKey struct{}

// WithReserve returns ctx whose requests stop share (0 to 1) of the
// budget before its end, keeping that time for requests made without it:
// a check run whose annotation batches meet a slow API never spends the
// time the sticky comment needs.
func WithReserve(ctx context.Context, share float64) context.Context {
	return context.WithValue(ctx, reserveKey{}, min(max(share, 0), 1))
}

// deadline is when requests in ctx must have ended.
func (t *transport) deadline(ctx context.Context) time.Time {
	share, _ := ctx.Value(reserveKey{}).(float64)
	return t.start.Add(t.p.Budget - time.Duration(share*float64(t.p.Budget)))
}

// pause waits before the next try of a write whose answer was lost:
// backoff, within the budget. It returns a GiveUpError, naming the write,
// when the budget does not allow the wait.
func (t *transport) pause(ctx context.Context, began time.Time, attempt int, lost *LostAnswerError) error {
	why := "the answer was lost: " + lost.Why
	if lost.Deferred {
		why = lost.Why
	}
	wait, _, _ := t.classify(nil, errors.New(why), attempt)
	if attempt >= maxAttempts || t.p.Now().Add(wait).After(t.deadline(ctx)) {
		return &GiveUpError{Method: lost.Method, Path: lost.Path, Attempts: attempt, Elapsed: t.p.Now().Sub(began), StatusCode: lost.StatusCode, Last: why}
	}
	t.p.Logf("GitHub API %s %s: %s; looking whether it landed in %s (attempt %d)", lost.Method, lost.Path, why, wait, attempt+1)
	return t.p.Sleep(ctx, wait)
}

// transport retries, paces and authenticates requests. It is the only
// place that knows the token.
type transport struct {
	base  http.RoundTripper
	token string
	p     Pacing
	start time.Time
	// api is the origin (scheme and host) the token belongs to; no request
	// to any other origin carries it.
	api string

	// redact replaces the token and the other secrets in request bodies.
	redact *secret.Redactor

	// writeMu serializes writes; lastWrite is when the previous one ended.
	writeMu   sync.Mutex
	lastWrite time.Time
}

func newTransport(base http.RoundTripper, token string, p Pacing, api *url.URL, redact *secret.Redactor) *transport {
	p = p.withDefaults()
	if base == nil {
		base = http.DefaultTransport
	}
	if redact == nil {
		redact = secret.NewRedactor()
	}
	redact.Add(token)
	return &transport{base: base, token: token, p: p, start: p.Now(), api: origin(api), redact: redact}
}

func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if isWrite(req.Method) {
		t.writeMu.Lock()
		defer t.writeMu.Unlock()
	}
	body, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	if body != nil {
		body = t.redact.Bytes(body)
	}
	deadline := t.deadline(req.Context())
	began := t.p.Now()
	var last string
	lastStatus := 0
	for attempt := 1; ; attempt++ {
		if isWrite(req.Method) && t.p.WriteInterval > 0 && !t.lastWrite.IsZero() {
			if gap := t.lastWrite.Add(t.p.WriteInterval).Sub(t.p.Now()); gap > 0 {
				if err := t.p.Sleep(req.Context(), gap); err != nil {
					return nil, err
				}
			}
		}
		remaining := deadline.Sub(t.p.Now())
		if remaining <= 0 {
			if last == "" {
				last = fmt.Sprintf("API time budget of %s already spent", t.p.Budget)
			}
			return nil, &GiveUpError{Method: req.Method, Path: req.URL.Path, Attempts: attempt - 1,
				Elapsed: t.p.Now().Sub(began), StatusCode: lastStatus, Last: last}
		}
		resp, err := t.attempt(req, body, min(t.p.AttemptTimeout, remaining))
		if isWrite(req.Method) {
			t.lastWrite = t.p.Now()
		}
		if err != nil && req.Context().Err() != nil {
			// The caller gave up; its error says why.
			return nil, err
		}
		wait, retry, why := t.classify(resp, err, attempt)
		if retry && isWrite(req.Method) && req.Method != http.MethodDelete && !unapplied(resp) {
			lost := &LostAnswerError{Method: req.Method, Path: req.URL.Path, Why: why}
			if resp != nil {
				lost.StatusCode = resp.StatusCode
			}
			return nil, lost
		}
		if !retry {
			return resp, err
		}
		last, lastStatus = why, 0
		if resp != nil {
			lastStatus = resp.StatusCode
		}
		if attempt >= maxAttempts || t.p.Now().Add(wait).After(deadline) {
			return nil, &GiveUpError{Method: req.Method, Path: req.URL.Path, Attempts: attempt,
				Elapsed: t.p.Now().Sub(began), StatusCode: lastStatus, Last: why}
		}
		t.p.Logf("GitHub API %s %s: %s; retrying in %s (attempt %d)", req.Method, req.URL.Path, why, wait, attempt+1)
		if wait >= LongWait {
			t.p.Waitf("GitHub API %s %s: %s; waiting %s before attempt %d", req.Method, req.URL.Path, why, wait.Round(time.Second), attempt+1)
		}
		if err := t.p.Sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		if lookAgain, _ := req.Context().Value(lookAgainKey{}).(bool); lookAgain && isWrite(req.Method) && wait >= LongWait {
			return nil, &LostAnswerError{Method: req.Method, Path: req.URL.Path, Why: why, StatusCode: lastStatus, Deferred: true}
		}
	}
}

// requestBody reads the request body once so that every attempt can send it.
func requestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	b, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	return b, nil
}

// attempt sends one request and reads the whole response while the attempt
// timeout still holds, so that a server that stalls mid-body also ends.
func (t *transport) attempt(orig *http.Request, body []byte, timeout time.Duration) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(orig.Context(), timeout)
	defer cancel()
	req := orig.Clone(ctx)
	if body != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	// The redirect policy already refuses other hosts; this check keeps
	// the token home even if a request gets here another way.
	if t.token != "" && t.api != "" && origin(req.URL) == t.api {
		req.Header.Set("Authorization", "Bearer "+t.token)
	} else {
		req.Header.Del("Authorization")
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && orig.Context().Err() == nil {
			return nil, fmt.Errorf("no answer within %s: %w", timeout, err)
		}
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read response body: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	resp.ContentLength = int64(len(data))
	return resp, nil
}

// classify decides whether to retry and how long to wait first.
func (t *transport) classify(resp *http.Response, err error, attempt int) (wait time.Duration, retry bool, why string) {
	backoff := t.p.BaseDelay << (attempt - 1)
	if backoff > t.p.MaxDelay || backoff <= 0 {
		backoff = t.p.MaxDelay
	}
	if err != nil {
		return backoff, true, err.Error()
	}
	status := fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	switch {
	case resp.StatusCode < 300 && malformed(resp):
		return backoff, true, status + " with a body that is not JSON"
	case resp.StatusCode >= 500:
		if d, ok := t.hintedWait(resp); ok {
			return d, true, status
		}
		return backoff, true, status
	case resp.StatusCode == http.StatusTooManyRequests || (resp.StatusCode == http.StatusForbidden && isRateLimited(resp)):
		if d, ok := t.hintedWait(resp); ok {
			return d, true, status + " (rate limited)"
		}
		rl := t.p.RateLimitDelay << (attempt - 1)
		if rl <= 0 {
			rl = t.p.RateLimitDelay
		}
		return max(rl, backoff), true, status + " (rate limited)"
	}
	return 0, false, ""
}

// malformed reports whether a success carries a body that is not JSON:
// every answer the client reads is JSON, and one cut short or replaced by
// a proxy's page would otherwise be taken for an empty answer or fail to
// decode without a second try.
func malformed(resp *http.Response) bool {
	b, err := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return err != nil || (len(bytes.TrimSpace(b)) > 0 && !json.Valid(b))
}

// unapplied reports whether a failed write's answer says GitHub did not
// apply it: a rate limit refuses the request before it acts on it.
func unapplied(resp *http.Response) bool {
	return resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusForbidden)
}

// hintedWait reads the server's own word on when to come back: Retry-After
// in seconds, or x-ratelimit-reset (epoch seconds) when nothing remains.
func (t *transport) hintedWait(resp *http.Response) (time.Duration, bool) {
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 0 {
			return time.Duration(n) * time.Second, true
		}
		if at, err := http.ParseTime(s); err == nil {
			return max(at.Sub(t.p.Now()), 0), true
		}
	}
	if resp.Header.Get("X-Ratelimit-Remaining") == "0" {
		if n, err := strconv.ParseInt(resp.Header.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(n, 0).Sub(t.p.Now()), 0), true
		}
	}
	return 0, false
}

// isRateLimited tells a rate-limit 403 from a permission 403: GitHub sends
// Retry-After or an exhausted x-ratelimit-remaining, or says so in the body.
func isRateLimited(resp *http.Response) bool {
	if resp.Header.Get("Retry-After") != "" || resp.Header.Get("X-Ratelimit-Remaining") == "0" {
		return true
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil {
		return false
	}
	return bytes.Contains(bytes.ToLower(b), []byte("rate limit"))
}
