package explain

import (
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Adapter names the device an implementation ran on in one line: vendor,
// architecture and device, driver, platform; only what is known, ""
// for none. A device that repeats the words before it is not repeated
// ("google swiftshader" with device "SwiftShader").
func Adapter(a *model.GPUAdapter) string {
	if a == nil {
		return ""
	}
	var parts []string
	name := strings.TrimSpace(a.Vendor + " " + a.Architecture)
	if a.Device != "" && !strings.Contains(strings.ToLower(name), strings.ToLower(a.Device)) {
		name = strings.TrimSpace(name + " " + a.Device)
	}
	for _, p := range []string{name, a.Driver} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	s := strings.Join(parts, ", ")
	if a.Platform != "" {
		if s == "" {
			return a.Platform
		}
		s += " (" + a.Platform + ")"
	}
	return s
}

// Unusable is what every report says of an implementation that could not
// be used at all (not started, no handshake): none of its fixtures ran, so
// it neither passed nor failed any.
const Unusable = "could not be used"

// ImplementationsVerdict sums up how n implementations did, failing of
// them failing fixtures and unusable of them not usable at all: "all 3
// implementations pass every fixture", "1 of 3 implementations fails
// fixtures; 1 could not be used".
func ImplementationsVerdict(n, failing, unusable int) string {
	return ExpectedVerdict(n, failing, unusable, false)
}

// ExpectedVerdict is ImplementationsVerdict for implementations whose
// expectations excuse failures (excused): when nothing else fails, it says
// that they fail only as expected, not that they pass every fixture.
func ExpectedVerdict(n, failing, unusable int, excused bool) string {
	if failing == 0 && unusable == 0 && excused {
		if n == 1 {
			return "the 1 implementation fails only as its expectations say"
		}
		return "all " + Count(n, "implementation", "implementations") + " fail only as their expectations say"
	}
	if failing == 0 && unusable == 0 {
		if n == 1 {
			return "the 1 implementation passes every fixture"
		}
		return "all " + Count(n, "implementation", "implementations") + " pass every fixture"
	}
	of := func(k int) string { return strconv.Itoa(k) + " of " + Count(n, "implementation", "implementations") }
	var parts []string
	if failing > 0 {
		parts = append(parts, of(failing)+" "+Plural(failing, "fails", "fail")+" fixtures")
	}
	if unusable > 0 {
		if failing > 0 {
			parts = append(parts, strconv.Itoa(unusable)+" "+Unusable)
		} else {
			parts = append(parts, of(unusable)+" "+Unusable)
		}
	}
	return strings.Join(parts, "; ")
}

// StaleEntry says that an expected failure passed and its entry should go.
func StaleEntry(r *model.Result) string {
	where := ""
	if r.Listing != nil {
		where = " (" + CleanLine(r.Listing.Entry) + ")"
	}
	return "Unexpected pass: expected to fail" + where + ", and it passed; remove the entry (--update-expectations does)."
}

// Expectations words an implementation's counts of what its expectations
// say: "2 known, 1 flaky, 1 unexpected pass, 3 skipped", only the ones
// that are not zero; "" when all are.
func Expectations(s *model.Summary) string {
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+Plural(n, one, many))
		}
	}
	add(s.KnownFailures, "known failure", "known failures")
	add(s.Flaky, "flaky", "flaky")
	add(s.UnexpectedPasses, "unexpected pass", "unexpected passes")
	add(s.Skipped, "skipped", "skipped")
	return strings.Join(parts, ", ")
}

// Attempts words the attempts of a retried fixture: "failed, then
// passed on attempt 2 of 3"; "" for a fixture sent once.
func Attempts(r *model.Result) string {
	if !r.Retried() {
		return ""
	}
	n := len(r.Attempts)
	if r.Passed {
		return "failed, then passed on attempt " + strconv.Itoa(n) + " (flaky)"
	}
	return "failed on all " + strconv.Itoa(n) + " attempts"
}

// ImplementationResult says in a few words how one implementation did,
// for a verdict line that states every implementation's result whatever
// decided the run: "implementation x 1.0 failed 3 of 125 fixtures (and 2
// known failures, excused)", "implementation x 1.0 passed 125 of 125
// fixtures", "implementation x could not be used". The fixtures counted
// are those it claims and is sent, as the verdict counts them.
func ImplementationResult(im *model.Implementation) string {
	name := "implementation " + CleanLine(im.Label())
	if im.Error != "" {
		return name + " " + Unusable
	}
	s := &im.Summary
	of := Count(s.Run-s.NotClaimed-s.Skipped, "fixture", "fixtures")
	if n := s.Unexcused(); n > 0 {
		return name + " failed " + strconv.Itoa(n) + " of " + of + knownNote(s)
	}
	return name + " passed " + strconv.Itoa(s.Passed) + " of " + of + knownNote(s)
}

// Missing words the reasons of run's verdict that name implementations the
// counts of its results cannot show: one the run requires that reported
// from no matching device, one whose reports left fixtures out. A matrix
// of the implementations that did report reads as a pass without them.
func Missing(run *model.Run) []string {
	if run.Judgement == nil {
		return nil
	}
	var out []string
	for _, r := range run.Judgement.Reasons {
		if r.Kind == model.ReasonRequiredAbsent || r.Kind == model.ReasonUnreported {
			long, _ := reasonWords(r, &run.Summary)
			out = append(out, long)
		}
	}
	return out
}
