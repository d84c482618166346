package drp2

// Rule coverage: which rules of the implemented DRP2 contract a corpus
// exercises: per rule, the negative fixtures that fail by it and the
// positive fixtures whose streams pass through its check.
//
// The checker names the rule of every verdict (model.Actual.Rule) and,
// when traced, each rule whose check a stream passed through.
// CoverageCounter wraps a traced checker for a run and remembers the
// traces of valid streams; CountCoverage then attributes them to the
// positive fixtures of the run.

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/drp2/drp2-fixtures/model"
)

// Tracer is the DRP2 checker as the runner calls it (runner.Checker): the
// check of one stream with its findings, calling trace with the ID of each
// rule whose check the stream reaches. It must be safe for concurrent use.
type Tracer interface {
	Check(ctx context.Context, s model.Stream, trace func(rule string)) (*model.Failure, []model.Finding)
}

// CoverageCounter is a runner Checker that records, for every stream the checker
// finds valid, the rules it passed through. It is safe for concurrent use,
// as the runner requires.
type CoverageCounter struct {
	tracer Tracer
	mu     sync.Mutex
	// valid maps the corpus path of each valid stream (model.Stream.Path)
	// to the rules it passed through.
	valid map[string]map[string]bool
}

// NewCoverageCounter wraps a tracer.
func NewCoverageCounter(t Tracer) *CoverageCounter {
	return &CoverageCounter{tracer: t, valid: map[string]map[string]bool{}}
}

// Check runs the traced check, passing each rule on to trace too, and
// keeps the trace of a valid stream; the verdict and findings are the
// tracer's.
func (c *CoverageCounter) Check(ctx context.Context, s model.Stream, trace func(rule string)) (*model.Failure, []model.Finding) {
	seen := map[string]bool{}
	f, findings := c.tracer.Check(ctx, s, func(rule string) {
		seen[rule] = true
		if trace != nil {
			trace(rule)
		}
	})
	if f == nil {
		c.mu.Lock()
		c.valid[s.Path] = seen
		c.mu.Unlock()
	}
	return f, findings
}

// CountCoverage builds the coverage of a run made with counter as its checker.
// Its rules list those without a negative fixture first, then the rest,
// then those that never fail a stream, each group in the checker's rule
// order (rules is that order).
func CountCoverage(rules []RuleInfo, run *model.Run, counter *CoverageCounter) (*model.Coverage, error) {
	rep := &model.Coverage{}
	byID := map[string]*model.RuleCoverage{}
	list := make([]*model.RuleCoverage, 0, len(rules))
	for _, r := range rules {
		if _, dup := byID[r.ID]; dup {
			continue
		}
		rc := &model.RuleCoverage{ID: r.ID, Code: r.Code, Summary: r.Summary, FindingOnly: r.Code == ""}
		byID[r.ID] = rc
		list = append(list, rc)
	}
	get := func(id string) *model.RuleCoverage {
		if rc, ok := byID[id]; ok {
			return rc
		}
		rc := &model.RuleCoverage{ID: id, Unlisted: true}
		byID[id] = rc
		list = append(list, rc)
		return rc
	}
	for i := range run.Results {
		r := &run.Results[i]
		if !r.Passed {
			rep.NotCounted++
			continue
		}
		switch r.Class {
		case model.ClassNegative:
			rep.NegativeFixtures++
			if r.Actual.Rule == "" {
				rep.NoRule = append(rep.NoRule, r.Path)
				continue
			}
			rc := get(r.Actual.Rule)
			rc.NegativeFixtures = append(rc.NegativeFixtures, r.Path)
		case model.ClassPositive:
			rules, err := counter.rulesOf(r.RelPath)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Path, err)
			}
			rep.PositiveFixtures++
			for _, id := range rules {
				get(id).Positive++
			}
		}
	}
	// Unlisted rules go by name after the listed ones: their order is
	// otherwise the order fixtures met them in.
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Unlisted != list[j].Unlisted {
			return !list[i].Unlisted
		}
		return list[i].Unlisted && list[i].ID < list[j].ID
	})
	for _, rc := range list {
		rc.Negative = len(rc.NegativeFixtures)
		if rc.NegativeFixtures == nil {
			rc.NegativeFixtures = []string{}
		}
	}
	for _, g := range []model.RuleGroup{model.RulesUncovered, model.RulesCovered, model.RulesFindingOnly} {
		for _, rc := range list {
			if rc.Group() == g {
				rep.Rules = append(rep.Rules, *rc)
			}
		}
	}
	for i := range rep.Rules {
		if rep.Rules[i].Group() == model.RulesUncovered {
			rep.Uncovered++
		}
	}
	return rep, nil
}

// rulesOf returns the rules a passing positive fixture's stream passed
// through.
func (c *CoverageCounter) rulesOf(rel string) ([]string, error) {
	c.mu.Lock()
	seen, ok := c.valid[rel]
	c.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("the stream is not among those the checker found valid: was the run made without this counter?")
	}
	out := make([]string, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Strings(out)
	return out, nil
}
