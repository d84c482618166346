package action

// What the manifest and explore inputs add to the action's reports:
// sections of the job summary and of the pull request comment, and
// failure annotations on the fixtures that break a frozen manifest.

import (
	"bytes"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/limit"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// extras are what the manifest and explore inputs add to the reports
// beyond the run's own (which carries the manifest comparison and the rule
// coverage).
type extras struct {
	// summary is Markdown appended to the job summary: the explore input's
	// report.
	summary string
	// comment is Markdown appended to the pull request comment, and
	// commentShort its one-line stand-in when the comment has no room.
	comment, commentShort string
	annotations           []annotation.Annotation
}

func newExtras(o *gate.Outcome) extras {
	var e extras
	if mc := o.Manifest; mc != nil {
		var md bytes.Buffer
		markdown.Manifest(&md, mc.Model()) // into memory: cannot fail
		e.comment = "\n" + md.String()
		e.commentShort = markdown.ManifestLine(mc.Model())
		e.annotations = mc.Annotations()
	}
	return e
}

// commentBody appends the extras to a comment body, or their one-line
// stand-in when the whole would pass GitHub's comment size limit.
func (e extras) commentBody(body string) string {
	if e.comment == "" {
		return body
	}
	if utf8.RuneCountInString(body)+utf8.RuneCountInString(e.comment) <= limit.CommentChars {
		return body + e.comment
	}
	if utf8.RuneCountInString(body)+utf8.RuneCountInString(e.commentShort) <= limit.CommentChars {
		return body + e.commentShort
	}
	return body
}
