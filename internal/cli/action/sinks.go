package action

// The action's record sinks: the log, the report files and job summary,
// the step outputs and the notes on publishing.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// writeLog prints the text report, and the manifest comparison, between
// stop-commands markers, so that fixture names and messages cannot inject
// workflow commands.
func (a *runAction) writeLog(d *delivery) error {
	var b bytes.Buffer
	// Every fixture is listed, passes folded away: failures and the final
	// count stay in view.
	// GitHub renders ANSI colour in step logs, though the log is a pipe.
	o := report.LogOptions(a.getenv)
	if err := report.Lookup("text").WriteRun(&b, d.out.Run, o); err != nil {
		return fmt.Errorf("write the text report: %w", err)
	}
	_, err := io.WriteString(a.log, wrapCommands(b.String(), randomToken()))
	return err
}

// wrapCommands puts every line of a text report between stop-commands
// markers, except the report's own group lines, which must reach the
// runner to fold the log. The report already breaks any command in the
// text it quotes; the markers keep it inert even if that ever failed.
func wrapCommands(report, token string) string {
	var b strings.Builder
	open := false
	for _, line := range strings.SplitAfter(report, "\n") {
		if line == "" {
			continue
		}
		group := strings.HasPrefix(line, "::group::") || strings.TrimRight(line, "\n") == "::endgroup::"
		if group && open {
			fmt.Fprintf(&b, "::%s::\n", token)
			open = false
		}
		if !group && !open {
			fmt.Fprintf(&b, "::stop-commands::%s\n", token)
			open = true
		}
		b.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			b.WriteString("\n")
		}
	}
	if open {
		fmt.Fprintf(&b, "::%s::\n", token)
	}
	return b.String()
}

// reportFiles is what the files sink produced: the report paths it was
// given, and the error of every report it could not write.
type reportFiles struct {
	paths report.Paths
	err   error
}

// written is where the report rf was written: its path, or empty when it
// was not written.
func (f reportFiles) written(rf *report.ReportFile) string {
	for _, e := range report.ReportErrors(f.err) {
		if e.Report == rf.Report {
			return ""
		}
	}
	return *rf.Path(&f.paths)
}

// summaryWritten reports whether the job summary was written, or was not
// asked for; false when its write failed.
func (f reportFiles) summaryWritten() bool {
	for i := range report.ReportFiles {
		if rf := &report.ReportFiles[i]; rf.Append {
			return *rf.Path(&f.paths) == "" || f.written(rf) != ""
		}
	}
	return true
}

// writeFiles writes the JUnit and JSON reports and the job summary. A
// report path that cannot be written fails the step, but only after the
// rest is written; each is written to the log here.
func (a *runAction) writeFiles(d *delivery) reportFiles {
	f := reportFiles{paths: d.in.Files}
	if !d.in.NoJobSummary {
		f.paths.Summary = a.getenv("GITHUB_STEP_SUMMARY")
	}
	f.err = report.WriteReports(d.out.Run, f.paths, report.FileOptions{Getenv: a.getenv, Markdown: d.md, Redact: a.env.Redactor.Bytes,
		Write: gate.SaveReport(d.wd, true), Stream: workspace.New(d.wd, true).WriteFileFrom, JUnitStrict: d.in.JUnitStrict})
	for _, e := range report.ReportErrors(f.err) {
		a.errorf("%v", e)
	}
	return f
}

// writeResultOutputs writes the step outputs of the run, before anything
// is published.
func (a *runAction) writeResultOutputs(d *delivery, files reportFiles) error {
	s := d.out.Run.Summary
	outs := []output{
		{"total", strconv.Itoa(s.Discovered)},
		{"run", strconv.Itoa(s.Run)},
		{"passed", strconv.Itoa(s.Passed)},
		{"failed", strconv.Itoa(s.Failed)},
		{"corpus-errors", strconv.Itoa(s.CorpusErrors)},
		{"conclusion", d.conclusion()},
	}
	for i := range report.ReportFiles {
		if rf := &report.ReportFiles[i]; rf.Input != "" {
			outs = append(outs, output{rf.Input, files.written(rf)})
		}
	}
	outs = append(outs, comparisonOutputs(d.out.Run.Comparison)...)
	outs = append(outs, implementationOutputs(d.out.Run)...)
	outs = append(outs, expectationOutputs(d.out.Run)...)
	return writeOutputs(a.getenv("GITHUB_OUTPUT"), outs, a.env.Redactor)
}

// implementationOutputs are the per-implementation counts: how many
// implementations fail, and for each its name, version and counts, as a
// JSON array (fromJSON in a workflow).
func implementationOutputs(run *model.Run) []output {
	type counts struct {
		Name      string `json:"name"`
		Version   string `json:"version"`
		Run       int    `json:"run"`
		Passed    int    `json:"passed"`
		Failed    int    `json:"failed"`
		NoVerdict int    `json:"no_verdict"`
		// The expectations' counts: failures excused, flaky fixtures,
		// stale entries, fixtures not sent.
		Unexpected       int    `json:"unexpected_failures"`
		Known            int    `json:"known"`
		Flaky            int    `json:"flaky"`
		UnexpectedPasses int    `json:"unexpected_passes"`
		Skipped          int    `json:"skipped"`
		Error            string `json:"error,omitempty"`
		// Against the implementation on the base, when there is a
		// comparison.
		Regressed *int `json:"regressed,omitempty"`
		Fixed     *int `json:"fixed,omitempty"`
		Added     *int `json:"added,omitempty"`
	}
	deltas := map[string]*model.ImplementationDelta{}
	if c := run.Comparison; c != nil {
		for i := range c.Implementations {
			deltas[c.Implementations[i].Label] = &c.Implementations[i]
		}
	}
	list := []counts{}
	failing := 0
	for i := range run.Implementations {
		im := &run.Implementations[i]
		sm := &im.Summary
		if im.Error != "" || sm.Unexcused() > 0 {
			failing++
		}
		c := counts{Name: im.Name, Version: im.Version, Run: sm.Run, Passed: sm.Passed,
			Failed: sm.Failed, NoVerdict: im.HarnessErrors(), Unexpected: sm.Unexcused(), Known: sm.KnownFailures, Flaky: sm.Flaky,
			UnexpectedPasses: sm.UnexpectedPasses, Skipped: sm.Skipped, Error: im.Error}
		if d := deltas[im.Label()]; d != nil {
			regressed, fixed, added := len(d.Regressed), len(d.Fixed), len(d.AddedFailing)+d.AddedPassing
			c.Regressed, c.Fixed, c.Added = &regressed, &fixed, &added
		}
		list = append(list, c)
	}
	data, _ := json.Marshal(list)
	return []output{{"implementations", string(data)}, {"implementations-failed", strconv.Itoa(failing)}}
}

// expectationOutputs are the expectations' counts of the whole run, the
// built-in validator's and every implementation's together: failures
// excused as known, flaky fixtures, unexpected passes (stale entries).
func expectationOutputs(run *model.Run) []output {
	known, flaky, passes := run.Summary.KnownFailures, run.Summary.Flaky, run.Summary.UnexpectedPasses
	for i := range run.Implementations {
		s := &run.Implementations[i].Summary
		known, flaky, passes = known+s.KnownFailures, flaky+s.Flaky, passes+s.UnexpectedPasses
	}
	return []output{{"known", strconv.Itoa(known)}, {"flaky", strconv.Itoa(flaky)}, {"unexpected-passes", strconv.Itoa(passes)}}
}

// published is what the API sinks produced: the URLs of the check run
// and the comment, and the notes on what was skipped or failed.
type published struct {
	checkURL, commentURL string
	notes                []markdown.PublishingNote
}

// writeNotes adds to the job summary what publishing skipped or could not
// do, and writes the check-run and comment URLs to the step outputs, each
// unless an earlier write of that file failed (summary, outputs false):
// that failure is said once.
func (a *runAction) writeNotes(d *delivery, p published, summary, outputs bool) error {
	if path := a.getenv("GITHUB_STEP_SUMMARY"); path != "" && len(p.notes) > 0 && !d.in.NoJobSummary && summary {
		if err := workspace.Append(path, a.env.Redactor.Bytes([]byte(markdown.Publishing(p.notes)))); err != nil {
			a.warnf("write job summary: %v", err)
		}
	}
	if !outputs {
		return nil
	}
	return writeOutputs(a.getenv("GITHUB_OUTPUT"), []output{{"check-url", p.checkURL}, {"comment-url", p.commentURL}}, a.env.Redactor)
}
