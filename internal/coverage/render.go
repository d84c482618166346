package coverage

import (
	"encoding/json"
	"io"

	"github.com/drp2/drp2-fixtures/model"
)

// Model is the report as the model carries it to every report; the text
// and Markdown renderers are report/text and report/markdown.
func (r *Report) Model() *model.Coverage {
	c := &model.Coverage{Uncovered: r.Uncovered, PositiveFixtures: r.PositiveFixtures,
		NegativeFixtures: r.NegativeFixtures, NoRule: r.NoRule, NotCounted: r.NotCounted}
	for _, rc := range r.Rules {
		c.Rules = append(c.Rules, model.RuleCoverage{ID: rc.ID, Code: rc.Code, Summary: rc.Summary,
			Negative: rc.Negative, Positive: rc.Positive, Unlisted: rc.Unlisted, FindingOnly: rc.FindingOnly})
	}
	return c
}

// WriteJSON writes the report as one JSON document.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
