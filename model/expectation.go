package model

// Expectation is what an expectations list says of one fixture for one
// implementation (internal/expect): that it fails, that it may pass or
// fail, or that it is not to be sent at all. The built-in validator is the
// implementation named Validator.
type Expectation int

const (
	// ExpectPass: no entry; the fixture is expected to pass.
	ExpectPass Expectation = iota
	// ExpectFail: expected to fail. A failure is known and fails nothing;
	// a pass is an unexpected pass (the entry is stale).
	ExpectFail
	// ExpectFlaky: may pass or fail; never fails the run.
	ExpectFlaky
	// ExpectSkip: not sent to the implementation; counted as skipped.
	ExpectSkip
)

// expectationWords are the expectations as an expectations file spells
// them, and the JSON report after it.
var expectationWords = map[Expectation]string{ExpectPass: "pass", ExpectFail: "fail", ExpectFlaky: "flaky", ExpectSkip: "skip"}

// String is the expectation as an expectations file spells it.
func (e Expectation) String() string { return expectationWords[e] }

// ParseExpectation reads an expectation as an expectations file spells
// it ("fail", "flaky", "skip"); "pass" is not written in a file.
func ParseExpectation(s string) (Expectation, bool) {
	for e, w := range expectationWords {
		if w == s && e != ExpectPass {
			return e, true
		}
	}
	return ExpectPass, false
}

// Validator is the name of the built-in validator as an implementation of
// an expectations list: its entries are the run's own results' (and the
// --known-failures list's).
const Validator = "drp2-fixtures"

// Skipped is the outcome of a fixture an expectations entry skips for an
// implementation: it was not sent, and neither passes nor fails.
const Skipped Outcome = "skipped"

// Listing is the expectations entry that covers one result.
type Listing struct {
	Expect Expectation
	// Reason is the entry's comment ("" when it has none).
	Reason string
	// Entry names the entry as file:line.
	Entry string
}

// Listed is the expectation the result's entry gives it; ExpectPass when
// none covers it.
func (r *Result) Listed() Expectation {
	if r.Listing == nil {
		return ExpectPass
	}
	return r.Listing.Expect
}

// Retried says whether the fixture was sent more than once: it failed
// unexpectedly, and a fresh implementation process was given it again.
func (r *Result) Retried() bool { return len(r.Attempts) > 1 }

// ExpectationsUpdate is the expectations file a run wrote as the
// expectations should be after it (--update-expectations).
type ExpectationsUpdate struct {
	// File is the file written, as the run shows paths.
	File string
	// Diff is the change as a unified diff; "" when there is none.
	Diff string
}
