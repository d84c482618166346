package text

import (
	"fmt"
	"strings"

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
	parity := model.Parity(run)
	for _, i := range model.RankImplementations(run.Implementations) {
		im := &run.Implementations[i]
		s := im.Summary
		level2 := "Level 2 not claimed"
		if im.Executes {
			checked, passed := im.Level2Counts()
			level2 = fmt.Sprintf("Level 2 replies %d of %d right", passed, checked)
		}
		if compared, agreed := model.ParityCounts(parity, im.Label()); compared > 0 {
			level2 += fmt.Sprintf(", Level 3 preview %d of %d readbacks equal to the reference", agreed, compared)
		}
		label, color := "PASS ", green
		switch {
		case s.Unexcused() > 0 || im.Error != "":
			label, color = "FAIL ", red
		case s.NotClaimed > 0:
			// Nothing failed, but Level 1 covers every fixture.
			label, color = "PART ", yellow
		}
		claimed := ""
		if s.NotClaimed > 0 {
			claimed = fmt.Sprintf(", not claimed %d (it performs only %s)", s.NotClaimed, strings.Join(im.Phases, ", "))
		}
		// Capped by the gate (internal/bound), like a fixture's words.
		if im.Error != "" {
			// None of its fixtures ran: no count of them means anything.
			p.line(label, color, fmt.Sprintf("%s [%s]: %s, restarts %d", Clean(im.Label()), Clean(im.Command), explain.Unusable, im.Restarts))
		} else {
			expected := ""
			if e := explain.Expectations(&s); e != "" {
				expected = " (" + e + ")"
			}
			p.line(label, color, fmt.Sprintf("%s [%s]: passed %d of %d, failed %d%s%s, no verdict %d, restarts %d, %s",
				Clean(im.Label()), Clean(im.Command),
				s.Passed, s.Run, s.Failed, expected, claimed, im.HarnessErrors(), im.Restarts, level2))
		}
		if a := explain.Adapter(im.Adapter); a != "" {
			p.textf("      adapter: %s", Clean(a))
		}
		if im.Error != "" {
			p.textf("      %s: %s", explain.Unusable, Clean(im.Error))
			continue
		}
		for j := range im.Results {
			p.implementationResult(&im.Results[j])
		}
	}
	p.endGroup()
	p.parity(run, parity)
}

// implementationResult prints one of an implementation's results that is
// not a plain pass: a failure (known or flaky said so), a flaky pass with
// its attempts, an unexpected pass with its stale entry.
func (p *printer) implementationResult(r *model.Result) {
	switch k := r.Kind(); {
	case k == model.KindUnexpectedPass:
		p.textf("      %s: %s", Clean(explain.Location(r)), Clean(explain.StaleEntry(r)))
		return
	case k == model.KindFlaky && r.Passed && r.Retried():
		p.textf("      %s: flaky: %s", Clean(explain.Location(r)), Clean(explain.Attempts(r)))
		return
	case k == model.KindFlaky && r.Passed:
		p.textf("      %s: flaky (%s): passed", Clean(explain.Location(r)), Clean(r.Listing.Entry))
		return
	case r.Passed || k == model.KindNotClaimed || k == model.KindSkipped:
		return
	}
	note := ""
	switch r.Kind() {
	case model.KindKnownFailure:
		note = " (known failure: " + r.KnownFailure + ")"
	case model.KindFlaky:
		note = " (flaky)"
	default:
		if a := explain.Attempts(r); a != "" {
			note = " (" + a + ")"
		}
	}
	p.textf("      %s: %s%s", Clean(explain.Location(r)), Clean(explain.Headline(r)), Clean(note))
	if r.Actual.Outcome == model.HarnessError || (r.Actual.Message != "" && !strings.Contains(explain.Headline(r), r.Actual.Message)) {
		p.textf("        %s", Clean(r.Actual.Message))
	}
}

// parity prints the Level 3 preview's readbacks that differ across their
// sources, with the first differing byte; information, never a failure
// here (CONFORMANCE.md defers Level 3).
func (p *printer) parity(run *model.Run, rows []model.ParityRow) {
	if len(rows) == 0 {
		return
	}
	differ := model.ParityDiffering(rows)
	p.section("Level 3 preview (readback bytes; information only)")
	p.textf("%d readbacks compared, %d agree, %d differ", len(rows), len(rows)-differ, differ)
	for i := range rows {
		r := &rows[i]
		if r.Agree() && len(r.Unusable) == 0 {
			continue
		}
		var groups []string
		for _, g := range r.Groups {
			text := fmt.Sprintf("%s: %d bytes", strings.Join(g.Sources, ", "), g.Size)
			if g.FirstDiff >= 0 {
				text += fmt.Sprintf(", first differing byte %d", g.FirstDiff)
			}
			groups = append(groups, text)
		}
		for _, src := range r.Unusable {
			groups = append(groups, src+": not comparable (not base64, or over 1 MiB)")
		}
		p.textf("  %s readback %d: %s", Clean(r.Path), r.Readback, Clean(strings.Join(groups, " | ")))
	}
	p.endGroup()
}
