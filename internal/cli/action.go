package cli

// The "drp2-fixtures action" entry of the Docker
// container action: it reads the INPUT_* variables and the event payload,
// runs the corpus, writes the JUnit and JSON files, the job summary and the
// step outputs, and only then publishes to GitHub (check run, sticky pull
// request comment). Publishing never fails the step: the step fails only by
// fail-on, or with exit code 2 for unusable inputs.

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/github"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/report/text"
)

// Tuning variables, for slow Enterprise Server instances and for tests.
const (
	envBudget         = "DRP2_FIXTURES_API_BUDGET"
	envAttemptTimeout = "DRP2_FIXTURES_API_ATTEMPT_TIMEOUT"
	envWriteInterval  = "DRP2_FIXTURES_API_WRITE_INTERVAL"
)

// maxCheckRunAnnotations bounds the annotations sent through the API: 20
// requests of 50, which stays well inside the 80 writes per minute.
const maxCheckRunAnnotations = 1000

// actionCommand runs drp2-fixtures as a GitHub Action and returns the exit
// code.
func actionCommand(ctx context.Context, env Env) int {
	defer env.protect()()
	a := &runAction{env: env}
	return a.main(ctx)
}

type runAction struct {
	env Env
	log io.Writer
	gha *githubactions.Action
}

func (a *runAction) getenv(k string) string { return a.env.getenv(k) }

func (a *runAction) warnf(format string, args ...any) {
	fmt.Fprintf(a.log, "::warning title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) debugf(format string, args ...any) {
	fmt.Fprintf(a.log, "::debug::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) errorf(format string, args ...any) {
	fmt.Fprintf(a.log, "::error title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) main(ctx context.Context) int {
	a.log = a.env.Stdout
	if a.log == nil {
		a.log = io.Discard
	}
	// The one writer that is not redacted: ::add-mask:: must name the token.
	a.gha = githubactions.New(githubactions.WithGetenv(a.getenv), githubactions.WithWriter(a.env.rawStdout))
	in, err := readInputs(a.gha)
	if in.Token != "" {
		// Before anything else is printed, so no later line can show it:
		// the runner masks it in the log, and the redactor in every text
		// the action writes or posts.
		a.gha.AddMask(in.Token)
		a.env.redact.Add(in.Token)
	}
	if err != nil {
		a.errorf("%v", err)
		return ExitUsage
	}
	pacing, err := a.pacing()
	if err != nil {
		a.errorf("%v", err)
		return ExitUsage
	}
	r, err := resolve(a.env, in.Job)
	if err != nil {
		a.errorf("%v", err)
		return exitFor(err)
	}
	repository := a.getenv("GITHUB_REPOSITORY")
	tgt, err := readTarget(a.getenv("GITHUB_EVENT_NAME"), a.getenv("GITHUB_EVENT_PATH"), repository, a.getenv("GITHUB_SHA"))
	if err != nil {
		// The results still matter without a pull request to comment on.
		a.warnf("%v; results are reported for %s without a pull request", err, orDefault(tgt.HeadSHA, "this commit"))
	}

	if in.CheckRunID != 0 && jobCheckRunElsewhere(a.getenv("GITHUB_EVENT_NAME")) {
		// This job's own check run belongs to the commit the workflow ran
		// on (the default branch), not to the pull request's head: the
		// results get a check run of their own on the head instead.
		a.debugf("check-run-id %d is this job's check run, on another commit than %s: creating a check run on %s", in.CheckRunID, tgt.HeadSHA, tgt.HeadSHA)
		in.CheckRunID = 0
	}

	var cov *coverageRun
	if in.Coverage {
		cov = enableCoverage(&r)
	}

	run, err := execute(ctx, r)
	if err != nil {
		a.errorf("%v", err)
		return exitFor(err)
	}
	// Reports name files as the repository does, never by the container's
	// mount point (/github/workspace/...).
	run = explain.InWorkspace(run, orDefault(a.getenv("GITHUB_WORKSPACE"), r.workDir))
	if err := a.writeLog(run); err != nil {
		return ExitInternal
	}
	ext, extErr := a.extras(r, run, in, cov)
	if extErr != nil {
		a.errorf("%v", extErr)
	}
	if in.Explore > 0 {
		md, err := actionExplore(ctx, r, in)
		ext.summary += md
		if err != nil {
			a.errorf("explore: %v", err)
			extErr = cmp.Or(extErr, err)
		}
	}

	serverURL := orDefault(a.getenv("GITHUB_SERVER_URL"), "https://github.com")
	mdOpts := markdown.Options{ServerURL: serverURL, Repository: repository, SHA: tgt.HeadSHA, FullComment: in.FullComment, NoJobSummary: in.NoJobSummary,
		CorpusKey:      reportKey(in.ReportName, in.Corpus),
		WorkflowRunURL: workflowRunURL(serverURL, repository, a.getenv("GITHUB_RUN_ID"), a.getenv("GITHUB_RUN_ATTEMPT")),
	}
	if in.CheckRunID != 0 && repository != "" {
		// The job's own check run is known before anything is published,
		// so the summary can link it too.
		mdOpts.CheckRunURL = fmt.Sprintf("%s/%s/runs/%d", strings.TrimSuffix(serverURL, "/"), repository, in.CheckRunID)
	}
	plan := planPublishing(in, tgt, repository)
	mdOpts.Skipped = plan.skipped

	// The record of the run comes first: files, summary and outputs exist
	// whatever happens to the API calls below. A report path that cannot
	// be written fails the step, but only after the rest is written.
	paths := in.Files
	if !in.NoJobSummary {
		paths.Summary = a.getenv("GITHUB_STEP_SUMMARY")
	}
	fileErr := writeReports(run, paths, fileOptions{Dir: r.workDir, Contained: true, Getenv: a.getenv, Markdown: mdOpts, Redact: a.env.redact})
	for _, e := range reportErrors(fileErr) {
		a.errorf("%v", e)
	}
	if ext.summary != "" && paths.Summary != "" {
		if err := workspace.Append(paths.Summary, a.env.redact.Bytes([]byte(ext.summary))); err != nil {
			a.warnf("write job summary: %v", err)
		}
	}
	code, why := verdict(run, in.Job)
	conclusion := checkConclusion(run, in.Job, code)
	if len(ext.why) > 0 || implementationsFailed(run) || fileErr != nil || extErr != nil {
		// The step fails on these too; the conclusion must not say
		// otherwise.
		conclusion = "failure"
	}
	if len(ext.why) > 0 {
		why, code = append(why, ext.why...), ExitMismatch
	}
	plan.extras = ext
	s := run.Summary
	outs := []output{
		{"total", strconv.Itoa(s.Discovered)},
		{"run", strconv.Itoa(s.Run)},
		{"passed", strconv.Itoa(s.Passed)},
		{"failed", strconv.Itoa(s.Failed)},
		{"corpus-errors", strconv.Itoa(s.CorpusErrors)},
		{"conclusion", conclusion},
		{"junit-path", writtenPath(in.Files.JUnit, fileErr, "JUnit report")},
		{"json-path", writtenPath(in.Files.JSON, fileErr, "JSON report")},
		{"markdown-path", writtenPath(in.Files.Markdown, fileErr, "Markdown report")},
	}
	outs = append(outs, comparisonOutputs(run.Comparison)...)
	if err := writeOutputs(a.getenv("GITHUB_OUTPUT"), outs, a.env.redact); err != nil {
		a.errorf("%v", err)
		return ExitInternal
	}

	res := a.publish(ctx, run, in, tgt, plan, mdOpts, conclusion, pacing, r.config.Now)
	if len(res.notes) > 0 && !in.NoJobSummary {
		a.appendSummaryNotes(res.notes)
	}
	if err := writeOutputs(a.getenv("GITHUB_OUTPUT"), []output{{"check-url", res.checkURL}, {"comment-url", res.commentURL}}, a.env.redact); err != nil {
		a.errorf("%v", err)
		return ExitInternal
	}
	for _, w := range why {
		a.errorf("%s", w)
	}
	if fileErr != nil {
		return exitFor(fileErr)
	}
	if extErr != nil {
		return exitFor(extErr)
	}
	return code
}

// jobCheckRunElsewhere reports whether the job's own check run belongs to
// another commit than the one the results are about: workflow_run and
// pull_request_target run on the base branch, for a pull request's head.
func jobCheckRunElsewhere(eventName string) bool {
	return eventName == "workflow_run" || eventName == "pull_request_target"
}

// workflowRunURL links the run (and its attempt, after a re-run) on the
// web; empty outside Actions.
func workflowRunURL(serverURL, repository, runID, attempt string) string {
	if repository == "" || runID == "" {
		return ""
	}
	u := fmt.Sprintf("%s/%s/actions/runs/%s", strings.TrimSuffix(serverURL, "/"), repository, runID)
	if attempt != "" && attempt != "1" {
		u += "/attempts/" + attempt
	}
	return u
}

// writtenPath is a report path for the step outputs: empty when that
// report was not written.
func writtenPath(path string, err error, report string) string {
	for _, e := range reportErrors(err) {
		if e.Report == report {
			return ""
		}
	}
	return path
}

// pacing merges Env.Pacing with the DRP2_FIXTURES_API_* variables.
func (a *runAction) pacing() (github.Pacing, error) {
	p := a.env.Pacing
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{{envBudget, &p.Budget}, {envAttemptTimeout, &p.AttemptTimeout}, {envWriteInterval, &p.WriteInterval}} {
		s := a.getenv(v.name)
		if s == "" || *v.dst != 0 {
			continue
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return p, fmt.Errorf("%s=%q is not a duration such as 90s or 2m", v.name, s)
		}
		if d == 0 && v.dst == &p.WriteInterval {
			d = -1 // zero means no spacing, not the default
		}
		*v.dst = d
	}
	p.Logf = a.debugf
	return p, nil
}

// reportKey names the report in the sticky comment marker: the corpus
// input (one comment per corpus in a workflow) and, when it is not the
// default, the report name (one comment per matrix leg). The default name
// keeps the key of earlier versions, so their comments are still found.
func reportKey(reportName, corpus string) string {
	key := "default"
	if corpus != "" {
		key = filepath.ToSlash(filepath.Clean(corpus))
	}
	if reportName != defaultCheckName {
		key = reportName + " | " + key
	}
	return key
}

// writeLog prints the text report between stop-commands markers, so that
// fixture names and messages cannot inject workflow commands.
func (a *runAction) writeLog(run *model.Run) error {
	var b bytes.Buffer
	// Every fixture is listed, passes folded away: failures and the final
	// count stay in view.
	// GitHub renders ANSI colour in step logs, though the log is a pipe.
	if err := text.Write(&b, run, text.Options{Verbose: true, Group: true, Color: useColor(a.getenv, true)}); err != nil {
		a.errorf("write the text report: %v", err)
		return err
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

// appendSummaryNotes adds what publishing skipped or could not do.
func (a *runAction) appendSummaryNotes(notes []string) {
	path := a.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	var b strings.Builder
	b.WriteString("\n### Publishing\n\n")
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	if err := workspace.Append(path, a.env.redact.Bytes([]byte(b.String()))); err != nil {
		a.warnf("write job summary: %v", err)
	}
}

// writeCommands prints annotations as workflow commands.
func (a *runAction) writeCommands(anns []annotation.Annotation) {
	if err := annotation.WriteCommands(a.log, anns, annotation.CommandOptions{}); err != nil {
		a.warnf("write annotations: %v", err)
	}
}
