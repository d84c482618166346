package github

import (
	"fmt"

	gh "github.com/google/go-github/v60/github"
)

// PagingError is a list whose Link header would be followed without end:
// it points back to a page already read, or still names a next page after
// maxListPages.
type PagingError struct {
	What  string
	Pages int
	// Next is the page the Link header named last.
	Next int
}

func (e *PagingError) Error() string {
	if e.Next <= e.Pages {
		return fmt.Sprintf("%s: stopped at page %d: the Link header points back to page %d", e.What, e.Pages, e.Next)
	}
	return fmt.Sprintf("%s: stopped after %d pages: the Link header still names a next page", e.What, e.Pages)
}

// listPages reads a paginated list: fetch gets one page (1 first) and says
// whether it found what it looked for. Pages follow the Link header's
// "next" only forward and at most maxListPages times.
func listPages(what string, fetch func(page int) (done bool, resp *gh.Response, err error)) error {
	for page := 1; ; {
		done, resp, err := fetch(page)
		if err != nil {
			return fmt.Errorf("%s: %w", what, unwrapURL(err))
		}
		if done || resp == nil || resp.NextPage == 0 {
			return nil
		}
		if resp.NextPage <= page || page >= maxListPages {
			return &PagingError{What: what, Pages: page, Next: resp.NextPage}
		}
		page = resp.NextPage
	}
}
