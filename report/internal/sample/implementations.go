package sample

import (
	"fmt"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// WithImplementations returns the sample run with three implementations
// run through its fixtures by the runtime harness: one that fails a
// verdict and a readback reply, one with hostile text in everything it
// says and a crash, and one that could not be started. They are given
// worst first, so that a report that ranks them best first must reorder.
func WithImplementations() *model.Run {
	run := Run()
	var fixtures []model.Result
	for _, r := range run.Results {
		if !r.IsCorpusError() {
			fixtures = append(fixtures, r)
		}
	}
	// judged answers every fixture as it expects, except as told.
	judged := func(wrong map[string]model.Actual) []model.Result {
		var out []model.Result
		for _, f := range fixtures {
			r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class,
				Expected: f.Expected, Duration: time.Millisecond}
			if a, bad := wrong[f.RelPath]; bad {
				r.Actual = a
				r.Span = &model.Span{Line: 3, Column: 5, EndLine: 3, EndColumn: 30}
				r.Reason = f.Reason
			} else {
				r.Passed = true
				r.Actual = model.Actual{Outcome: model.Outcome(f.Expected.Outcome), Phase: model.Phase(f.Expected.Phase),
					Code: f.Expected.Code, CommandIndex: f.Expected.CommandIndex}
			}
			out = append(out, r)
		}
		return out
	}
	broken := model.Implementation{Command: "./no-such-runtime --adapter",
		Error: "handshake: it exited (status 127) while the harness was reading its answer", Stderr: "./no-such-runtime: not found\n"}
	for _, f := range fixtures {
		broken.Results = append(broken.Results, model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name,
			Class: f.Class, Expected: f.Expected,
			Actual: model.Actual{Outcome: model.HarnessError, Message: "not run: the implementation could not be started: " + broken.Error}})
	}
	hostile := model.Implementation{Command: "python3 " + Hostile, Name: Hostile, Version: Hostile,
		DRP2Versions: []string{"2.0"}, Restarts: 1, Stderr: "Traceback (most recent call last):\n" + Hostile + "\n",
		Results: judged(map[string]model.Actual{
			"negative/draw_outside_pass.json": {Outcome: model.HarnessError, Message: "it exited (status 1) while the harness was reading its answer"},
			"positive/minimal_triangle.json": {Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_" + Hostile,
				CommandIndex: intp(2), Message: Hostile},
		})}
	hostile.Results[0].Diagnostics = []model.Diagnostic{{Source: "stderr", Message: Hostile}}
	native := model.Implementation{Command: "./bin/native-runtime --drp2-adapter", Name: "native-vk", Version: "2.0.1",
		DRP2Versions: []string{"2.0"}, Executes: true,
		Results: judged(map[string]model.Actual{
			"negative/destroy_twice.json": {Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_STATE", CommandIndex: intp(4)},
			"positive/texture_upload.json": {Outcome: model.Success, Rule: "CONFORMANCE.md Level 2 rule 2",
				Message: "Level 2: reply 1 of 1 (for the QueueSubmit at command 7), readback 0: data holds 12 bytes; size is 16"},
		}),
		Level2: map[string]bool{"positive/minimal_triangle.json": true, "positive/texture_upload.json": false}}
	run.Implementations = []model.Implementation{broken, hostile, native}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		im.Summary = model.Summarize(run.Summary.Discovered, im.Results, nil)
		im.Duration = time.Duration(i+1) * 10 * time.Millisecond
	}
	return run
}

// ManyImplementations returns a large run with n implementations, each
// failing a different share of the fixtures, for the size caps.
func ManyImplementations(fixtures, n int) *model.Run {
	run := Large(fixtures)
	for k := 0; k < n; k++ {
		im := model.Implementation{Command: fmt.Sprintf("./runtime-%02d", k), Name: fmt.Sprintf("runtime-%02d %s", k, Hostile), Version: "1.0"}
		for i, f := range run.Results {
			r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class, Expected: f.Expected,
				Actual: model.Actual{Outcome: model.Success}, Passed: i%(k+2) != 0}
			if !r.Passed {
				r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", Message: Hostile}
			}
			im.Results = append(im.Results, r)
		}
		im.Summary = model.Summarize(fixtures, im.Results, nil)
		run.Implementations = append(run.Implementations, im)
	}
	return run
}
