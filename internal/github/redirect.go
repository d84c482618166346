package github

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects bounds the same-host redirects one read follows, as Go's
// http.Client does by default.
const maxRedirects = 10

// RedirectError is a redirect the client refused to follow: one that leads
// away from the API's scheme and host (which would carry the request, and
// once carried the token, elsewhere), or any redirect of a write, which
// http.Client would otherwise replay as a GET and whose answer would be
// taken for the write's.
type RedirectError struct {
	// Method and Path name the original request.
	Method, Path string
	// Status is the redirect's HTTP status (301, 302, 303, 307, 308).
	Status int
	// To is the scheme and host the redirect pointed at.
	To     string
	Reason string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s %s: GitHub answered %d, a redirect to %s, not followed: %s",
		e.Method, e.Path, e.Status, e.To, e.Reason)
}

// origin is the scheme and host (with port) of u, lower-cased: two URLs
// may share a token only when their origins are equal.
func origin(u *url.URL) string {
	if u == nil {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// checkRedirect is the http.Client redirect policy: reads follow redirects
// on the API's own origin (GitHub answers 301 for a renamed repository);
// everything else ends the request with a RedirectError.
func checkRedirect(api *url.URL) func(req *http.Request, via []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		e := &RedirectError{Method: first.Method, Path: first.URL.Path, To: origin(req.URL)}
		if req.Response != nil {
			e.Status = req.Response.StatusCode
		}
		switch {
		case isWrite(first.Method):
			e.Reason = "a write is never redirected"
		case origin(req.URL) != origin(api):
			e.Reason = "it leads away from the API at " + origin(api)
		case len(via) >= maxRedirects:
			e.Reason = fmt.Sprintf("more than %d redirects", maxRedirects)
		default:
			return nil
		}
		return e
	}
}
