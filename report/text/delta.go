package text

import (
	"io"

	"github.com/drp2/drp2-fixtures/model"
)

// WriteComparison writes a comparison with a baseline: the headline, the
// schema changes, then one line per changed fixture, regressions first.
func WriteComparison(w io.Writer, c *model.Comparison) error {
	p := &printer{w: w}
	p.comparison(c)
	return p.err
}

func (p *printer) comparison(c *model.Comparison) {
	if c == nil {
		return
	}
	if c.Unavailable != "" {
		p.line("Comparison: %s", Clean(c.Unavailable))
		return
	}
	p.line("Comparison: %s", Clean(c.Headline()))
	if c.CommandSchemaChanged {
		p.line("  command schema changed: sha256 %s on the base", c.BaseCommandSchema.SHA256)
	}
	if c.FixtureSchemaChanged {
		p.line("  fixture schema changed: sha256 %s on the base", c.BaseFixtureSchema.SHA256)
	}
	for i := range c.Changes {
		ch := &c.Changes[i]
		extra := ""
		switch ch.Content {
		case model.ContentSame:
		case model.Renamed:
			extra = " (renamed from " + Clean(ch.From) + ")"
		default:
			extra = " (" + string(ch.Content) + ")"
		}
		p.line("  %-18s %s%s", string(ch.Verdict), Clean(ch.Path), extra)
	}
}
