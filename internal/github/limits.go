package github

import "time"

// maxResponseBytes bounds how much of one API response is read into
// memory. GitHub's own limits are in package limit.
const maxResponseBytes = 32 << 20

// Production retry and pacing settings.
const (
	// DefaultBudget bounds the time spent on the GitHub API in one run,
	// retries and waits included.
	DefaultBudget = 2 * time.Minute
	// DefaultAttemptTimeout ends one request attempt to a server that never answers.
	DefaultAttemptTimeout = 30 * time.Second
	// DefaultWriteInterval spaces content-creating requests: the secondary
	// limit is 80 per minute, and GitHub asks for about a second between writes.
	DefaultWriteInterval = time.Second
	// defaultBaseDelay is the first backoff after a 5xx or a network error.
	defaultBaseDelay = time.Second
	// defaultMaxDelay caps one exponential backoff step.
	defaultMaxDelay = 30 * time.Second
	// rateLimitMinDelay: a rate-limited request without Retry-After or a
	// reset time waits "at least a minute" (REST API best practices).
	rateLimitMinDelay = time.Minute
	// maxAttempts bounds the attempts of one request even when the budget allows more.
	maxAttempts = 8
)

// maxListPages bounds the pages one list call follows, so that a Link
// header that never ends costs a bounded share of GITHUB_TOKEN's 1,000
// requests per hour. At limit.PerPage items a page this is 10,000 comments
// or open pull requests.
const maxListPages = 100
