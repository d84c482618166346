package junit

import (
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// typeFreeze marks a change that breaks a frozen manifest; typeUnclean
// any other difference, which fails the run under --check-clean.
const (
	typeFreeze  = "frozen_manifest"
	typeUnclean = "manifest_difference"
)

// manifestSuite is the manifest comparison as a suite named "manifest":
// one testcase per difference (schema, version, fixture), failing where it
// fails the run (it breaks the freeze, or any difference under
// --check-clean), or a single passing testcase when the corpus matches.
// Its properties say which manifest and what it records.
func manifestSuite(m *model.ManifestCheck, id int) xmlSuite {
	suite := xmlSuite{Name: "manifest", ID: id}
	add := func(name string, violation bool, message string) {
		tc := testcase{Name: clean(escape.OneLine(name)), Classname: "manifest", Time: seconds(0)}
		switch {
		case violation:
			tc.Failure = &result{Type: typeFreeze,
				Message: clean(escape.Visible(escape.OneLine(name + ": " + message + " breaks the freeze of DRP2 " + m.DRP2Version))),
				Data:    clean(escape.Visible(m.Headline))}
		case m.CheckClean:
			tc.Failure = &result{Type: typeUnclean,
				Message: clean(escape.Visible(escape.OneLine(name + " differs from the manifest " + m.Path + " (" + message + "); --check-clean fails on any difference"))),
				Data:    clean(escape.Visible(m.Headline))}
		}
		suite.addTestcase(tc)
	}
	if m.Clean() {
		suite.addTestcase(testcase{Name: "the corpus matches its manifest", Classname: "manifest", Time: seconds(0)})
	}
	for _, s := range m.Schemas {
		add(s.Which+" schema", s.Violation, s.RecordedPath+" (sha256 "+model.ShortSum(s.RecordedSHA256)+") → "+s.CurrentPath+" (sha256 "+model.ShortSum(s.CurrentSHA256)+")")
	}
	if m.CurrentVersion != "" {
		add("DRP2 version", m.Frozen, m.DRP2Version+" → "+m.CurrentVersion)
	}
	for i := range m.Changes {
		ch := &m.Changes[i]
		add(ch.Path, ch.Violation, ch.Description)
	}
	suite.Time = seconds(0)
	p := []property{
		{Name: "drp2.manifest.path", Value: clean(m.Path)},
		{Name: "drp2.manifest.drp2_version", Value: clean(m.DRP2Version)},
		{Name: "drp2.manifest.frozen", Value: strconv.FormatBool(m.Frozen)},
		{Name: "drp2.manifest.unchanged", Value: strconv.Itoa(m.Unchanged)},
		{Name: "drp2.manifest.violations", Value: strconv.Itoa(m.Violations)},
		{Name: "drp2.manifest.check_clean", Value: strconv.FormatBool(m.CheckClean)},
		{Name: "drp2.manifest.headline", Value: clean(m.Headline)},
	}
	suite.Properties = &p
	return suite
}

// coverageProperties are the rule coverage as properties of the run: the
// counts, and each rule that can fail a stream but has no negative
// fixture. Coverage passes or fails nothing, so it is no testcase.
func coverageProperties(c *model.Coverage) []property {
	if c == nil {
		return nil
	}
	p := []property{
		{Name: "drp2.coverage.headline", Value: clean(explain.CoverageHeadline(c))},
		{Name: "drp2.coverage.rules", Value: strconv.Itoa(len(c.Rules))},
		{Name: "drp2.coverage.uncovered", Value: strconv.Itoa(c.Uncovered)},
		{Name: "drp2.coverage.positive_fixtures", Value: strconv.Itoa(c.PositiveFixtures)},
		{Name: "drp2.coverage.negative_fixtures", Value: strconv.Itoa(c.NegativeFixtures)},
		{Name: "drp2.coverage.not_counted", Value: strconv.Itoa(c.NotCounted)},
	}
	for i := range c.Rules {
		if rc := &c.Rules[i]; rc.Group() == model.RulesUncovered {
			p = append(p, property{Name: "drp2.coverage.uncovered_rule", Value: clean(rc.ID)})
		}
	}
	return p
}
