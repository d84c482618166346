package coverage

import (
	"encoding/json"
	"io"

	"github.com/drp2/drp2-fixtures/model"
)

// WriteJSON writes the coverage as one JSON document, as the JSON report
// carries it; the text and Markdown renderers are report/text and
// report/markdown.
func WriteJSON(w io.Writer, c *model.Coverage) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
