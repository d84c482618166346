// Package junit writes a run as JUnit XML: one testsuite per fixture class,
// one testcase per fixture, each shown as explain.Show maps the verdict's
// kind of result: a mismatch is a <failure> (of type regression when the
// base did not fail it), an unusable fixture an <error>, a known failure a
// <skipped> with its reason, since it fails nothing. Each testcase is
// placed in the repository (file, and line when it fails) for the
// test-report actions that read those attributes; without them (Strict)
// the output validates against the two common JUnit schemas (Jenkins xunit
// junit-10.xsd and junit-4.xsd), which also rule out a skipped count on
// <testsuites> and status.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Property is an extra suite property supplied by the caller, such as the
// GitHub repository, commit, ref, run id and attempt.
type Property struct{ Name, Value string }

// GitHubProperties returns the run evidence GitHub Actions provides
// (repository, commit, ref, run id and attempt, workflow) as suite
// properties, read through getenv; none outside Actions.
func GitHubProperties(getenv func(string) string) []Property {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	var props []Property
	for _, p := range []struct{ name, env string }{
		{"github.repository", "GITHUB_REPOSITORY"},
		{"github.sha", "GITHUB_SHA"},
		{"github.ref", "GITHUB_REF"},
		{"github.run_id", "GITHUB_RUN_ID"},
		{"github.run_attempt", "GITHUB_RUN_ATTEMPT"},
		{"github.workflow", "GITHUB_WORKFLOW"},
	} {
		if v := getenv(p.env); v != "" {
			props = append(props, Property{Name: p.name, Value: v})
		}
	}
	return props
}

// Options tunes the report.
type Options struct {
	// Properties are added to every suite after the run's own evidence.
	Properties []Property
	// Strict leaves out the file and line attributes of testcases, which
	// neither common JUnit schema allows, for consumers that validate
	// against them (Jenkins' xunit plugin). By default a testcase carries
	// its fixture's repository-relative path and, when it fails, the line
	// of the failing member: test-report actions place their annotations
	// there.
	Strict bool
}

// typeCorpusError names the suite of the fixtures whose expected block
// could not be read. The failure and error types of testcases are
// explain.Show's, the one mapping of kinds of results to what sinks show.
const typeCorpusError = "corpus_error"

// Write renders run as JUnit XML to w: a suite per class (corpus errors
// first), then the implementations' and the manifest's.
func Write(w io.Writer, run *model.Run, opts Options) error {
	if run == nil {
		return fmt.Errorf("write junit: no run")
	}
	suites := xmlSuites{
		Name: "drp2-fixtures",
		Time: seconds(run.Duration),
	}
	props := append(properties(run, opts), coverageProperties(run.Coverage)...)
	findings, loose := splitFindings(run)
	regressed := model.NewFailures(run)
	// Corpus errors first: a file the change broke is the likeliest
	// cause of red.
	order := append([]model.Class{model.ClassUnknown}, model.Classes[:len(model.Classes)-1]...)
	for _, class := range order {
		suite := classSuite(run, class, len(suites.Suites), regressed, findings, opts.Strict)
		if suite.Tests == 0 {
			continue
		}
		// junit-4.xsd requires at least one <property> inside
		// <properties>, so an empty list must be left out entirely. The
		// run's evidence is the same for every suite: it goes on the
		// first one only (<testsuites> holds no properties).
		if len(props) > 0 && len(suites.Suites) == 0 {
			p := append([]property(nil), props...)
			suite.Properties = &p
		}
		if len(suites.Suites) == 0 && len(loose) > 0 {
			suite.SystemOut = &output{Data: warnings(loose)}
		}
		suites.addSuite(suite)
	}
	if len(suites.Suites) > 0 {
		props = nil // already on the first suite
	}
	for _, s := range otherSuites(run, props, len(suites.Suites), opts.Strict) {
		suites.addSuite(s)
	}
	if in := run.Interrupted; in != nil {
		suites.addSuite(interruptedSuite(in, len(suites.Suites)))
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	if err := suites.writeXML(w); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

// interruptedSuite is the suite of a run a signal stopped: one testcase in
// error, which says so, since the report's other testcases are those of
// the fixtures that ran and would read as a whole run that passed.
func interruptedSuite(in *model.Interruption, id int) xmlSuite {
	reason := explain.Interrupted(in)
	suite := xmlSuite{Name: "interrupted", ID: id, Time: seconds(0)}
	suite.addTestcase(testcase{Name: "the run", Classname: "interrupted", Time: seconds(0),
		Error: &result{Type: "interrupted", Message: clean(escape.OneLine(reason)), Data: clean(reason)}})
	return suite
}

// splitFindings sorts the findings, which are warnings: each goes to the
// system-out of its fixture's testcase (by path), and those about files
// that were not run (loose) to the first suite.
func splitFindings(run *model.Run) (byPath map[string][]model.Finding, loose []model.Finding) {
	byPath = map[string][]model.Finding{}
	ran := map[string]bool{}
	for i := range run.Results {
		ran[run.Results[i].Path] = true
	}
	for _, f := range run.Findings {
		if ran[f.Path] {
			byPath[f.Path] = append(byPath[f.Path], f)
		} else {
			loose = append(loose, f)
		}
	}
	return byPath, loose
}

// classSuite is the suite of one class's fixtures, with the id given; it
// has no tests when the run has no fixture of the class.
func classSuite(run *model.Run, class model.Class, id int, regressed map[string]model.Transition, findings map[string][]model.Finding, strict bool) xmlSuite {
	suite := xmlSuite{Name: suiteName(class), ID: id}
	var total time.Duration
	for i := range run.Results {
		r := &run.Results[i]
		if r.Class != class {
			continue
		}
		total += r.Duration
		tc := caseOf(r, regressed[r.RelPath], strict)
		if fs := findings[r.Path]; len(fs) > 0 {
			// Output, not an error: a viewer shows a passing fixture
			// with a finding as passed.
			if tc.SystemOut != nil {
				tc.SystemOut.Data += "\n" + warnings(fs)
			} else {
				tc.SystemOut = &output{Data: warnings(fs)}
			}
		}
		suite.addTestcase(tc)
	}
	suite.Time = seconds(total)
	if !run.Started.IsZero() {
		suite.Timestamp = run.Started.UTC().Format(time.RFC3339)
	}
	return suite
}

// otherSuites are the suites after the classes': one per implementation,
// then the manifest's. The run's evidence (props, when no class suite took
// it) goes on the first of them.
func otherSuites(run *model.Run, props []property, firstID int, strict bool) []xmlSuite {
	out := implementationSuites(run, props, firstID, strict)
	out = append(out, imageSuites(run, firstID+len(out))...)
	if len(out) > 0 {
		props = nil
	}
	if run.Manifest != nil {
		s := manifestSuite(run.Manifest, firstID+len(out))
		if !run.Started.IsZero() {
			s.Timestamp = run.Started.UTC().Format(time.RFC3339)
		}
		if len(props) > 0 {
			p := append(append([]property(nil), props...), *s.Properties...)
			s.Properties = &p
		}
		out = append(out, s)
	}
	return out
}

// caseOf is a result's testcase, as explain.Show maps its kind (v: how it
// newly fails against the base, "" when it does not), placed in the
// repository unless strict.
func caseOf(r *model.Result, v model.Transition, strict bool) testcase {
	tc := testcase{
		Name:      clean(escape.OneLine(explain.Name(r))),
		Classname: clean(classname(r)),
		Time:      seconds(r.Duration),
	}
	show := explain.ShowResult(r, v)
	if !strict {
		place(&tc, r, show.JUnit != "" && r.Actual.Outcome != model.NotClaimed)
	}
	// The headline once, in the message; the body has the rest.
	// Test-report actions show these as annotations and summaries: the
	// invisible characters in them are named, as everywhere people read.
	headline := explain.Headline(r)
	if show.New {
		headline = show.Word + ": " + headline
	}
	body := explain.Body(r)
	if r.DetailLeftOut {
		body = explain.LeftOutBody
	}
	switch show.JUnit {
	case "":
		// A pass the expectations have something to say of: a flaky
		// fixture's attempts, a stale entry.
		if note := passNote(r); note != "" {
			tc.SystemOut = &output{Data: clean(escape.Visible(note))}
		}
	case "skipped":
		// Neither passed nor failed: a known failure says its reason and
		// what happened, a result not claimed why.
		tc.Skipped = &output{Data: clean(escape.Visible(skippedText(r)))}
	case "error":
		tc.Error = &result{Message: clean(escape.Visible(headline)), Type: show.JUnitType, Data: clean(escape.Visible(body))}
	default:
		tc.Failure = &result{Message: clean(escape.Visible(headline)), Type: show.JUnitType, Data: clean(escape.Visible(body))}
	}
	return tc
}

// place sets the testcase's file to the result's path when that names a
// file of the repository, and, for a result shown as not passing (failing),
// its line to where the result's annotation stands: the failing member's.
// EnricoMi/publish-unit-test-result-action and mikepenz/action-junit-report
// annotate that file and line; without them, the folder at line 0.
func place(tc *testcase, r *model.Result, failing bool) {
	file := explain.FilePath(explain.DisplayPath(r))
	if !inRepository(file) {
		return
	}
	tc.File = clean(file)
	if failing {
		tc.Line = explain.StartLine(r.Span)
	}
}

// inRepository says whether a slash path can name a file of the
// repository: relative, not above it, and with no colon in its first
// element, which marks the embedded corpus ("embedded:negative/x.json") or
// a drive ("C:/...").
func inRepository(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return p != "" && !path.IsAbs(p) && first != ".." && !strings.Contains(first, ":")
}

// skippedText is the text of a skipped testcase.
func skippedText(r *model.Result) string {
	switch r.Kind() {
	case model.KindKnownFailure:
		return "Known failure (" + r.KnownFailure + "): " + explain.Headline(r) + "\n\n" + explain.Body(r)
	case model.KindFlaky:
		text := "Flaky"
		if r.Listing != nil {
			text += " (" + r.Listing.Entry + listingReason(r.Listing) + ")"
		}
		if a := explain.Attempts(r); a != "" {
			text += ", " + a
		}
		return text + ": " + explain.Headline(r) + "\n\n" + explain.Body(r)
	}
	return r.Actual.Message
}

// passNote is the output of a passing testcase: its attempts when it
// passed on a retry, the stale entry of an unexpected pass, what a flaky
// entry said; "" for a plain pass.
func passNote(r *model.Result) string {
	switch r.Kind() {
	case model.KindUnexpectedPass:
		return explain.StaleEntry(r)
	case model.KindFlaky:
		if a := explain.Attempts(r); a != "" {
			return "Flaky: " + a
		}
		return "Flaky (" + r.Listing.Entry + listingReason(r.Listing) + "): passed"
	}
	return ""
}

func listingReason(l *model.Listing) string {
	if l.Reason == "" {
		return ""
	}
	return ": " + l.Reason
}

// suiteName is a class's suite name; the fixtures whose expected block
// could not be read are corpus errors, named as every report names them.
func suiteName(c model.Class) string {
	if c == model.ClassUnknown {
		return typeCorpusError
	}
	return c.String()
}

// warnings renders findings as lines of system-err.
func warnings(fs []model.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "warning: %s: %s: %s\n", f.Path, explain.FindingTitle(f.Kind), escape.OneLine(f.Message))
	}
	return clean(b.String())
}

// classname is the fixture's corpus-relative folder ("negative", or
// "negative/sub" for a nested fixture).
func classname(r *model.Result) string {
	if r.RelPath != "" {
		if d := path.Dir(r.RelPath); d != "." {
			return d
		}
	}
	if r.Folder != "" {
		return r.Folder
	}
	return "."
}

func properties(run *model.Run, opts Options) []property {
	var props []property
	add := func(name, value string) {
		if value != "" {
			props = append(props, property{Name: clean(name), Value: clean(value)})
		}
	}
	add("drp2.tool_version", run.ToolVersion)
	add("drp2.corpus_root", run.CorpusRoot)
	add("drp2.corpus_sha256", run.CorpusDigest)
	if sh := run.Shard; sh != nil {
		add("drp2.shard", fmt.Sprintf("%d/%d", sh.Index, sh.Count))
	}
	add("drp2.command_schema.source", run.CommandSchema.Source)
	add("drp2.command_schema.sha256", run.CommandSchema.SHA256)
	add("drp2.command_schema.closure_sha256", run.CommandSchema.Closure)
	add("drp2.fixture_schema.source", run.FixtureSchema.Source)
	add("drp2.fixture_schema.sha256", run.FixtureSchema.SHA256)
	add("drp2.fixture_schema.closure_sha256", run.FixtureSchema.Closure)
	if in := run.Interrupted; in != nil {
		add("drp2.interrupted", fmt.Sprintf("%s after %d of %d fixtures", in.Signal, in.Done, in.Of))
	}
	if n := run.Bounds.LeftOut; n > 0 {
		// Said where a reader of the XML looks for the run's evidence.
		add("drp2.detail_left_out", fmt.Sprint(n))
	}
	for _, p := range opts.Properties {
		add(p.Name, p.Value)
	}
	return props
}

// seconds formats d as JUnit wants it, which also matches junit-10.xsd's
// SUREFIRE_TIME pattern (digits, a dot, three decimals).
func seconds(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%.3f", d.Seconds())
}

// clean strips what XML cannot carry (the encoder escapes the rest) and
// breaks every workflow command a line could start, visibly, as all
// invisible characters in the report are named: test-report actions print
// the report's text into the Actions log, and a fixture's name, which the
// pull request chooses, may hold line breaks.
func clean(s string) string { return escape.VisibleLogText(escape.XMLText(s)) }
