package text

import (
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// WriteComparison writes a comparison with a baseline alone: the headline,
// the schema changes, then one line per changed fixture, regressions
// first.
func WriteComparison(w io.Writer, c *model.Comparison) error {
	p := &printer{w: w}
	p.comparison(c)
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
	p.schemaChange("command", c.CommandSchemaChanged, c.BaseCommandSchema, c.CommandSchemaFiles)
	p.schemaChange("fixture", c.FixtureSchemaChanged, c.BaseFixtureSchema, c.FixtureSchemaFiles)
	if f := explain.SchemaFailureLine(c.SchemaFailure, Clean); f != "" {
		p.textf("  %s", f)
	}
	for i := range c.Changes {
		if i == escape.FullFailures {
			// As many as the failures given in full: a base that every
			// fixture regresses from must not list each in the log.
			p.textf("... and %d more changed fixtures: the JSON report's comparison lists every one", len(c.Changes)-i)
			break
		}
		ch := &c.Changes[i]
		extra := ""
		if t := explain.ChangeIn(c, ch); t != "" {
			extra = " (" + Clean(t) + ")"
		}
		color := ""
		switch ch.Transition {
		case model.Regressed, model.AddedFailing:
			color = red
		case model.Fixed, model.AddedPassing:
			color = green
		}
		p.line(pad(strings.ToLower(explain.TransitionTitle(ch.Transition))), color, " "+Clean(ch.Path)+extra)
	}
	for i := range c.Implementations {
		p.implementationDelta(&c.Implementations[i])
	}
}

// implementationDelta is one implementation against itself on the base:
// its counts, then the fixtures that fail for it now and did not, and
// those it fixed (at most MaxFailuresRestated of each).
func (p *printer) implementationDelta(d *model.ImplementationDelta) {
	p.textf("Implementation %s %s", Clean(d.Label), Clean(explain.ImplementationDelta(d)))
	for _, l := range []struct {
		transition model.Transition
		color      string
		paths      []string
	}{{model.Regressed, red, d.Regressed}, {model.AddedFailing, red, d.AddedFailing}, {model.Fixed, green, d.Fixed}} {
		for i, path := range l.paths {
			if i == MaxFailuresRestated {
				p.textf("  %s", explain.MoreFailures(len(l.paths)-i))
				break
			}
			p.line("  "+pad(strings.ToLower(explain.TransitionTitle(l.transition))), l.color, " "+Clean(path))
		}
	}
}

// schemaChange says that a schema changed: its digest on the base (of
// its closure when the base recorded one) and the files that changed.
func (p *printer) schemaChange(which string, changed bool, base model.SchemaSource, files []string) {
	if !changed {
		return
	}
	what, sum := "sha256", base.SHA256
	if base.Closure != "" {
		what, sum = "closure sha256", base.Closure
	}
	line := "  " + which + " schema changed: " + what + " " + Clean(sum) + " on the base"
	if len(files) > 0 {
		line += "; files: " + explain.SchemaFiles(files, Clean)
	}
	p.textf("%s", line)
}

// pad widens a transition's title so that the paths line up.
func pad(s string) string {
	const width = 25
	for len(s) < width {
		s += " "
	}
	return "  " + s
}
