package text

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// implementations prints the runtime harness's part of a run, best first:
// per implementation its counts, why it could not be used, and its failing
// fixtures one a line. Nothing for a run without implementations.
func (p *printer) implementations(run *model.Run) {
	if len(run.Implementations) == 0 {
		return
	}
	p.section("Implementations (best first)")
	for _, i := range model.RankImplementations(run.Implementations) {
		im := &run.Implementations[i]
		s := im.Summary
		level2 := "Level 2 not claimed"
		if im.Executes {
			checked, passed := im.Level2Counts()
			level2 = fmt.Sprintf("Level 2 replies %d of %d right", passed, checked)
		}
		label, color := "PASS ", green
		if s.Failed > 0 || im.Error != "" {
			label, color = "FAIL ", red
		}
		// Capped by explain.Bound in Write, like a fixture's words.
		p.line(label, color, fmt.Sprintf("%s [%s]: passed %d of %d, failed %d, no verdict %d, restarts %d, %s",
			Clean(im.Label()), Clean(im.Command),
			s.Passed, s.Run, s.Failed, im.HarnessErrors(), im.Restarts, level2))
		if im.Error != "" {
			p.textf("      could not be used: %s", Clean(im.Error))
			continue
		}
		for j := range im.Results {
			r := &im.Results[j]
			if r.Passed {
				continue
			}
			p.textf("      %s: %s", Clean(explain.Location(r)), Clean(explain.Headline(r)))
			if r.Actual.Outcome == model.HarnessError {
				p.textf("        %s", Clean(r.Actual.Message))
			}
		}
	}
	p.endGroup()
}
