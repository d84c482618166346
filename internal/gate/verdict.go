package gate

import (
	"slices"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// judge is the verdict on an outcome under the job's fail-on, computed in
// this one place: every condition that fails the run is a typed reason,
// which report/explain words; the gate writes no sentence.
func judge(o *Outcome, job job) *model.Judgement {
	run := o.Run
	s := run.Summary
	var why []model.Reason
	if in := run.Interrupted; in != nil {
		// Whatever fail-on says: the fixtures that did not run are not
		// judged, and a run that judged a part never passes the whole.
		why = append(why, model.Reason{Kind: model.ReasonInterrupted, Subject: in.Signal, Count: in.Done, Of: in.Of})
	}
	if job.FailOn.Empty && s.Run == 0 {
		why = append(why, noneRan(run, job))
	}
	if job.FailOn.Mismatch && s.Unexcused() > 0 {
		why = append(why, model.Reason{Kind: model.ReasonMismatches, Count: s.Unexcused(), Of: s.Run})
	}
	why = append(why, implementationReasons(run, job)...)
	why = append(why, coverageReasons(run, job)...)
	why = append(why, expectationReasons(run, job)...)
	why = append(why, regressionReasons(run, job)...)
	if job.FailOn.Findings && s.Findings > 0 {
		why = append(why, model.Reason{Kind: model.ReasonFindings, Count: s.Findings})
	}
	why = append(why, o.Manifest.reasons()...)
	if o.Err != nil && exit.KindOf(o.Err) != exit.Interrupted {
		// The tool's own trouble, exit code 2 or 3: said, not judged.
		why = append(why, model.Reason{Kind: model.ReasonIncomplete})
	}
	j := &model.Judgement{Failed: len(why) > 0, Reasons: why, FailOn: job.FailOn.String(),
		Embedded:       run.CorpusRoot == runner.Embedded && !job.mergeOnly,
		CorpusSearched: job.RequireCorpus && run.CorpusSearch != nil}
	if !job.FailOn.Findings {
		j.Findings = s.Findings
	}
	return j
}

// noneRan is why no fixture ran: the corpus, and the filters actually
// given, as the user spelled them.
func noneRan(run *model.Run, job job) model.Reason {
	r := model.Reason{Kind: model.ReasonNoneRan, Subject: run.CorpusRoot, Of: run.Summary.Discovered}
	sp := job.Spelling
	if job.Name != "" {
		r.Filters = append(r.Filters, model.Filter{Spelling: sp.Name, Values: []string{job.Name}, Quoted: true})
	}
	if len(job.Tags) > 0 {
		tags := append([]string(nil), job.Tags...)
		sort.Strings(tags)
		r.Filters = append(r.Filters, model.Filter{Spelling: sp.Tag, Values: tags})
	}
	if len(job.Paths) > 0 {
		r.Filters = append(r.Filters, model.Filter{Spelling: sp.Paths, Values: job.Paths})
	}
	return r
}

// implementationReasons say which implementations fail the run: one with
// a failing fixture, or one that could not be used; under fail-on level3,
// every readback whose bytes differ across them.
func implementationReasons(run *model.Run, job job) []model.Reason {
	var why []model.Reason
	if job.FailOn.Level3 {
		for _, row := range model.Parity(run) {
			if !row.Agree() {
				why = append(why, model.Reason{Kind: model.ReasonLevel3, Readback: row.Readback, Subject: row.Path, Detail: paritySources(row)})
			}
		}
		why = append(why, imageReasons(run)...)
	}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		switch {
		case !job.FailOn.Mismatch:
			// The run named the device with --expect-adapter: one on
			// another fails it whatever fail-on says, as a required
			// implementation absent does.
			if im.Error != "" && job.ExpectAdapter != "" && !model.Glob(job.ExpectAdapter, im.Adapter.Description()) {
				why = append(why, model.Reason{Kind: model.ReasonUnusable, Subject: im.Label(), Detail: im.Error})
			}
		case im.Error != "":
			why = append(why, model.Reason{Kind: model.ReasonUnusable, Subject: im.Label(), Detail: im.Error})
		case im.Summary.Unexcused() > 0:
			// Of the fixtures it claims and is sent, as the matrix counts
			// them; failures its expectations excuse fail nothing.
			why = append(why, model.Reason{Kind: model.ReasonImplementationFailed, Subject: im.Label(), Count: im.Summary.Unexcused(),
				Of: im.Summary.Run - im.Summary.NotClaimed - im.Summary.Skipped})
		}
	}
	return why
}

// coverageReasons say which implementations did not report the whole
// selection (the fixtures the validator judged, corpus errors aside, which
// no implementation is sent): a report, or a shard's, that leaves out a
// result it holds against the implementation, or a report of a run of
// nothing, would otherwise pass by what it does not say. An
// implementation the run requires and no report holds fails it whatever
// fail-on says, since the workflow asked for it by name.
func coverageReasons(run *model.Run, job job) []model.Reason {
	var why []model.Reason
	if job.FailOn.Mismatch || job.FailOn.Regressions {
		selected := map[string]bool{}
		for i := range run.Results {
			if !run.Results[i].IsCorpusError() {
				selected[run.Results[i].RelPath] = true
			}
		}
		for i := range run.Implementations {
			im := &run.Implementations[i]
			reported := map[string]bool{}
			for j := range im.Results {
				if selected[im.Results[j].RelPath] {
					reported[im.Results[j].RelPath] = true
				}
			}
			if missing := len(selected) - len(reported); missing > 0 {
				why = append(why, model.Reason{Kind: model.ReasonUnreported, Subject: im.Label(), Count: missing, Of: len(selected)})
			}
		}
	}
	for _, req := range job.Require {
		if !slices.ContainsFunc(run.Implementations, func(im model.Implementation) bool { return req.MetBy(&im) }) {
			why = append(why, model.Reason{Kind: model.ReasonRequiredAbsent, Subject: req.Name, Detail: req.Device,
				Devices: devicesOf(run, req.Name)})
		}
	}
	return why
}

// devicesOf are the devices the implementation name reported from, as
// their adapters described them ("" for none), each once in report order,
// for a requirement of another device to say what came instead.
func devicesOf(run *model.Run, name string) []string {
	var devices []string
	anyDevice := model.Requirement{Name: name}
	for i := range run.Implementations {
		if im := &run.Implementations[i]; anyDevice.MetBy(im) && !slices.Contains(devices, im.Adapter.Description()) {
			devices = append(devices, im.Adapter.Description())
		}
	}
	return devices
}

// expectationReasons are the reasons fail-on unexpected-pass and fail-on
// flaky fail a run: per implementation, the built-in validator first,
// its unexpected passes and its flaky fixtures.
func expectationReasons(run *model.Run, job job) []model.Reason {
	if !job.FailOn.UnexpectedPass && !job.FailOn.Flaky {
		return nil
	}
	var why []model.Reason
	add := func(subject string, s *model.Summary) {
		if job.FailOn.UnexpectedPass && s.UnexpectedPasses > 0 {
			why = append(why, model.Reason{Kind: model.ReasonUnexpectedPasses, Subject: subject, Count: s.UnexpectedPasses})
		}
		if job.FailOn.Flaky && s.Flaky > 0 {
			why = append(why, model.Reason{Kind: model.ReasonFlaky, Subject: subject, Count: s.Flaky})
		}
	}
	add(model.Validator, &run.Summary)
	for i := range run.Implementations {
		add(run.Implementations[i].Label(), &run.Implementations[i].Summary)
	}
	return why
}

// imageReasons are the images that fail Level 3, implementation by
// implementation in report order: each names the bound it exceeded, or
// what kept it from comparison.
func imageReasons(run *model.Run) []model.Reason {
	var why []model.Reason
	for i := range run.Implementations {
		im := &run.Implementations[i]
		for j := range im.Images {
			if c := &im.Images[j]; c.Verdict.Fails() {
				why = append(why, model.Reason{Kind: model.ReasonImage, Implementation: im.Label(), Subject: c.Path,
					Readback: c.Readback, Image: c})
			}
		}
	}
	return why
}

// paritySources names the groups of a parity row: "a, b | c".
func paritySources(row model.ParityRow) string {
	var groups []string
	for _, g := range row.Groups {
		groups = append(groups, strings.Join(g.Sources, ", "))
	}
	return strings.Join(groups, " | ")
}

// regressionReasons are the reasons fail-on regressions fails a run: a
// fixture that passed on the base fails now, unless the known-failures
// list excuses it. With no comparison to judge by, every unexcused failure
// counts, so that a shallow checkout cannot turn the gate off.
func regressionReasons(run *model.Run, job job) []model.Reason {
	if !job.FailOn.Regressions {
		return nil
	}
	c := run.Comparison
	if c == nil || c.Unavailable != "" {
		if n := run.Summary.Unexcused(); n > 0 && !job.FailOn.Mismatch {
			return []model.Reason{{Kind: model.ReasonNoComparison, Count: n, Of: run.Summary.Run}}
		}
		return nil
	}
	regressed, added := regressions(run)
	var why []model.Reason
	if regressed > 0 {
		why = append(why, model.Reason{Kind: model.ReasonRegressed, Count: regressed, Subject: c.Base})
	}
	if added > 0 {
		why = append(why, model.Reason{Kind: model.ReasonAddedFailing, Count: added, Subject: c.Base})
	}
	// Each implementation judged against itself on the base, as the
	// validator's results are.
	for _, d := range c.Implementations {
		if d.NewFailures() > 0 {
			why = append(why, model.Reason{Kind: model.ReasonImplementationRegressed, Subject: d.Label,
				Count: len(d.Regressed), Of: len(d.AddedFailing), Detail: c.Base})
		}
	}
	return why
}

// regressions counts the fixtures that fail now and did not on the base,
// by model.NewFailures, the one regression rule: those that regressed and
// those added failing.
func regressions(run *model.Run) (regressed, added int) {
	for _, v := range model.NewFailures(run) {
		if v == model.Regressed {
			regressed++
		} else {
			added++
		}
	}
	return regressed, added
}
