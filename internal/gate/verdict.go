package gate

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/runner"
)

// reason is one condition that fails a run: a sentence for the log, and a
// few words for the headline.
type reason struct{ long, short string }

// Judge is the verdict on an outcome under the job's fail-on, computed in
// this one place: every condition that fails the run is a reason, named
// in the headline too. The headline opens with the counts.
func Judge(o *Outcome, job Job) *model.Judgement {
	run := o.Run
	s := run.Summary
	var why []reason
	if job.FailOn.Empty && s.Run == 0 {
		why = append(why, reason{long: emptyReason(run, job)})
	}
	if job.FailOn.Mismatch && s.Unexcused() > 0 {
		why = append(why, reason{long: fmt.Sprintf("%d of %d fixtures failed", s.Unexcused(), s.Run) + knownNote(s)})
	}
	why = append(why, implementationReasons(run, job)...)
	regressed := regressionReasons(run, job)
	why = append(why, regressed...)
	if job.FailOn.Findings && s.Findings > 0 {
		why = append(why, reason{
			long:  fmt.Sprintf("the corpus has %d %s, and fail-on includes findings", s.Findings, explain.Plural(s.Findings, "finding", "findings")),
			short: fmt.Sprintf("%d %s (fail-on findings)", s.Findings, explain.Plural(s.Findings, "finding", "findings")),
		})
	}
	why = append(why, o.Manifest.reasons()...)
	if o.Err != nil {
		// The tool's own trouble, exit code 2 or 3: said, not judged.
		why = append(why, reason{short: "not every check could be made"})
	}
	j := &model.Judgement{Failed: len(why) > 0, ComparedInHeadline: len(regressed) > 0}
	parts := []string{counts(s)}
	if run.CorpusRoot == runner.Embedded && !job.MergeOnly {
		// Not the repository's fixtures: a green run of them proves
		// nothing about the repository, so the headline says whose they are.
		parts[0] += " (the corpus embedded in drp2-fixtures)"
	}
	for _, w := range why {
		if w.long != "" {
			j.Reasons = append(j.Reasons, w.long)
		}
		if w.short != "" {
			parts = append(parts, w.short)
		}
	}
	if !j.Failed && s.Unexcused() > 0 {
		parts = append(parts, "not failing the run (fail-on "+job.FailOn.String()+")")
	}
	if s.Findings > 0 && !(job.FailOn.Findings) {
		parts = append(parts, fmt.Sprintf("%d %s", s.Findings, explain.Plural(s.Findings, "finding", "findings")))
	}
	j.Headline = strings.Join(parts, "; ")
	return j
}

// counts opens the headline: how many fixtures failed, known failures
// apart.
func counts(s model.Summary) string {
	switch {
	case s.Run == 0 && s.Discovered == 0:
		return "no fixtures run: the corpus holds no fixture"
	case s.Run == 0:
		return fmt.Sprintf("no fixtures run: the filters matched none of the %d fixtures discovered", s.Discovered)
	case s.Unexcused() > 0:
		text := fmt.Sprintf("%d of %d %s failed", s.Unexcused(), s.Run, explain.Plural(s.Run, "fixture", "fixtures"))
		if b := breakdown(s); b != "" {
			text += " (" + b + ")"
		}
		return text + knownNote(s)
	case s.KnownFailures > 0:
		return fmt.Sprintf("%d of %d %s passed", s.Passed, s.Run, explain.Plural(s.Run, "fixture", "fixtures")) + knownNote(s)
	case s.Run == 1:
		return "the 1 fixture passed"
	}
	return fmt.Sprintf("all %d fixtures passed", s.Run)
}

// breakdown splits the unexcused failures into mismatches and corpus
// errors (corpus errors are never excused).
func breakdown(s model.Summary) string {
	mismatches := s.Unexcused() - s.CorpusErrors
	parts := []string{fmt.Sprintf("%d %s", mismatches, explain.Plural(mismatches, "mismatch", "mismatches"))}
	if s.CorpusErrors > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", s.CorpusErrors, explain.Plural(s.CorpusErrors, explain.CorpusError, explain.CorpusError+"s")))
	}
	return strings.Join(parts, ", ")
}

func knownNote(s model.Summary) string {
	if s.KnownFailures == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d known %s, excused)", s.KnownFailures, explain.Plural(s.KnownFailures, "failure", "failures"))
}

// emptyReason says why no fixture ran, naming the filters actually given.
func emptyReason(run *model.Run, job Job) string {
	optOut := "; to allow a run that runs nothing, leave empty out of fail-on"
	if run.Summary.Discovered == 0 {
		return fmt.Sprintf("no fixture ran: the corpus %s holds no .json file under %s%s",
			run.CorpusRoot, strings.Join(runner.Folders, "/, ")+"/", optOut)
	}
	sp := job.Spelling
	var filters []string
	if job.Name != "" {
		filters = append(filters, fmt.Sprintf("%s %q", sp.Name, job.Name))
	}
	if len(job.Tags) > 0 {
		tags := append([]string(nil), job.Tags...)
		sort.Strings(tags)
		filters = append(filters, fmt.Sprintf("%s %s", sp.Tag, strings.Join(tags, ", ")))
	}
	if len(job.Paths) > 0 {
		filters = append(filters, fmt.Sprintf("%s %s", sp.Paths, strings.Join(job.Paths, ", ")))
	}
	if len(filters) == 0 {
		return fmt.Sprintf("no fixture ran out of %d discovered%s", run.Summary.Discovered, optOut)
	}
	return fmt.Sprintf("no fixture ran: the filters %s matched none of the %d fixtures in %s%s",
		strings.Join(filters, " and "), run.Summary.Discovered, run.CorpusRoot, optOut)
}

// implementationReasons say which implementations fail the run: one with
// a failing fixture, or one that could not be used; under fail-on level3,
// every readback whose bytes differ across them.
func implementationReasons(run *model.Run, job Job) []reason {
	var why []reason
	if job.FailOn.Level3 {
		for _, row := range model.Parity(run) {
			if !row.Agree() {
				why = append(why, reason{
					long:  fmt.Sprintf("Level 3 preview: readback %d of %s differs across %s", row.Readback, CleanLine(row.Path), CleanLine(paritySources(row))),
					short: fmt.Sprintf("Level 3 preview: readback %d of %s differs", row.Readback, CleanLine(row.Path)),
				})
			}
		}
	}
	if !job.FailOn.Mismatch {
		return why
	}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		switch {
		case im.Error != "":
			why = append(why, reason{
				long:  fmt.Sprintf("implementation %s could not be used: %s", CleanLine(im.Label()), CleanLine(im.Error)),
				short: fmt.Sprintf("implementation %s could not be used", CleanLine(im.Label())),
			})
		case im.Summary.Failed > 0:
			w := fmt.Sprintf("implementation %s failed %d of %d fixtures", CleanLine(im.Label()), im.Summary.Failed, im.Summary.Run)
			why = append(why, reason{long: w, short: w})
		}
	}
	return why
}

// paritySources names the groups of a parity row: "a, b | c".
func paritySources(row model.ParityRow) string {
	var groups []string
	for _, g := range row.Groups {
		groups = append(groups, strings.Join(g.Sources, ", "))
	}
	return strings.Join(groups, " | ")
}

// CleanLine keeps an implementation's own words on one printable line.
func CleanLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// regressionReasons are the reasons fail-on regressions fails a run: a
// fixture that passed on the base fails now, unless the known-failures
// list excuses it. With no comparison to judge by, every unexcused failure
// counts, so that a shallow checkout cannot turn the gate off.
func regressionReasons(run *model.Run, job Job) []reason {
	if !job.FailOn.Regressions {
		return nil
	}
	c := run.Comparison
	if c == nil || c.Unavailable != "" {
		if n := run.Summary.Unexcused(); n > 0 && !job.FailOn.Mismatch {
			return []reason{{
				long:  fmt.Sprintf("%d of %d fixtures failed, and with no comparison with the base every failure counts as a regression", n, run.Summary.Run),
				short: "no comparison with the base: every failure counts as a regression",
			}}
		}
		return nil
	}
	regressed, added := Regressions(run, c)
	var why []reason
	if regressed > 0 {
		why = append(why, reason{
			long:  fmt.Sprintf("%d %s passed on base %s and %s now", regressed, explain.Plural(regressed, "fixture", "fixtures"), c.Base, explain.Plural(regressed, "fails", "fail")),
			short: fmt.Sprintf("%d %s against base %s", regressed, explain.Plural(regressed, "regression", "regressions"), c.Base),
		})
	}
	if added > 0 {
		why = append(why, reason{
			long:  fmt.Sprintf("%d %s not on base %s %s", added, explain.Plural(added, "fixture", "fixtures"), c.Base, explain.Plural(added, "fails", "fail")),
			short: fmt.Sprintf("%d new %s failing", added, explain.Plural(added, "fixture", "fixtures")),
		})
	}
	return why
}

// Regressions counts the fixtures that fail now and did not on the base,
// by model.NewFailures, the one regression rule: those that regressed and
// those added failing. c is run's comparison.
func Regressions(run *model.Run, c *model.Comparison) (regressed, added int) {
	for _, v := range model.NewFailures(run) {
		if v == model.Regressed {
			regressed++
		} else {
			added++
		}
	}
	return regressed, added
}
