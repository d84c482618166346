package explain

import "github.com/drp2/drp2-fixtures/model"

// Shown is how one kind of result appears in each sink: the one mapping
// from the verdict's classification (model.Kind, model.NewFailures) to
// what JUnit, the annotations and the words of every report show, so that
// no sink decides again what a result is.
type Shown struct {
	// Word names the kind in a sentence.
	Word string
	// JUnit is the testcase element that carries the result: "" when it
	// passed, else "failure", "error" or "skipped"; JUnitType is the type
	// of a failure or error.
	JUnit, JUnitType string
	// Annotation is the level of its check-run annotation: "failure",
	// "warning", or "" for none.
	Annotation string
	// New: the result fails now and did not on the base; Word says how
	// ("regressed", "new failure").
	New bool
}

var shown = map[model.Kind]Shown{
	model.KindPassed: {Word: "passed"},
	model.KindFailed: {Word: "failed", JUnit: "failure", JUnitType: "mismatch", Annotation: "failure"},
	// Reported, and failing nothing: a skipped test with its reason, as
	// pytest writes an expected failure; no annotation, since annotations
	// are for what fails the run.
	model.KindKnownFailure: {Word: "known failure", JUnit: "skipped"},
	model.KindCorpusError:  {Word: CorpusError, JUnit: "error", JUnitType: "corpus_error", Annotation: "failure"},
	model.KindNotClaimed:   {Word: "not claimed", JUnit: "skipped"},
	model.KindHarnessError: {Word: "no verdict", JUnit: "error", JUnitType: "harness_error", Annotation: "failure"},
	// A flaky fixture that passed is a pass (its attempts in the
	// testcase's output); one that failed is skipped, as a known failure
	// (ShowResult).
	model.KindFlaky: {Word: "flaky"},
	// A stale entry: a pass, and a notice on the file that says to remove
	// the entry.
	model.KindUnexpectedPass: {Word: "unexpected pass", Annotation: "notice"},
	model.KindSkipped:        {Word: "skipped", JUnit: "skipped"},
}

// ShowResult is how the result r appears (Show): a flaky fixture that
// failed is not a plain failure, and shows as skipped.
func ShowResult(r *model.Result, v model.Transition) Shown {
	s := Show(r.Kind(), v)
	if r.Kind() == model.KindFlaky && !r.Passed {
		s.JUnit = "skipped"
	}
	return s
}

// newFailure is a failure the base did not have (model.NewFailures): a
// regression, of its own JUnit type so that a dashboard tells new failures
// from old. A corpus error stays an error.
var newFailure = map[model.Transition]string{model.Regressed: "regressed", model.AddedFailing: "new failure"}

// Show is how a result of kind k appears; v is how it newly fails against
// the base ("" when it does not), from model.NewFailures.
func Show(k model.Kind, v model.Transition) Shown {
	s := shown[k]
	word, ok := newFailure[v]
	if !ok || (k != model.KindFailed && k != model.KindCorpusError) {
		return s
	}
	s.Word, s.New = word, true
	if k == model.KindFailed {
		s.JUnitType = "regression"
	}
	return s
}
