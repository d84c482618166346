package explain

// The words of the verdict: the gate judges a run into typed reasons
// (model.Judgement), and this is the one place they become sentences.

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
)

// Judged is a judgement in words: the headline, a few words naming the
// counts and every condition that decides the verdict ("1 of 3 fixtures
// failed (1 mismatch)", "all 3 fixtures passed; implementation x 1.0
// failed 1 of 3 fixtures"), and one sentence for each reason.
type Judged struct {
	Headline string
	Reasons  []string
}

// Judgement words the judgement of run; the zero Judged for a run not
// judged.
func Judgement(run *model.Run) Judged {
	j := run.Judgement
	if j == nil {
		return Judged{}
	}
	s := &run.Summary
	parts := []string{judgedCounts(s)}
	if j.Embedded {
		// Not the repository's fixtures: a green run of them proves
		// nothing about the repository, so the headline says whose they are.
		parts[0] += " (the corpus embedded in drp2-fixtures)"
	}
	// What the pull request broke comes first, whatever fail-on judges:
	// "all 125 fixtures passed" leading a run whose runtime it broke
	// reads as good news.
	broke := ImplementationsBroken(run.Comparison)
	parts = append(slices.Clip(broke), parts...)
	var out Judged
	var why []string
	for _, r := range j.Reasons {
		long, short := reasonWords(r, s)
		if long != "" {
			out.Reasons = append(out.Reasons, long)
		}
		switch {
		case slices.Contains(broke, short):
		case r.Kind == model.ReasonInterrupted:
			// First of all: the counts after it are of a part of the
			// run, and read as a verdict on the whole without it.
			parts = append([]string{short}, parts...)
		case short != "" && !slices.Contains(why, short):
			// Many images failing are one headline item.
			why = append(why, short)
		}
	}
	if onlyFindings(j) && s.Run > 0 && s.Unexcused() == 0 {
		// Every fixture passed, yet the findings fail the run: the
		// headline (the check run's title too) opens with them, or it
		// reads as passing.
		parts = append(why, parts...)
	} else {
		parts = append(parts, why...)
	}
	if !j.Failed && s.Unexcused() > 0 {
		parts = append(parts, "not failing the run (fail-on "+j.FailOn+")")
	}
	if j.Findings > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", j.Findings, Plural(j.Findings, "finding", "findings")))
	}
	if k := KnownAgainstBase(run.Comparison); k != "" {
		parts = append(parts, k)
	}
	if c := CorpusHeadline(run.CorpusRoot, run.CorpusSearch); c != "" && j.CorpusSearched {
		parts = append(parts, c)
	}
	out.Headline = strings.Join(parts, "; ")
	return out
}

// ImplementationsBroken words each implementation's new failures against
// the base, as the headline leads with them: "implementation x 1.0: 18
// new failures against base abc1234".
func ImplementationsBroken(c *model.Comparison) []string {
	if c == nil || c.Unavailable != "" {
		return nil
	}
	var out []string
	for i := range c.Implementations {
		d := &c.Implementations[i]
		if d.NewFailures() > 0 {
			_, short := implementationRegressed(model.Reason{Kind: model.ReasonImplementationRegressed, Subject: d.Label,
				Count: len(d.Regressed), Of: len(d.AddedFailing), Detail: c.Base})
			out = append(out, short)
		}
	}
	return out
}

// onlyFindings says whether the findings alone fail the run.
func onlyFindings(j *model.Judgement) bool {
	for _, r := range j.Reasons {
		if r.Kind != model.ReasonFindings {
			return false
		}
	}
	return j.Failed && len(j.Reasons) > 0
}

// ComparedInHeadline says whether the comparison with the base decided
// the verdict, so the headline tells it already.
func ComparedInHeadline(j *model.Judgement) bool {
	return j.Decided(model.ReasonNoComparison) || j.Decided(model.ReasonRegressed) || j.Decided(model.ReasonAddedFailing)
}

// Conclusion is the check-run conclusion of a judgement: "failure" or
// "success".
func Conclusion(j *model.Judgement) string {
	if j != nil && j.Failed {
		return "failure"
	}
	return "success"
}

// reasonWords are a reason's sentence for the log and its few words for
// the headline; either may be empty.
func reasonWords(r model.Reason, s *model.Summary) (long, short string) {
	n := r.Count
	switch r.Kind {
	case model.ReasonNoneRan:
		return noneRan(r), ""
	case model.ReasonMismatches:
		return fmt.Sprintf("%d of %s failed", n, Count(r.Of, "fixture", "fixtures")) + knownNote(s), ""
	case model.ReasonLevel3:
		return fmt.Sprintf("Level 3 preview: readback %d of %s differs across %s", r.Readback, CleanLine(r.Subject), CleanLine(r.Detail)),
			fmt.Sprintf("Level 3 preview: readback %d of %s differs", r.Readback, CleanLine(r.Subject))
	case model.ReasonUnusable:
		return fmt.Sprintf("implementation %s could not be used: %s", CleanLine(r.Subject), CleanLine(r.Detail)),
			fmt.Sprintf("implementation %s could not be used", CleanLine(r.Subject))
	case model.ReasonImplementationFailed:
		w := fmt.Sprintf("implementation %s failed %d of %s", CleanLine(r.Subject), n, Count(r.Of, "fixture", "fixtures"))
		return w, w
	case model.ReasonNoComparison:
		return fmt.Sprintf("%d of %s failed, and with no comparison with the base every failure counts as a regression", n, Count(r.Of, "fixture", "fixtures")),
			"no comparison with the base: every failure counts as a regression"
	case model.ReasonRegressed:
		return fmt.Sprintf("%d %s passed on base %s and %s now", n, Plural(n, "fixture", "fixtures"), r.Subject, Plural(n, "fails", "fail")),
			fmt.Sprintf("%d %s against base %s", n, Plural(n, "regression", "regressions"), r.Subject)
	case model.ReasonAddedFailing:
		return fmt.Sprintf("%d %s not on base %s %s", n, Plural(n, "fixture", "fixtures"), r.Subject, Plural(n, "fails", "fail")),
			fmt.Sprintf("%d new %s failing", n, Plural(n, "fixture", "fixtures"))
	case model.ReasonImplementationRegressed:
		return implementationRegressed(r)
	case model.ReasonFindings:
		return fmt.Sprintf("the corpus has %d %s, and fail-on includes findings", n, Plural(n, "finding", "findings")),
			fmt.Sprintf("%d %s the run (fail-on findings)", n, Plural(n, "finding fails", "findings fail"))
	case model.ReasonFreezeBroken:
		return fmt.Sprintf("the corpus breaks the freeze of %s: %d %s", r.Subject, n, Plural(n, "violation", "violations")),
			fmt.Sprintf("the corpus breaks the freeze of %s (%d %s)", r.Subject, n, Plural(n, "violation", "violations"))
	case model.ReasonUnclean:
		return fmt.Sprintf("the corpus differs from its manifest %s (--check-clean): record the change with drp2-fixtures manifest write", r.Subject),
			fmt.Sprintf("the corpus differs from its manifest %s", r.Subject)
	case model.ReasonIncomplete:
		return "", "not every check could be made"
	case model.ReasonUnexpectedPasses:
		w := fmt.Sprintf("%s passed %d %s expected to fail (fail-on unexpected-pass): remove the stale %s", who(r.Subject), n,
			Plural(n, "fixture", "fixtures"), Plural(n, "entry", "entries"))
		return w, fmt.Sprintf("%s: %d unexpected %s", who(r.Subject), n, Plural(n, "pass", "passes"))
	case model.ReasonUnreported:
		return unreported(r)
	case model.ReasonRequiredAbsent:
		return requiredAbsent(r)
	case model.ReasonInterrupted:
		return fmt.Sprintf("the run was interrupted by %s after %d of %d %s: the fixtures that did not run were not judged, and an interrupted run never passes",
				CleanLine(r.Subject), n, r.Of, Plural(r.Of, "fixture", "fixtures")),
			fmt.Sprintf("interrupted by %s after %d of %d %s", CleanLine(r.Subject), n, r.Of, Plural(r.Of, "fixture", "fixtures"))
	case model.ReasonImage:
		return fmt.Sprintf("Level 3: the image of readback %d of %s by %s fails: %s", r.Readback, CleanLine(r.Subject), CleanLine(r.Implementation), CleanLine(ImageFailure(r.Image))),
			"Level 3: images fail their references"
	case model.ReasonFlaky:
		return fmt.Sprintf("%s has %d flaky %s (fail-on flaky)", who(r.Subject), n, Plural(n, "fixture", "fixtures")),
			fmt.Sprintf("%s: %d flaky", who(r.Subject), n)
	}
	return "", ""
}

// Interrupted is the sentence of an interrupted run, for a report with no
// verdict of its own (JUnit): what stopped it and how far it got.
func Interrupted(in *model.Interruption) string {
	long, _ := reasonWords(model.Reason{Kind: model.ReasonInterrupted, Subject: in.Signal, Count: in.Done, Of: in.Of}, nil)
	return long
}

// implementationRegressed words an implementation's new failures against
// the base: Count regressed, Of added failing.
func implementationRegressed(r model.Reason) (long, short string) {
	var parts []string
	if r.Count > 0 {
		parts = append(parts, fmt.Sprintf("%d %s it passed on base %s", r.Count, Plural(r.Count, "fixture", "fixtures"), r.Detail))
	}
	if r.Of > 0 {
		parts = append(parts, fmt.Sprintf("%d %s it has no base result for", r.Of, Plural(r.Of, "fixture", "fixtures")))
	}
	n := r.Count + r.Of
	return fmt.Sprintf("implementation %s fails %s", CleanLine(r.Subject), strings.Join(parts, ", and ")),
		fmt.Sprintf("implementation %s: %d new %s against base %s", CleanLine(r.Subject), n, Plural(n, "failure", "failures"), r.Detail)
}

// maxDevicesNamed bounds the devices a reason names: the merged reports
// are anyone's, and the rest are counted.
const maxDevicesNamed = 3

// requiredAbsent words a required implementation with no results, or none
// on the device its glob Detail names, and the devices it reported from
// instead.
func requiredAbsent(r model.Reason) (long, short string) {
	name := CleanLine(r.Subject)
	if r.Detail == "" {
		return fmt.Sprintf("implementation %s has no results: the run requires it, and no report of it was given", name),
			fmt.Sprintf("implementation %s has no results", name)
	}
	where := "a device matching " + CleanLine(r.Detail)
	short = fmt.Sprintf("implementation %s has no results on %s", name, where)
	if len(r.Devices) == 0 {
		return short + ": the run requires it there, and no report of it was given", short
	}
	var on []string
	for i, d := range r.Devices {
		if i == maxDevicesNamed {
			on = append(on, fmt.Sprintf("%d other %s", len(r.Devices)-i, Plural(len(r.Devices)-i, "device", "devices")))
			break
		}
		if d == "" {
			d = "a device it did not name"
		}
		on = append(on, CleanLine(d))
	}
	return fmt.Sprintf("%s: the run requires it there, and it reported from %s instead (a fallback to another adapter, or the wrong runner)",
		short, strings.Join(on, "; ")), short
}

// unreported words an implementation's results that the merged reports
// left out: Count of the Of fixtures of the selection.
func unreported(r model.Reason) (long, short string) {
	name, fixtures := CleanLine(r.Subject), Plural(r.Of, "fixture", "fixtures")
	return fmt.Sprintf("implementation %s did not report %d of the %d %s of the selection: a fixture it did not report is not a pass; "+
			"its reports (or a shard's) left the %s out", name, r.Count, r.Of, fixtures, Plural(r.Count, "result", "results")),
		fmt.Sprintf("implementation %s did not report %d of %d %s", name, r.Count, r.Of, fixtures)
}

// who names an implementation of a reason: the built-in validator by what
// it is.
func who(subject string) string {
	if subject == model.Validator {
		return "the built-in validator"
	}
	return "implementation " + CleanLine(subject)
}

// FreezeBroken says how the corpus breaks a frozen manifest; "" when it
// does not.
func FreezeBroken(m *model.ManifestCheck) string {
	if m == nil || m.Violations == 0 {
		return ""
	}
	long, _ := reasonWords(model.Reason{Kind: model.ReasonFreezeBroken, Subject: m.Path, Count: m.Violations}, nil)
	return long
}

// judgedCounts opens the headline: how many fixtures failed, known
// failures apart.
func judgedCounts(s *model.Summary) string {
	switch {
	case s.Run == 0 && s.Discovered == 0:
		return "no fixtures run: the corpus holds no fixture"
	case s.Run == 0:
		return fmt.Sprintf("no fixtures run: the filters matched none of the %d fixtures discovered", s.Discovered)
	case s.Unexcused() > 0:
		text := fmt.Sprintf("%d of %d %s failed", s.Unexcused(), s.Run, Plural(s.Run, "fixture", "fixtures"))
		// The unexcused failures split into their own kinds; no entry
		// excuses a corpus error, so all of them are among these.
		if b := breakdown(s.Unexcused(), s.CorpusErrors); b != "" {
			text += " (" + b + ")"
		}
		return text + knownNote(s)
	case s.KnownFailures > 0 || s.FlakyFailed > 0:
		return fmt.Sprintf("%d of %d %s passed", s.Passed, s.Run, Plural(s.Run, "fixture", "fixtures")) + knownNote(s)
	case s.Run == 1:
		return "the 1 fixture passed"
	}
	return fmt.Sprintf("all %d fixtures passed", s.Run)
}

func knownNote(s *model.Summary) string {
	if s == nil || s.KnownFailures+s.FlakyFailed == 0 {
		return ""
	}
	var parts []string
	if s.KnownFailures > 0 {
		parts = append(parts, fmt.Sprintf("%d known %s", s.KnownFailures, Plural(s.KnownFailures, "failure", "failures")))
	}
	if s.FlakyFailed > 0 {
		parts = append(parts, fmt.Sprintf("%d flaky %s", s.FlakyFailed, Plural(s.FlakyFailed, "failure", "failures")))
	}
	return " (and " + strings.Join(parts, " and ") + ", excused)"
}

// noneRan says why no fixture ran, naming the filters actually given.
func noneRan(r model.Reason) string {
	optOut := "; to allow a run that runs nothing, leave empty out of fail-on"
	if r.Of == 0 {
		return fmt.Sprintf("no fixture ran: the corpus %s holds no .json file under %s%s",
			r.Subject, strings.Join(model.Folders, "/, ")+"/", optOut)
	}
	var filters []string
	for _, f := range r.Filters {
		if f.Quoted && len(f.Values) == 1 {
			filters = append(filters, fmt.Sprintf("%s %q", f.Spelling, f.Values[0]))
		} else {
			filters = append(filters, fmt.Sprintf("%s %s", f.Spelling, strings.Join(f.Values, ", ")))
		}
	}
	if len(filters) == 0 {
		return fmt.Sprintf("no fixture ran out of %d discovered%s", r.Of, optOut)
	}
	return fmt.Sprintf("no fixture ran: the filters %s matched none of the %d fixtures in %s%s",
		strings.Join(filters, " and "), r.Of, r.Subject, optOut)
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

// KnownAgainstBase is the headline's note on a known-failures list or
// expectations file that differs from the base's, or on excuses that hold
// nothing because the base's lists are not known: the lists are the one
// input a change could write to excuse itself, so the reviewer sees them
// change. Empty otherwise.
func KnownAgainstBase(c *model.Comparison) string {
	if c == nil || c.Known == nil {
		return ""
	}
	k := c.Known
	var text string
	switch {
	case k.Changed():
		text = fmt.Sprintf("%s changed against base %s (%d added, %d removed)", listNames(k.Files), c.Base, len(k.Added), len(k.Removed))
	case c.Unavailable != "" && len(k.Unexcused) > 0:
		text = "the expectations of the base cannot be read"
	case k.Unknown && len(k.Unexcused) > 0:
		text = fmt.Sprintf("the expectations of base %s are not known", c.Base)
	default:
		return ""
	}
	if n := len(k.Unexcused); n > 0 {
		text += fmt.Sprintf(": %d %s no entry of the base excuses %s", n, Plural(n, "failure", "failures"), Plural(n, "counts", "count"))
	}
	return text
}

// listNames names lists by what they are: "the known-failures list
// known.txt and the expectations file rt.txt".
func listNames(files []model.ListFile) string {
	var names []string
	for _, f := range files {
		if f.Known {
			names = append(names, "the known-failures list "+f.Path)
		} else {
			names = append(names, "the expectations file "+f.Path)
		}
	}
	if len(names) == 0 {
		return "the expectations"
	}
	return strings.Join(names, " and ")
}
