package model

import (
	"slices"
	"sort"
	"strings"
	"time"
)

// HarnessError is the outcome of a fixture for which an implementation gave
// no usable verdict: it crashed, hung past the timeout, printed something
// that is not the protocol, or answered out of turn. It is never a DRP
// result and never matches an expectation.
const HarnessError Outcome = "harness_error"

// NotClaimed is the outcome of a fixture whose expected phase the
// implementation says it does not perform (a runtime without a JSON Schema
// layer and the schema-negative fixtures, say): it was not sent, and it
// neither passes nor fails. It still stands between the implementation and
// a Level 1 claim, which covers every fixture (CONFORMANCE.md).
const NotClaimed Outcome = "not_claimed"

// Implementation is one DRP2 implementation run through the corpus by the
// runtime harness: who it says it is, and its result for every fixture the
// run selected, in the run's order.
type Implementation struct {
	// Command is the command line it was started with, as given.
	Command string
	// Name, Version and DRP2Versions are what it said in the handshake.
	Name         string
	Version      string
	DRP2Versions []string
	// Executes is true when it claims Level 2 (CONFORMANCE.md): it runs
	// streams and answers readbacks with QueueSubmitReply messages.
	Executes bool
	// Protocol is the adapter protocol version it spoke.
	Protocol int
	// Phases are the DRP phases it performs, as it declared them; nil
	// means all three (it did not say, as in protocol 1).
	Phases []string
	// Adapter is the device it ran on, as it described it; nil when it did
	// not say.
	Adapter *GPUAdapter
	// Capabilities is the capabilities object of its hello, as sent (raw
	// JSON, bounded); nil when it sent none.
	Capabilities []byte
	// Error says why it could not be used at all (it never completed the
	// handshake); its results are then harness errors.
	Error string
	// Stderr is the tail of its standard error, bounded.
	Stderr string
	// Restarts counts the times it was started again after a failure.
	Restarts int
	Duration time.Duration
	Results  []Result
	Summary  Summary
	// Level2 maps the corpus path of every fixture whose readback replies
	// were checked (CONFORMANCE.md, Level 2 rule 2) to whether they
	// mirrored the requests.
	Level2 map[string]bool
	// Readbacks maps the corpus path of every fixture whose replies passed
	// Level 2 to the bytes of its readbacks, in request order, for the
	// Level 3 preview (see Parity). A readback over MaxParityBytes is
	// kept as nil.
	Readbacks map[string][][]byte
	// Images are its readbacks that fixtures describe as images,
	// compared with their references (Level 3), in corpus order, then
	// readback order.
	Images []ImageCheck
	// ImageRuns is how many times each fixture with images was sent (a
	// repeat); Unstable maps those whose readbacks differed between the
	// attempts to the readbacks that did. Neither is in a report: the
	// image checks say it.
	ImageRuns int
	Unstable  map[string][]int
}

// GPUAdapter is the GPU adapter (WebGPU's GPUAdapter: the device and its
// driver) an implementation ran on, in its own words.
type GPUAdapter struct {
	Vendor       string
	Architecture string
	Device       string
	// Driver is the driver's own description ("SwiftShader driver 5.0.0").
	Driver string
	// Platform is what runs the implementation ("node 20.20.2, dawn").
	Platform string
}

// ClaimsPhase reports whether the implementation performs phase.
func (im *Implementation) ClaimsPhase(phase string) bool {
	return im.Phases == nil || slices.Contains(im.Phases, phase)
}

// NotClaimedCount counts the fixtures of phases it does not perform.
func (im *Implementation) NotClaimedCount() int { return im.count(NotClaimed) }

// count counts the fixtures whose actual outcome is o.
func (im *Implementation) count(o Outcome) int {
	n := 0
	for i := range im.Results {
		if im.Results[i].Actual.Outcome == o {
			n++
		}
	}
	return n
}

// Level1 says whether the implementation meets Level 1 (CONFORMANCE.md):
// every fixture run classified as expected, none left unclaimed.
func (im *Implementation) Level1() bool {
	return im.Error == "" && len(im.Results) > 0 && im.Summary.Failed == 0 && im.NotClaimedCount() == 0 && im.count(Skipped) == 0
}

// Description is the device an implementation ran on as an expectations
// entry's device glob matches it: vendor, architecture, device and driver,
// the ones it gave, separated by spaces; "" when it gave none.
func (a *GPUAdapter) Description() string {
	if a == nil {
		return ""
	}
	var parts []string
	for _, p := range []string{a.Vendor, a.Architecture, a.Device, a.Driver} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// Label identifies the implementation: its name and version, or its
// command when it never said its name. It is data, not wording: the
// ranking and the parity rows key on it, and reports show it as it is.
func (im *Implementation) Label() string {
	if im.Name == "" {
		return im.Command
	}
	if im.Version == "" {
		return im.Name
	}
	return im.Name + " " + im.Version
}

// Level2Counts returns how many fixtures had their readback replies checked
// and how many of those passed.
func (im *Implementation) Level2Counts() (checked, passed int) {
	for _, ok := range im.Level2 {
		checked++
		if ok {
			passed++
		}
	}
	return checked, passed
}

// HarnessErrors counts the fixtures without a usable verdict.
func (im *Implementation) HarnessErrors() int { return im.count(HarnessError) }

// RankImplementations returns the indexes of impls best first: most
// fixtures passed, then fewest harness errors, then by label and command,
// so that the order never depends on the order of the flags.
func RankImplementations(impls []Implementation) []int {
	idx := make([]int, len(impls))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := &impls[idx[a]], &impls[idx[b]]
		if x.Summary.Passed != y.Summary.Passed {
			return x.Summary.Passed > y.Summary.Passed
		}
		if hx, hy := x.HarnessErrors(), y.HarnessErrors(); hx != hy {
			return hx < hy
		}
		if x.Label() != y.Label() {
			return x.Label() < y.Label()
		}
		return x.Command < y.Command
	})
	return idx
}
