package gate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestImplementationCountsClaimedFixtures: the headline's "failed N of M"
// counts the fixtures the implementation claims, as the matrix does ("5
// of 6 (1 failed); 2 not claimed"), not the ones it does not perform.
func TestImplementationCountsClaimedFixtures(t *testing.T) {
	im := model.Implementation{Command: "./rt", Name: "rt"}
	im.Summary = model.Summary{Run: 8, Passed: 5, Failed: 1, NotClaimed: 2}
	run := &model.Run{Implementations: []model.Implementation{im}}
	j := judge(&Outcome{Run: run}, job{RunRequest: RunRequest{FailOn: FailOn{Mismatch: true}}})
	if len(j.Reasons) != 1 || j.Reasons[0].Kind != model.ReasonImplementationFailed || j.Reasons[0].Count != 1 || j.Reasons[0].Of != 6 {
		t.Errorf("reasons %+v, want 1 failed of the 6 claimed", j.Reasons)
	}
}

// TestJudgeExpectations: per implementation, the built-in validator
// first, only the failures no entry excuses fail the run under mismatch;
// unexpected passes and flaky fixtures fail it only when asked for.
func TestJudgeExpectations(t *testing.T) {
	fail := &model.Listing{Expect: model.ExpectFail, Entry: "e:1"}
	flaky := &model.Listing{Expect: model.ExpectFlaky, Entry: "e:2"}
	results := []model.Result{
		{RelPath: "a", Listing: fail, KnownFailure: "bug"},              // known failure
		{RelPath: "b", Listing: flaky},                                  // flaky, failed
		{RelPath: "c", Passed: true, Listing: fail},                     // unexpected pass
		{RelPath: "d", Passed: true, Attempts: make([]model.Actual, 2)}, // passed on a retry
	}
	im := model.Implementation{Name: "rt", Results: results}
	im.Summary = model.Summarize(4, im.Results, nil)
	run := &model.Run{Results: []model.Result{{RelPath: "a", Passed: true, Listing: fail}}, Implementations: []model.Implementation{im}}
	run.Summary = model.Summarize(1, run.Results, nil)
	kinds := func(j *model.Judgement) []string {
		var out []string
		for _, r := range j.Reasons {
			out = append(out, fmt.Sprintf("%d %s %d", r.Kind, r.Subject, r.Count))
		}
		return out
	}
	if j := judge(&Outcome{Run: run}, job{RunRequest: RunRequest{FailOn: DefaultFailOn}}); j.Failed {
		t.Errorf("excused failures fail the run: %v", kinds(j))
	}
	j := judge(&Outcome{Run: run}, job{RunRequest: RunRequest{FailOn: FailOn{Mismatch: true, UnexpectedPass: true, Flaky: true}}})
	want := []string{
		fmt.Sprintf("%d %s 1", model.ReasonUnexpectedPasses, model.Validator),
		fmt.Sprintf("%d rt 1", model.ReasonUnexpectedPasses),
		fmt.Sprintf("%d rt 2", model.ReasonFlaky),
	}
	if got := kinds(j); !j.Failed || strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("reasons %v, want %v", got, want)
	}
	im.Results = append(im.Results, model.Result{RelPath: "e"})
	im.Summary = model.Summarize(5, im.Results, nil)
	run.Implementations[0] = im
	j = judge(&Outcome{Run: run}, job{RunRequest: RunRequest{FailOn: DefaultFailOn}})
	if got := kinds(j); !j.Failed || len(got) != 1 || got[0] != fmt.Sprintf("%d rt 1", model.ReasonImplementationFailed) {
		t.Errorf("one new failure: reasons %v", got)
	}
}

// TestJudgeCoverage: an implementation with no result for a fixture of
// the selection (corpus errors aside, which none is sent) fails the run
// under mismatch or regressions; a required implementation absent fails
// it whatever fail-on says, matched by name, label or command, and by the
// device its glob names.
func TestJudgeCoverage(t *testing.T) {
	broken := model.Result{RelPath: "broken", Actual: model.Actual{Outcome: model.CorpusError}}
	run := &model.Run{Results: []model.Result{{RelPath: "a", Passed: true}, {RelPath: "b", Passed: true}, broken},
		Implementations: []model.Implementation{{Command: "./rt", Name: "rt", Version: "1", Results: []model.Result{{RelPath: "a", Passed: true}},
			Adapter: &model.GPUAdapter{Vendor: "Google", Device: "SwiftShader Device"}}}}
	reasons := func(failOn FailOn, require ...string) []string {
		var reqs []model.Requirement
		for _, s := range require {
			r, err := model.ParseRequirement(s)
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, r)
		}
		var out []string
		for _, r := range judge(&Outcome{Run: run}, job{RunRequest: RunRequest{FailOn: failOn, Require: reqs}}).Reasons {
			out = append(out, fmt.Sprintf("%d %s %d/%d", r.Kind, r.Subject, r.Count, r.Of))
			if r.Detail != "" || r.Devices != nil {
				out = append(out, fmt.Sprintf("on %s, not %q", r.Devices, r.Detail))
			}
		}
		return out
	}
	unreported := fmt.Sprintf("%d rt 1 1/2", model.ReasonUnreported)
	for _, failOn := range []FailOn{{Mismatch: true}, {Regressions: true}} {
		if got := reasons(failOn); strings.Join(got, ";") != unreported {
			t.Errorf("fail-on %s: %v, want %s", failOn, got, unreported)
		}
	}
	if got := reasons(FailOn{}, "rt", "rt 1", "./rt"); len(got) != 0 {
		t.Errorf("fail-on never, the implementation there by three names: %v", got)
	}
	if got, want := reasons(FailOn{}, "native"), fmt.Sprintf("%d native 0/0", model.ReasonRequiredAbsent); strings.Join(got, ";") != want {
		t.Errorf("fail-on never, one required absent: %v, want %s", got, want)
	}
	if got := reasons(FailOn{}, "rt@*swiftshader*", "rt 1@google*", "./rt@*"); len(got) != 0 {
		t.Errorf("fail-on never, the implementation there on the device required: %v", got)
	}
	want := fmt.Sprintf("%d rt 0/0;on [Google SwiftShader Device], not \"*NVIDIA*\"", model.ReasonRequiredAbsent)
	if got := reasons(FailOn{}, "rt@*NVIDIA*"); strings.Join(got, ";") != want {
		t.Errorf("fail-on never, the implementation there on another device: %v, want %s", got, want)
	}
}
