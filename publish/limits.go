package publish

import "time"

// GitHub limits. Each is a documented or observed platform limit; sending
// more than these gets a 422 (or a silently dropped value), so the client
// trims before it sends.
const (
	// maxAnnotationsPerRequest: "No more than 50 items are allowed" (Checks API, create/update a check run).
	maxAnnotationsPerRequest = 50
	// maxOutputBytes: check run output.summary and output.text, enforced as bytes ("exceeds a maximum bytesize of 65535").
	maxOutputBytes = 65535
	// maxAnnotationTitleChars: check run annotation title (Checks API reference).
	maxAnnotationTitleChars = 255
	// maxAnnotationDetailBytes: annotation message and raw_details, "64 KB" (Checks API reference).
	maxAnnotationDetailBytes = 64 * 1024
	// maxCheckTitleChars: a check run output title is shown in one line; keep it as short as an annotation title.
	maxCheckTitleChars = 255
	// maxCommentChars: issue comment body ("Body is too long (maximum is 65536 characters)", observed).
	maxCommentChars = 65536
	// maxPerPage: the largest page size of the REST list endpoints.
	maxPerPage = 100
	// maxResponseBytes bounds how much of one API response is read into memory.
	maxResponseBytes = 32 << 20
)

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
