package model

// Judgement is the verdict on a run: whether it fails, in a headline of a
// few words and in one reason per condition that fails it. The gate
// computes it once, from the outcome and what fails the run (fail-on);
// every report and sink shows it and none decides again.
type Judgement struct {
	Failed bool
	// Headline is the result in a few words, naming every condition that
	// decides the verdict: "1 of 3 fixtures failed (1 mismatch)", "all 3
	// fixtures passed; implementation x 1.0 failed 1 of 3 fixtures".
	Headline string
	// ComparedInHeadline: the comparison with the base decided the verdict
	// (a regression), so the headline tells it already.
	ComparedInHeadline bool
	// Reasons say why the run fails, one sentence each; empty when it
	// passes.
	Reasons []string
}

// Exit codes of a judged run.
const (
	ExitPassed = 0
	ExitFailed = 1
)

// ExitCode is 1 for a failed run, else 0.
func (v *Judgement) ExitCode() int {
	if v != nil && v.Failed {
		return ExitFailed
	}
	return ExitPassed
}

// Conclusion is the check-run conclusion: "failure" or "success".
func (v *Judgement) Conclusion() string {
	if v != nil && v.Failed {
		return "failure"
	}
	return "success"
}
