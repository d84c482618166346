package model

// Judgement is the verdict on a run: whether it fails, and every condition
// that decides it, as data. The gate judges once, from the outcome and
// what fails the run (fail-on); report/explain words it, and every report
// and sink shows those words and decides nothing again.
type Judgement struct {
	Failed bool
	// Reasons are the conditions that fail the run, in the gate's order;
	// empty when it passes. Notes (Unfailed, Findings) decide nothing.
	Reasons []Reason
	// Embedded: the run is of the corpus built into the tool, not the
	// repository's.
	Embedded bool
	// FailOn is what fails the run, as fail-on names it
	// ("mismatch,empty"), for a run whose failures do not fail it.
	FailOn string
	// Findings is the number of findings the headline names when they do
	// not fail the run.
	Findings int
	// CorpusSearched: the action ran the corpus a search of the workspace
	// chose (Run.CorpusSearch says how), which the headline names, since
	// the corpus is what a pull request would move to turn the gate green.
	CorpusSearched bool
}

// ReasonKind is a kind of condition that fails a run.
type ReasonKind int

// The conditions that fail a run, in the order the gate checks them.
const (
	// ReasonNoneRan: no fixture ran (fail-on empty). Subject is the
	// corpus root; Of the fixtures discovered; Filters those given.
	ReasonNoneRan ReasonKind = iota + 1
	// ReasonMismatches: Count of Of fixtures failed (fail-on mismatch).
	ReasonMismatches
	// ReasonLevel3: readback Readback of the fixture Subject differs
	// across the implementations in Detail (fail-on level3).
	ReasonLevel3
	// ReasonUnusable: implementation Subject could not be used; Detail
	// says why in its own words.
	ReasonUnusable
	// ReasonImplementationFailed: implementation Subject failed Count of
	// Of fixtures.
	ReasonImplementationFailed
	// ReasonNoComparison: Count of Of fixtures failed, and with no
	// comparison with the base each counts as a regression.
	ReasonNoComparison
	// ReasonRegressed: Count fixtures passed on base Subject and fail now.
	ReasonRegressed
	// ReasonAddedFailing: Count fixtures not on base Subject fail.
	ReasonAddedFailing
	// ReasonImplementationRegressed: implementation Subject fails Count
	// fixtures it passed on base Detail, and Of fixtures the base did not
	// have a result for (fail-on regressions).
	ReasonImplementationRegressed
	// ReasonFindings: the corpus has Count findings (fail-on findings).
	ReasonFindings
	// ReasonFreezeBroken: the corpus breaks the freeze of the manifest
	// Subject with Count violations.
	ReasonFreezeBroken
	// ReasonUnclean: the corpus differs from its manifest Subject
	// (--check-clean).
	ReasonUnclean
	// ReasonIncomplete: a check could not be made (the tool's own trouble
	// or unusable input, said apart).
	ReasonIncomplete
	// ReasonUnexpectedPasses: implementation Subject (Validator for the
	// built-in one) passed Count fixtures its expectations say fail
	// (fail-on unexpected-pass).
	ReasonUnexpectedPasses
	// ReasonFlaky: implementation Subject had Count flaky fixtures
	// (fail-on flaky).
	ReasonFlaky
	// ReasonUnreported: implementation Subject has no result for Count
	// of the Of fixtures of the selection (the validator's results that
	// are not corpus errors): the reports merged left them out (fail-on
	// mismatch or regressions).
	ReasonUnreported
	// ReasonRequiredAbsent: implementation Subject, which the run
	// requires (on a device matching the glob Detail, when not ""), has
	// no results there, whatever fail-on says; Devices are the devices it
	// reported from instead.
	ReasonRequiredAbsent
	// ReasonInterrupted: the signal Subject stopped the run after Count
	// of Of fixtures (Run.Interrupted): whatever the fixtures that ran
	// say, the others were not judged.
	ReasonInterrupted
	// ReasonImage: implementation Implementation's image of readback
	// Readback of the fixture Subject fails Level 3 (fail-on level3), as
	// Image says.
	ReasonImage
)

// Reason is one condition that fails a run, with what its words need.
type Reason struct {
	Kind            ReasonKind
	Count, Of       int
	Subject, Detail string
	Readback        int
	Implementation  string
	Image           *ImageCheck
	Filters         []Filter
	Devices         []string
}

// Filter is one filter a run was given, as its user spelled it.
type Filter struct {
	// Spelling names the flag or input ("--name", "input tags"); Values
	// are what it was given.
	Spelling string
	Values   []string
	// Quoted shows the one value quoted (a substring to match).
	Quoted bool
}

// Decided says whether the reasons include one of kind k.
func (j *Judgement) Decided(k ReasonKind) bool {
	if j == nil {
		return false
	}
	for _, r := range j.Reasons {
		if r.Kind == k {
			return true
		}
	}
	return false
}
