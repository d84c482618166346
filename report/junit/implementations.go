package junit

import (
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// implementationSuites returns one suite per implementation of the runtime
// harness, in the run's order, after the suites of the run's own classes:
// its testcases are the fixtures, its properties say who it is, and its
// system-err holds the tail of its stderr.
func implementationSuites(run *model.Run, props []property, firstID int, strict bool) []xmlSuite {
	var out []xmlSuite
	for i := range run.Implementations {
		im := &run.Implementations[i]
		suite := xmlSuite{Name: clean(escape.OneLine("implementation: " + im.Label())), ID: firstID + i}
		var total time.Duration
		// Capped by the gate (internal/bound), like a fixture's words.
		for j := range im.Results {
			r := &im.Results[j]
			total += r.Duration
			suite.addTestcase(caseOf(r, "", strict))
		}
		suite.Time = seconds(total)
		if !run.Started.IsZero() {
			suite.Timestamp = run.Started.UTC().Format(time.RFC3339)
		}
		// The run's evidence goes on the first suite only; each
		// implementation's suite says who it is.
		var p []property
		if i == 0 {
			p = append(p, props...)
		}
		add := func(name, value string) {
			if value != "" {
				p = append(p, property{Name: clean(name), Value: clean(value)})
			}
		}
		checked, passed := im.Level2Counts()
		add("drp2.implementation.command", im.Command)
		add("drp2.implementation.name", im.Name)
		add("drp2.implementation.version", im.Version)
		add("drp2.implementation.drp2_versions", strings.Join(im.DRP2Versions, ","))
		add("drp2.implementation.executes", strconv.FormatBool(im.Executes))
		add("drp2.implementation.error", im.Error)
		add("drp2.implementation.restarts", strconv.Itoa(im.Restarts))
		add("drp2.implementation.phases", strings.Join(im.Phases, ","))
		add("drp2.implementation.adapter", explain.Adapter(im.Adapter))
		if im.Executes {
			add("drp2.implementation.level2_checked", strconv.Itoa(checked))
			add("drp2.implementation.level2_passed", strconv.Itoa(passed))
		}
		suite.Properties = &p
		if im.Stderr != "" {
			suite.SystemErr = &output{Data: clean(im.Stderr)}
		}
		out = append(out, suite)
	}
	return out
}
