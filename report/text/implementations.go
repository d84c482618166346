package text

import (
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// WriteImplementations writes the runtime harness's part of a run, best
// first: per implementation its counts, why it could not be used, and its
// failing fixtures one a line. It writes nothing for a run without
// implementations.
func WriteImplementations(w io.Writer, run *model.Run) error {
	if run == nil || len(run.Implementations) == 0 {
		return nil
	}
	p := &printer{w: w}
	p.line("")
	p.line("Implementations (best first):")
	for _, i := range model.RankImplementations(run.Implementations) {
		im := &run.Implementations[i]
		s := im.Summary
		level2 := "Level 2 not claimed"
		if im.Executes {
			checked, passed := im.Level2Counts()
			level2 = fmt.Sprintf("Level 2 replies %d of %d right", passed, checked)
		}
		p.line("  %s [%s]: passed %d of %d, failed %d, no verdict %d, restarts %d, %s",
			Clean(im.Label()), Clean(im.Command), s.Passed, s.Run, s.Failed, im.HarnessErrors(), im.Restarts, level2)
		if im.Error != "" {
			p.line("    could not be used: %s", Clean(im.Error))
			continue
		}
		for j := range im.Results {
			r := &im.Results[j]
			if r.Passed {
				continue
			}
			p.line("    FAIL %s: %s", Clean(explain.Location(r)), Clean(explain.Headline(r)))
			if r.Actual.Message != "" && !strings.Contains(explain.Headline(r), r.Actual.Message) {
				p.line("         %s", Clean(r.Actual.Message))
			}
		}
	}
	return p.err
}
