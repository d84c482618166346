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
		// Capped by the gate (internal/bound), like a fixture's words.
		if im.Error != "" {
			// None of its fixtures ran: no count of them means anything.
			p.line(label, color, fmt.Sprintf("%s [%s]: %s, restarts %d", Clean(im.Label()), Clean(im.Command), explain.Unusable, im.Restarts))
		} else {
			p.line(label, color, fmt.Sprintf("%s [%s]: %s, no verdict %d, restarts %d, %s",
				Clean(im.Label()), Clean(im.Command), implementationCounts(&im.Summary, im.Phases), im.HarnessErrors(), im.Restarts, level2))
		}
		if a := explain.Adapter(im.Adapter); a != "" {
			p.textf("      adapter: %s", Clean(a))
		}
		if im.Error != "" {
			p.textf("      %s: %s", explain.Unusable, Clean(im.Error))
			continue
		}
		p.implementationFailures(im)
		p.implementationEntries(im)
	}
	p.endGroup()
	p.parity(run, parity)
	p.images(run)
}

// images prints the Level 3 image checks: counts per implementation, then
// each image that does not pass with the bound it exceeded, its measures
// and the images to look at; every updated reference with the measures
// against the one it replaced.
func (p *printer) images(run *model.Run) {
	total := 0
	for i := range run.Implementations {
		total += len(run.Implementations[i].Images)
	}
	if total == 0 {
		return
	}
	p.section("Level 3 images (fail the run under fail-on level3)")
	for _, i := range model.RankImplementations(run.Implementations) {
		im := &run.Implementations[i]
		if len(im.Images) == 0 {
			continue
		}
		counts := map[model.ImageVerdict]int{}
		for _, c := range im.Images {
			counts[c.Verdict]++
		}
		var parts []string
		for _, v := range []model.ImageVerdict{model.ImageIdentical, model.ImageWithin, model.ImageExceeded, model.ImageDimensions,
			model.ImageFormat, model.ImageMissing, model.ImageUndecodable, model.ImageNondeterministic} {
			if counts[v] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[v], strings.ReplaceAll(string(v), "_", " ")))
			}
		}
		p.textf("%s: %d %s: %s", Clean(im.Label()), len(im.Images), explain.Plural(len(im.Images), "image", "images"), strings.Join(parts, ", "))
		p.imageParity(im.Images)
		shown := 0
		for j := range im.Images {
			c := &im.Images[j]
			if c.Verdict == model.ImageIdentical && c.Updated == "" {
				continue
			}
			if shown++; shown > MaxCausesShown {
				continue
			}
			p.image(c)
		}
		if rest := shown - MaxCausesShown; rest > 0 {
			p.textf("  ... and %d more: the JSON report lists every one", rest)
		}
	}
	p.endGroup()
}

// imageParity says how the implementation's images compare with the
// best ranked implementation's, and names those that exceed its
// tolerance (at most MaxCausesShown).
func (p *printer) imageParity(images []model.ImageCheck) {
	compared, match := 0, 0
	against := ""
	var differ []string
	for _, c := range images {
		if c.Against == "" {
			continue
		}
		compared++
		against = c.Against
		if c.AgainstVerdict.Pass() {
			match++
		} else if len(differ) < MaxCausesShown {
			differ = append(differ, fmt.Sprintf("%s readback %d: %s", c.Path, c.Readback, c.AgainstExceeded))
		}
	}
	if compared == 0 {
		return
	}
	p.textf("  across runtimes: %d of %d images match %s's under its tolerance", match, compared, Clean(against))
	for _, d := range differ {
		p.textf("    %s", Clean(d))
	}
}

// image prints one image check that is not identical.
func (p *printer) image(c *model.ImageCheck) {
	head := fmt.Sprintf("  %s readback %d: %s", Clean(c.Path), c.Readback, c.Verdict)
	if w := explain.ImageFailure(c); w != "" {
		head += ": " + Clean(strings.TrimPrefix(w, string(c.Verdict)+": "))
	}
	p.textf("%s", head)
	if m := explain.ImageMetrics(c); m != "" {
		p.textf("    %s; tolerance %s", Clean(m), Clean(c.Tolerance))
	}
	if c.Reference != "" {
		p.textf("    reference %s", Clean(c.Reference))
	}
	if c.Actual != "" {
		p.textf("    actual %s", Clean(c.Actual))
	}
	if c.Diff != "" {
		p.textf("    diff %s", Clean(c.Diff))
	}
	if c.Updated != "" {
		was := "none before"
		if c.Reference != "" {
			was = "the measures above are against the one it replaced"
		}
		p.textf("    reference written: %s (%s)", Clean(c.Updated), was)
	}
}

// implementationCounts words an implementation's counts so that they add
// up: "passed 19 of 22 fixtures, failed 3 (all known failures), 16
// unexpected passes". The failures excused are a part of those failed;
// unexpected passes, flaky passes and skips are not failures at all.
func implementationCounts(s *model.Summary, phases []string) string {
	text := fmt.Sprintf("passed %d of %s, failed %d", s.Passed, explain.Count(s.Run, "fixture", "fixtures"), s.Failed)
	if excused := s.KnownFailures + s.FlakyFailed; excused > 0 {
		var parts []string
		if u := s.Unexcused(); u > 0 {
			parts = append(parts, fmt.Sprintf("%d unexpected", u))
		}
		if s.KnownFailures > 0 {
			parts = append(parts, explain.Count(s.KnownFailures, "known failure", "known failures"))
		}
		if s.FlakyFailed > 0 {
			parts = append(parts, fmt.Sprintf("%d flaky", s.FlakyFailed))
		}
		if len(parts) == 1 && s.Failed > 1 {
			parts[0] = "all " + parts[0]
		}
		text += " (" + strings.Join(parts, ", ") + ")"
	}
	if s.UnexpectedPasses > 0 {
		text += ", " + explain.Count(s.UnexpectedPasses, "unexpected pass", "unexpected passes")
	}
	if flakyPassed := s.Flaky - s.FlakyFailed; flakyPassed > 0 {
		text += fmt.Sprintf(", %d flaky passed", flakyPassed)
	}
	if s.Skipped > 0 {
		text += fmt.Sprintf(", skipped %d", s.Skipped)
	}
	if s.NotClaimed > 0 {
		text += fmt.Sprintf(", not claimed %d (it performs only %s)", s.NotClaimed, strings.Join(phases, ", "))
	}
	return text
}

// MaxCausesShown is how many causes of an implementation's unexpected
// failures the terminal gives, and MaxExamplesShown how many fixtures of
// each: as the validator's failures restated, the end of the output stays
// what a reader came for at 3 failures and at 50,000. The Level 3
// preview lists as many readbacks that are not alike.
const (
	MaxCausesShown   = 10
	MaxExamplesShown = 3
)

// implementationFailures prints an implementation's unexpected failures
// grouped by cause, the largest first: the cause, its message once, a few
// fixtures and how many more. A runtime exception that fails 117 fixtures
// is one cause. Known and flaky failures are counted on the head line,
// not listed: their entries say they are known.
func (p *printer) implementationFailures(im *model.Implementation) {
	var failing []*model.Result
	for j := range im.Results {
		// A failure the gate kept without its detail (past the first
		// escape.FullFailures) still has its verdict to group by.
		if r := &im.Results[j]; !r.Passed && !r.Excused() && r.Kind() != model.KindNotClaimed && r.Kind() != model.KindSkipped {
			failing = append(failing, r)
		}
	}
	groups := explain.Groups(failing)
	if len(groups) > 1 {
		p.textf("      %s in %s:", explain.Count(len(failing), "unexpected failure", "unexpected failures"),
			explain.Count(len(groups), "cause", "causes"))
	}
	shown := 0
	for _, g := range groups[:min(len(groups), MaxCausesShown)] {
		shown += len(g.Results)
		p.implementationCause(g)
	}
	if rest := len(failing) - shown; rest > 0 {
		p.textf("      ... and %d more failing %s of %s: the JSON report lists every one",
			rest, explain.Plural(rest, "fixture", "fixtures"), explain.Count(len(groups)-MaxCausesShown, "other cause", "other causes"))
	}
}

// implementationCause prints one cause: what differs, the message the
// fixtures share (what varies shown as "…"), and the first fixtures.
func (p *printer) implementationCause(g explain.Group) {
	cause := g.Cause()
	if len(g.Results) > 1 {
		cause = explain.Count(len(g.Results), "fixture", "fixtures") + ": " + cause
	}
	p.textf("      %s", Clean(cause))
	if why := g.Why(); why != "" && !strings.Contains(cause, why) {
		p.textf("        %s", Clean(why))
	}
	first := g.Results[:min(len(g.Results), MaxExamplesShown)]
	for _, r := range first {
		place := explain.Location(r)
		if a := explain.Attempts(r); a != "" {
			place += " (" + a + ")"
		}
		p.textf("        %s", Clean(place))
	}
	if rest := len(g.Results) - len(first); rest > 0 {
		p.textf("        ... and %d more", rest)
	}
}

// implementationEntries prints what an implementation's expectations
// should hear of, one line each kind: the stale entries to remove and
// the flaky fixtures that passed on a retry, a few fixtures named.
func (p *printer) implementationEntries(im *model.Implementation) {
	var stale, flaky []string
	for j := range im.Results {
		r := &im.Results[j]
		switch k := r.Kind(); {
		case k == model.KindUnexpectedPass && r.Listing != nil:
			// The entry's file and line: where the edit goes.
			stale = append(stale, explain.DisplayPath(r)+" ("+r.Listing.Entry+")")
		case k == model.KindUnexpectedPass:
			stale = append(stale, explain.DisplayPath(r))
		case k == model.KindFlaky && r.Passed && r.Retried():
			flaky = append(flaky, fmt.Sprintf("%s (passed on attempt %d)", explain.DisplayPath(r), len(r.Attempts)))
		case k == model.KindFlaky && r.Passed:
			flaky = append(flaky, explain.DisplayPath(r))
		}
	}
	if len(stale) > 0 {
		p.textf("      %s: expected to fail, %s; remove %s (--update-expectations does): %s",
			explain.Count(len(stale), "unexpected pass", "unexpected passes"), explain.Plural(len(stale), "it passed", "they passed"),
			explain.Plural(len(stale), "its entry", "their entries"), Clean(firstFew(stale)))
	}
	if len(flaky) > 0 {
		p.textf("      %d flaky, passed this run (its entry or a retry allows a failure): %s", len(flaky), Clean(firstFew(flaky)))
	}
}

// firstFew joins the first MaxExamplesShown paths and counts the rest.
func firstFew(paths []string) string {
	text := strings.Join(paths[:min(len(paths), MaxExamplesShown)], ", ")
	if rest := len(paths) - MaxExamplesShown; rest > 0 {
		text += fmt.Sprintf(" and %d more", rest)
	}
	return text
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
	shown, unlike := 0, 0
	for i := range rows {
		r := &rows[i]
		if r.Agree() && len(r.Unusable) == 0 {
			continue
		}
		if unlike++; shown == MaxCausesShown {
			continue
		}
		shown++
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
	if rest := unlike - shown; rest > 0 {
		p.textf("  ... and %d more %s not alike: the JSON report lists every one", rest, explain.Plural(rest, "readback", "readbacks"))
	}
	p.endGroup()
}
