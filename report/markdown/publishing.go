package markdown

import (
	"strings"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// PublishingNote is one thing publishing skipped or could not do: the
// tool's own sentence, and the GitHub API's answer when a request was
// refused. Both are plain text; the answer comes from the server, and the
// sentence may quote what the event named (a fork, a commit), so both are
// escaped here like corpus text.
type PublishingNote struct {
	What   string
	Answer string
}

// Publishing is the job summary's closing section on what publishing
// skipped or could not do, one line a note; "" when there is none.
func Publishing(notes []PublishingNote) string {
	if len(notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Publishing\n\n")
	for _, n := range notes {
		b.WriteString("- " + escape.MarkdownText(n.What))
		if n.Answer != "" {
			b.WriteString(": " + escape.MarkdownText(n.Answer))
		}
		b.WriteString("\n")
	}
	return b.String()
}
