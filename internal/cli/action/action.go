// Package action is the "drp2-fixtures action" entry of the Docker
// container action: it reads the INPUT_* variables and the event payload,
// runs the job, and hands the outcome to its sinks in order: the log, the
// report files and job summary, the step outputs, then GitHub (check run,
// sticky pull request comment), then the notes on what publishing did.
// No sink changes the outcome: each returns what it produced (the files
// written, the check run's URL, the comment's, notes), and the next is
// given what it needs of that. The record (log, files, outputs, notes)
// fails the step when it cannot be written; the API only warns. The step
// fails by the verdict alone otherwise. It declares for itself the
// interfaces of GitHub it consumes.
package action

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/github"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// Tuning variables, for slow Enterprise Server instances and for tests.
const (
	EnvBudget         = "DRP2_FIXTURES_API_BUDGET"
	EnvAttemptTimeout = "DRP2_FIXTURES_API_ATTEMPT_TIMEOUT"
	EnvWriteInterval  = "DRP2_FIXTURES_API_WRITE_INTERVAL"
)

// Run runs drp2-fixtures as a GitHub Action. It returns nil when the
// step passes, else an error exit.Code maps to the step's exit code (1 a
// failing verdict, 2 unusable input or a record that could not be
// written, 3 the tool's own failure). The log already says every error it
// returns, and why the verdict fails.
func Run(ctx context.Context, env Env) error {
	a := &runAction{env: env, log: env.Log}
	if a.log == nil {
		a.log = io.Discard
	}
	// The one writer that is not redacted: ::add-mask:: must name the token.
	a.gha = githubactions.New(githubactions.WithGetenv(a.getenv), githubactions.WithWriter(orDiscard(a.env.RawLog)))
	if a.getenv("GITHUB_ACTIONS") == "true" && a.getenv("GITHUB_OUTPUT") == "" {
		// The runner always sets it; a step that lost it would otherwise
		// leave every later step reading empty outputs without a word.
		a.warnf("GITHUB_OUTPUT is not set: the step outputs (conclusion, the counts, the report paths) cannot be written, and later steps read them empty")
	}
	st, err := a.prepare(ctx)
	if err != nil {
		a.errorf("%v", err)
		a.recordUnusable(err)
		return err
	}
	return a.deliver(ctx, st)
}

type runAction struct {
	env Env
	log io.Writer
	gha *githubactions.Action
}

func (a *runAction) getenv(k string) string {
	if a.env.Getenv == nil {
		return ""
	}
	return a.env.Getenv(k)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

func (a *runAction) warnf(format string, args ...any) {
	fmt.Fprintf(a.log, "::warning title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) debugf(format string, args ...any) {
	fmt.Fprintf(a.log, "::debug::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) noticef(format string, args ...any) {
	fmt.Fprintf(a.log, "::notice title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

// recordUnusable writes what a step that could not run still owes its
// readers: the job summary says what was wrong and how to fix it, and the
// conclusion output says failure, so a later step or a reader of the run
// is never left with an empty summary and no outputs.
func (a *runAction) recordUnusable(err error) {
	var b bytes.Buffer
	markdown.WriteUnusable(&b, err.Error(), unusableFix(err))
	if path := a.getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if werr := workspace.Append(path, a.env.Redactor.Bytes(b.Bytes())); werr != nil {
			a.warnf("write job summary: %v", werr)
		}
	}
	if werr := writeOutputs(a.getenv("GITHUB_OUTPUT"), []output{{"conclusion", "failure"}}, a.env.Redactor); werr != nil {
		a.warnf("%v", werr)
	}
}

// unusableFix is the advice of the job summary for an error that stopped
// the step, in Markdown.
func unusableFix(err error) string {
	var nf *gate.CorpusNotFound
	switch {
	case errors.As(err, &nf):
		return "set `corpus:` on the step to the folder holding `positive/`, `negative/` and `negative_schema/`, relative to the repository root; in datoviz's layout, `corpus: spec/drp2/fixtures`. " +
			"(`corpus: embedded` runs the corpus built into the action instead, for a runtime testing itself against it.)"
	case exit.KindOf(err) == exit.Interrupted:
		return "the step was stopped by a signal (a cancelled workflow, a runner shutting down) before any fixture was judged: run the job again."
	case exit.Code(err) == exit.Usage:
		return "correct the input or the file the message names in the workflow (the inputs are listed in the action's docs/action.md, under Inputs) and run the job again."
	}
	return "this is the tool's own failure, not your input's: run the job again, and if it fails the same way, report it with this job's log."
}

func (a *runAction) errorf(format string, args ...any) {
	fmt.Fprintf(a.log, "::error title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

// delivery is what the run and the inputs decided, as every sink receives
// it: the run, its verdict, the publishing plan and the options. No sink
// changes it; a sink returns what it produced, and deliver hands that on
// to the sinks that need it.
type delivery struct {
	in     Inputs
	tgt    target
	repo   string
	wd     string
	now    func() time.Time
	pacing github.Pacing
	out    *gate.Outcome
	job    *gate.Resolved // what explore needs of the job
	md     markdown.Options
	plan   plan
	extras extras
	anns   annotator
}

// conclusion is the verdict's (a record that could not be written fails
// it too: delivery.failedBy).
func (d *delivery) conclusion() string { return explain.Conclusion(d.out.Verdict) }

// prepare reads the inputs and the event, and runs the job.
func (a *runAction) prepare(ctx context.Context) (*delivery, error) {
	in, err := readInputs(a.gha)
	if in.Token != "" {
		// Before anything else is printed, so no later line can show it:
		// the runner masks it in the log, and the redactor in every text
		// the action writes or posts.
		a.gha.AddMask(in.Token)
		a.env.Redactor.Add(in.Token)
	}
	if err != nil {
		return nil, exit.Errorf(exit.Input, "%v", err)
	}
	d := &delivery{in: in, repo: a.getenv("GITHUB_REPOSITORY")}
	if d.pacing, err = a.pacing(); err != nil {
		return nil, exit.Errorf(exit.Input, "%v", err)
	}
	ge, err := gate.NewEnv(gate.Env{WorkDir: a.env.WorkDir, Getenv: a.getenv, Now: a.env.Now, ToolVersion: a.env.ToolVersion,
		Redact: a.env.Redactor.Value, RedactBytes: a.env.Redactor.Bytes, ReadReport: report.ReadRun, Sized: a.env.Sized, Holds: a.env.Holds, LargestFixture: a.env.LargestFixture,
		// Reports name files as the repository does, never by the
		// container's mount point (/github/workspace/...).
		InWorkspace: true})
	if err != nil {
		return nil, err
	}
	r, err := gate.Resolve(ge, in.RunRequest)
	if err != nil {
		return nil, err
	}
	if r.CorpusSearch != nil {
		a.noticef("corpus %s: %s, found because the corpus input is empty; set corpus: on the step to choose another", r.Config.Corpus, explain.CorpusFound(r.CorpusSearch))
	}
	d.wd, d.now = r.WorkDir, ge.Now
	d.tgt, err = readTarget(a.getenv("GITHUB_EVENT_NAME"), a.getenv("GITHUB_EVENT_PATH"), d.repo, a.getenv("GITHUB_SHA"))
	if err != nil {
		// The results still matter without a pull request to comment on.
		a.warnf("%v; results are reported for %s without a pull request", err, orDefault(d.tgt.HeadSHA, "this commit"))
	}
	if d.tgt.Queue != "" {
		fmt.Fprintln(a.log, escape.LogLine(escape.OneLine(fmt.Sprintf("merge queue entry %s at %s: it belongs to no pull request, so no pull request comment is written", d.tgt.Queue, d.tgt.HeadSHA))))
	}
	if d.in.CheckRunID != 0 && jobCheckRunElsewhere(a.getenv("GITHUB_EVENT_NAME")) {
		// This job's own check run belongs to the commit the workflow ran
		// on (the default branch), not to the pull request's head: the
		// results get a check run of their own on the head instead.
		a.debugf("check-run-id %d is this job's check run, on another commit than %s: creating a check run on %s", d.in.CheckRunID, d.tgt.HeadSHA, d.tgt.HeadSHA)
		d.in.CheckRunID = 0
	}
	// The report says what it was made on, for a collector of published
	// reports: the commit the check run is on (a pull request's head, not
	// its test merge commit), the repository and the workflow run the
	// comment links. Only these three of the environment go in; a value
	// of another shape is left out.
	if model.IsCommit(d.tgt.HeadSHA) {
		r.Commit = d.tgt.HeadSHA
	}
	if model.IsRepository(d.repo) {
		r.Repository = d.repo
	}
	if u := a.workflowRun(d.repo); model.IsRunURL(u, r.Repository) {
		r.RunURL = u
	}
	r.RerunFailed = a.rerunFrom(in, r.WorkDir)
	if d.out, err = gate.Execute(ctx, r); err != nil {
		return nil, err
	}
	if rr := d.out.Run.Rerun; rr != nil {
		a.noticef("%s", explain.Rerun(rr, rr.From, a.attempt()))
	}
	d.job = r
	d.plan = planPublishing(in, d.tgt, d.repo)
	d.md = a.markdownOptions(d)
	d.md.Skipped = d.plan.skipped
	if d.extras, err = newExtras(d.out); err != nil {
		return nil, err
	}
	d.anns = newAnnotator(in.Annotations, a, append(annotation.ForRun(d.out.Run, in.FindingAnnotations), d.extras.annotations...))
	return d, nil
}

// markdownOptions link the reports to the repository, the commit, the
// workflow run and, when known before publishing, the job's check run.
// The job summary is written before anything is published, so it links
// that check run only when this run's token will write it: a fork's
// pull request sends it nothing, and a read-only token is refused.
func (a *runAction) markdownOptions(d *delivery) markdown.Options {
	serverURL := orDefault(a.getenv("GITHUB_SERVER_URL"), "https://github.com")
	md := markdown.Options{Attempt: a.attempt(), ServerURL: serverURL, Repository: d.repo, SHA: d.tgt.HeadSHA, FullComment: d.in.FullComment, NoJobSummary: d.in.NoJobSummary,
		CorpusKey:      reportKey(d.in.ReportName, corpusRan(d)),
		WorkflowRunURL: a.workflowRun(d.repo),
		ImagesFolder:   d.in.ImagesOut,
	}
	if d.in.CheckRunID != 0 && d.repo != "" && d.plan.api && !a.readOnlyToken() {
		md.CheckRunURL = fmt.Sprintf("%s/%s/runs/%d", strings.TrimSuffix(serverURL, "/"), d.repo, d.in.CheckRunID)
	}
	return md
}

// deliver hands the outcome to the sinks and returns the step's error:
// the first record sink's failure, else the outcome's. Each sink is given what
// the earlier ones produced that it needs, so their order is the order of
// these calls: the record of the run exists before any network call, and
// a report or step outputs that could not be written fail the verdict of
// every sink after them.
func (a *runAction) deliver(ctx context.Context, d *delivery) error {
	// The records' own errors are said where they fail; the run's, with
	// the verdict's reasons, at the end.
	runErr := d.out.Err
	logErr := a.logged(a.writeLog(d))
	files := a.writeFiles(d)
	d = d.failedBy(files.err)
	// A runner's file that could not be written is not tried again: its
	// failure is said once.
	summary := files.summaryWritten()
	in := d.out.Run.Interrupted
	if in == nil {
		a.explore(ctx, d, summary)
	}
	outputsErr := a.logged(a.writeResultOutputs(d, files))
	d = d.failedBy(outputsErr)
	var pub published
	if in != nil {
		// The time after a signal is a runner's few seconds before it
		// kills the job, and a GitHub request may take all of them: the
		// record of what ran comes first, and nothing is published.
		what := fmt.Sprintf("interrupted by %s: nothing was published to GitHub (no check run, no comment)", in.Signal)
		a.warnf("%s; the job summary, the step outputs and the report files hold the %d of %d fixtures that ran", what, in.Done, in.Of)
		pub.notes = []markdown.PublishingNote{{What: what}}
	} else {
		gh := a.connect(d)
		check := a.publishCheck(ctx, d, gh)
		comment := a.publishComment(ctx, d, gh, check)
		pub = published{checkURL: check.url, commentURL: comment.url, notes: slices.Concat(gh.notes, check.notes, comment.notes)}
	}
	notesErr := a.logged(a.writeNotes(d, pub, summary, outputsErr == nil))
	for _, w := range append(exit.Lines(runErr), explain.Judgement(d.out.Run).Reasons...) {
		a.errorf("%s", w)
	}
	if failed := cmp.Or(logErr, files.err, outputsErr, notesErr); failed != nil {
		return failed
	}
	return d.out.End()
}

// logged writes a record sink's error to the log, and returns it.
func (a *runAction) logged(err error) error {
	if err != nil {
		a.errorf("%v", err)
	}
	return err
}

// failedBy is the delivery with a record that could not be written
// failing its verdict (gate.Outcome.FailedBy), for the sinks still to come; d
// itself is left as it was.
func (d *delivery) failedBy(err error) *delivery {
	if err == nil {
		return d
	}
	f := *d
	f.out = d.out.FailedBy(err)
	return &f
}

// attempt is the workflow run's attempt, GITHUB_RUN_ATTEMPT: 1 for the
// first, 0 outside Actions or when it is not a number.
func (a *runAction) attempt() int {
	n, err := strconv.Atoi(a.getenv("GITHUB_RUN_ATTEMPT"))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// rerunFrom is the report a re-run attempt carries over from: the
// rerun-from input on an attempt after the first, when the workflow kept
// the previous attempt's report there; else none, and everything runs.
// The gate refuses a report git tracks (a pull request must not plant one
// that carries passes over) or one of another commit.
func (a *runAction) rerunFrom(in Inputs, wd string) string {
	attempt := a.attempt()
	switch {
	case in.RerunFrom == "":
		return ""
	case attempt <= 1:
		a.debugf("rerun-from %s: read on a re-run only, and this is attempt %d: every fixture runs", in.RerunFrom, attempt)
		return ""
	}
	path := in.RerunFrom
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		a.noticef("re-run attempt %d: no report of the previous attempt at %s (rerun-from): every fixture runs", attempt, in.RerunFrom)
		return ""
	}
	return in.RerunFrom
}

// jobCheckRunElsewhere reports whether the job's own check run belongs to
// another commit than the one the results are about: workflow_run and
// pull_request_target run on the base branch, for a pull request's head.
func jobCheckRunElsewhere(eventName string) bool {
	return eventName == "workflow_run" || eventName == "pull_request_target"
}

// workflowRun links the run (and its attempt, after a re-run) on the
// web; empty outside Actions.
func (a *runAction) workflowRun(repository string) string {
	serverURL := orDefault(a.getenv("GITHUB_SERVER_URL"), "https://github.com")
	return model.WorkflowRunURL(serverURL, repository, a.getenv("GITHUB_RUN_ID"), a.getenv("GITHUB_RUN_ATTEMPT"))
}

// pacing merges Env.Pacing with the DRP2_FIXTURES_API_* variables.
func (a *runAction) pacing() (github.Pacing, error) {
	p := a.env.Pacing
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{{EnvBudget, &p.Budget}, {EnvAttemptTimeout, &p.AttemptTimeout}, {EnvWriteInterval, &p.WriteInterval}} {
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
	// A long wait is said plainly, so that a step that seems stuck says why.
	p.Waitf = func(format string, args ...any) {
		fmt.Fprintln(a.log, escape.LogLine(escape.OneLine(fmt.Sprintf(format, args...))))
	}
	return p, nil
}

// corpusRan is the corpus the comment is kept for: the corpus input, or
// the corpus the search chose when it is empty. A pull request that moves
// the corpus the search finds then gets a comment of its own, and never
// turns the red comment of the corpus it broke green.
func corpusRan(d *delivery) string {
	if d.in.Corpus == "" && d.job != nil && d.job.CorpusSearch != nil {
		return d.job.Config.Corpus
	}
	return d.in.Corpus
}

// reportKey names the report in the sticky comment marker: the corpus
// that ran (one comment per corpus in a workflow) and, when it is not the
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
