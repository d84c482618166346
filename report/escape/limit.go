package escape

// The sizes a sink accepts, beside the escaping it needs: the GitHub limits
// that the reports and the API client must respect, each with where it
// comes from, in one place so that the renderer that fits a report and the
// client that sends it cannot disagree; and the caps on any one value a
// report echoes from a fixture, with Cap, the one helper that applies them.

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

// Caps on a single value taken from a fixture or its file name, in bytes.
// A fixture is written by whoever opens a pull request: a 30 MB name or a
// schema message that lists a million unknown keys must not make a 60 MB
// JUnit file or an 11 MB log line. Every sink applies them through Cap
// before its own escaping and its own, smaller, layout limits.
const (
	// NameBytes: a fixture's name, and a value it quotes in its expected
	// block (outcome, phase, code).
	NameBytes = 256
	// PathBytes: a file or folder path (Linux allows 4096 bytes).
	PathBytes = 1024
	// MessageBytes: a message of the tool's (a verdict, a schema error, a
	// finding, a diagnostic), which can quote the fixture.
	MessageBytes = 2048
	// ProseBytes: the fixture's own description, reason and fix.
	ProseBytes = 4096
)

// FullFailures is how many failing fixtures every report gives in full;
// the rest keep their verdicts and are counted, their detail left out
// (model.Result.DetailLeftOut). A run that fails everywhere (a schema or
// validator change, a generated corpus) then writes logs and files of a
// size a person and a CI runner can take: 50,000 failures in full made a
// 222 MB JUnit file, a 280 MB JSON report and a 151 MB log. A thousand
// is more than anyone reads one by one, as many as the check run takes
// annotations, and more than the job summary's size limit shows. It is
// also the longest list of fixtures a report gives one by one.
const FullFailures = 1000

// Cap returns s when it is at most max bytes long, and otherwise its first
// bytes, cut at a character boundary, followed by a visible note of how
// much was left out: "… (N more bytes)". The note is not counted in max.
func Cap(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < 0 {
		max = 0
	}
	cut := max
	// Step back to the start of a UTF-8 sequence so that no character is
	// split (a continuation byte is 10xxxxxx).
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "… (" + itoa(len(s)-cut) + " more bytes)"
}

// itoa keeps this package free of imports.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}
