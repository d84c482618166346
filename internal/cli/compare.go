package cli

// The comparison with a baseline and the known-failures list: loaded in
// resolve, applied in execute, judged in verdict.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/knownfail"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// resolveComparison checks the baseline and fail-on together and loads
// the known-failures list, relative to the working directory.
func resolveComparison(job Job, wd string) (*knownfail.List, error) {
	if job.FailOn.Regressions && (job.Baseline == "" || job.Baseline == baseline.Off) {
		return nil, usageErrorf("fail-on regressions needs a baseline to compare with (auto, a folder or a JSON report)")
	}
	if job.KnownFailures == "" {
		return nil, nil
	}
	data, err := workspace.New(wd, job.Contained).ReadFile(job.KnownFailures, workspace.MaxInputFile)
	if err != nil {
		return nil, usageErrorf("known failures: %v", err)
	}
	l, err := knownfail.Parse(bytes.NewReader(data), job.KnownFailures)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return l, nil
}

// compare applies the known-failures list, then compares the run with
// its baseline. A baseline that cannot be had for a reason that must not
// stop the run (a shallow checkout) leaves run.Comparison saying why.
func compare(ctx context.Context, r resolved, run *model.Run) error {
	r.known.Apply(run)
	c, err := baseline.For(ctx, baseline.Options{Spec: r.Baseline, Config: r.config, Getenv: r.getenv}, run)
	if errors.Is(err, baseline.ErrInput) {
		return usageErrorf("%v", err)
	}
	if err != nil {
		return err
	}
	run.Comparison = c
	return nil
}

// regressionReasons are the reasons fail-on regressions fails a run: a
// fixture that passed on the base fails now, unless the known-failures
// list excuses it. With no comparison to judge by, every unexcused failure
// counts, so that a shallow checkout cannot turn the gate off.
func regressionReasons(run *model.Run, job Job) []string {
	if !job.FailOn.Regressions {
		return nil
	}
	c := run.Comparison
	if c == nil || c.Unavailable != "" {
		if n := run.Summary.Unexcused(); n > 0 && !job.FailOn.Mismatch {
			return []string{fmt.Sprintf("%d of %d fixtures failed, and with no comparison with the base every failure counts as a regression", n, run.Summary.Run)}
		}
		return nil
	}
	known := map[string]bool{}
	for i := range run.Results {
		if r := &run.Results[i]; r.KnownFailure != "" {
			known[r.RelPath] = true
		}
	}
	// A fixture added failing counts too: it is a failure the base did not
	// have, and renaming a passing fixture while breaking it would
	// otherwise slip through as "removed" and "added".
	var regressed, added int
	for i := range c.Changes {
		ch := &c.Changes[i]
		if known[ch.RelPath] {
			continue
		}
		switch ch.Verdict {
		case model.Regressed:
			regressed++
		case model.AddedFailing:
			added++
		}
	}
	var why []string
	if regressed > 0 {
		why = append(why, fmt.Sprintf("%d %s passed on base %s and %s now", regressed, explain.Plural(regressed, "fixture", "fixtures"), c.Base, explain.Plural(regressed, "fails", "fail")))
	}
	if added > 0 {
		why = append(why, fmt.Sprintf("%d %s not on base %s %s", added, explain.Plural(added, "fixture", "fixtures"), c.Base, explain.Plural(added, "fails", "fail")))
	}
	return why
}

func knownNote(s model.Summary) string {
	if s.KnownFailures == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d known %s, excused)", s.KnownFailures, explain.Plural(s.KnownFailures, "failure", "failures"))
}

// checkConclusion is the check run's conclusion: failure when the run fails by
// fail-on, or when a fixture fails that neither the known-failures list
// nor fail-on regressions excuses.
func checkConclusion(run *model.Run, job Job, code int) string {
	if code != ExitOK {
		return "failure"
	}
	if run.Summary.Unexcused() > 0 && !job.FailOn.Regressions {
		return "failure"
	}
	if job.FailOn.Empty && run.Summary.Run == 0 {
		return "failure"
	}
	return "success"
}

// comparisonOutputs are the step outputs of the comparison, empty when
// there is none.
func comparisonOutputs(c *model.Comparison) []output {
	count := func(n int) string {
		if c == nil || c.Unavailable != "" {
			return ""
		}
		return strconv.Itoa(n)
	}
	var d model.Delta
	if c != nil {
		d = c.Delta()
	}
	return []output{
		{"regressed", count(d.Regressed)},
		{"fixed", count(d.Fixed)},
		{"added", count(d.Added())},
		{"removed", count(d.Removed)},
		{"expectation-changed", count(d.ExpectationChanged)},
		{"broken", count(d.Broken)},
	}
}

// withoutBaseIdentity is run with its comparison's base commit left out:
// a base branch that moved on gives the same result key, so comment:
// changes rewrites the comment only when the delta or the result changed.
func withoutBaseIdentity(run *model.Run) *model.Run {
	if run.Comparison == nil {
		return run
	}
	c := *run.Comparison
	c.Base, c.Commit = "", ""
	r := *run
	r.Comparison = &c
	return &r
}
