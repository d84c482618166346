// Package limit holds the GitHub limits that the reports and the API client
// must respect, each with where it comes from, in one place so that the
// renderer that fits a report and the client that sends it cannot disagree.
package limit

const (
	// CommentChars: an issue or pull request comment body ("Body is too
	// long (maximum is 65536 characters)", observed from the REST API).
	CommentChars = 65536
	// CheckOutputBytes: check run output.summary and output.text, enforced
	// as bytes ("summary exceeds a maximum bytesize of 65535", observed).
	CheckOutputBytes = 65535
	// CheckTitleChars: check run output.title. GitHub documents no limit;
	// the title is shown on one line, so it is held to the annotation title
	// limit.
	CheckTitleChars = AnnotationTitleChars
	// AnnotationTitleChars: check run annotation title (REST API, "Create
	// a check run", annotations[].title).
	AnnotationTitleChars = 255
	// AnnotationDetailBytes: check run annotation message and raw_details,
	// "64 KB" (REST API, "Create a check run").
	AnnotationDetailBytes = 64 * 1024
	// AnnotationsPerRequest: "No more than 50 items are allowed" per create
	// or update of a check run; more take further update requests.
	AnnotationsPerRequest = 50
	// StepSummaryBytes: a step's job summary; a larger one is discarded
	// whole ("upload aborted, supports content up to a size of 1024k").
	StepSummaryBytes = 1 << 20
	// CommandsPerLevel: workflow-command annotations shown per step for
	// each of error, warning and notice; the rest are dropped silently.
	CommandsPerLevel = 10
	// CommandMessageChars: the runner cuts a workflow command message at
	// 4096 characters.
	CommandMessageChars = 4096
	// PerPage: the largest page size of the REST list endpoints.
	PerPage = 100
)
