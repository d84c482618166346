package markdown

import (
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// WriteUnusable writes the job summary of a step that could not run at
// all (unusable input, or the tool's own failure): what was wrong and how
// to fix it, so that the summary is never empty. Both texts are escaped:
// what may hold a path the pull request chose. fix is Markdown.
func WriteUnusable(w io.Writer, what, fix string) error {
	_, err := fmt.Fprintf(w, "## ❌ DRP2 conformance: the step could not run\n\n**What was wrong:** %s\n\n**How to fix it:** %s\n",
		escape.Markdown(escape.OneLine(what)), fix)
	return err
}
