package text

import (
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// WriteComparison writes a comparison with a baseline alone: the headline,
// the schema changes, then one line per changed fixture, regressions
// first.
func WriteComparison(w io.Writer, c *model.Comparison) error {
	p := &printer{w: w}
	p.comparison(explain.Bound(&model.Run{Comparison: c}).Comparison)
	return p.err
}

// comparison is the section on the baseline: why there is none, or the
// delta and each changed fixture.
func (p *printer) comparison(c *model.Comparison) {
	if c == nil {
		return
	}
	p.section("Comparison with the base")
	defer p.endGroup()
	if c.Unavailable != "" {
		p.line("WARN ", yellow, " "+Clean(c.Unavailable))
		return
	}
	p.textf("%s", Clean(explain.ComparisonHeadline(c)))
	for _, n := range c.Notes {
		p.line("WARN ", yellow, " "+Clean(n))
	}
	if c.CommandSchemaChanged {
		p.textf("  command schema changed: sha256 %s on the base", Clean(c.BaseCommandSchema.SHA256))
	}
	if c.FixtureSchemaChanged {
		p.textf("  fixture schema changed: sha256 %s on the base", Clean(c.BaseFixtureSchema.SHA256))
	}
	for i := range c.Changes {
		ch := &c.Changes[i]
		extra := ""
		if t := explain.Change(ch); t != "" {
			extra = " (" + Clean(t) + ")"
		}
		color := ""
		switch ch.Verdict {
		case model.Regressed, model.AddedFailing:
			color = red
		case model.Fixed, model.AddedPassing:
			color = green
		}
		p.line(pad(strings.ToLower(explain.VerdictTitle(ch.Verdict))), color, " "+Clean(ch.Path)+extra)
	}
}

// pad widens a verdict so that the paths line up.
func pad(s string) string {
	const width = 25
	for len(s) < width {
		s += " "
	}
	return "  " + s
}
