package cli

// The "drp2-fixtures action" entry of the Docker
// container action: it reads the INPUT_* variables and the event payload,
// runs the corpus, writes the JUnit and JSON files, the job summary and the
// step outputs, and only then publishes to GitHub (check run, sticky pull
// request comment). Publishing never fails the step: the step fails only by
// fail-on, or with exit code 2 for unusable inputs.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/github"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/report/text"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
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
	a := &runAction{env: env}
	return a.main(ctx)
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

func (a *runAction) warnf(format string, args ...any) {
	fmt.Fprintf(a.log, "::warning title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) errorf(format string, args ...any) {
	fmt.Fprintf(a.log, "::error title=drp2-fixtures::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
}

func (a *runAction) main(ctx context.Context) int {
	a.log = a.env.Stdout
	if a.log == nil {
		a.log = io.Discard
	}
	a.gha = githubactions.New(githubactions.WithGetenv(a.getenv), githubactions.WithWriter(a.log))
	in, err := readInputs(a.gha)
	if in.Token != "" {
		// Before anything else is printed, so no later line can show it.
		a.gha.AddMask(in.Token)
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
	now := a.env.Now
	if now == nil {
		now = time.Now
	}
	wd := a.env.WorkDir
	if wd == "" {
		if wd, err = os.Getwd(); err != nil {
			a.errorf("working directory: %v", err)
			return ExitInternal
		}
	}
	repository := a.getenv("GITHUB_REPOSITORY")
	tgt, err := readTarget(a.getenv("GITHUB_EVENT_NAME"), a.getenv("GITHUB_EVENT_PATH"), repository, a.getenv("GITHUB_SHA"))
	if err != nil {
		// The results still matter without a pull request to comment on.
		a.warnf("%v; results are reported for %s without a pull request", err, orDefault(tgt.HeadSHA, "this commit"))
	}

	run, err := runner.Run(ctx, a.runnerConfig(in, wd, now))
	if err != nil {
		a.errorf("%v", err)
		if errors.Is(err, runner.ErrInput) {
			return ExitUsage
		}
		return ExitInternal
	}
	if err := a.writeLog(run); err != nil {
		return ExitInternal
	}

	serverURL := orDefault(a.getenv("GITHUB_SERVER_URL"), "https://github.com")
	mdOpts := markdown.Options{ServerURL: serverURL, Repository: repository, SHA: tgt.HeadSHA, CorpusKey: corpusKey(in.Corpus)}
	plan := planPublishing(in, tgt, repository)
	mdOpts.Skipped = plan.skipped

	// The record of the run comes first: files, summary and outputs exist
	// whatever happens to the API calls below.
	if code := a.writeFiles(run, in, wd, mdOpts); code != ExitOK {
		return code
	}
	conclusion := "success"
	if run.Summary.Failed > 0 {
		conclusion = "failure"
	}
	s := run.Summary
	outs := []output{
		{"total", strconv.Itoa(s.Discovered)},
		{"run", strconv.Itoa(s.Run)},
		{"passed", strconv.Itoa(s.Passed)},
		{"failed", strconv.Itoa(s.Failed)},
		{"corpus-errors", strconv.Itoa(s.CorpusErrors)},
		{"conclusion", conclusion},
		{"junit-path", in.JUnitPath},
		{"json-path", in.JSONPath},
	}
	if err := writeOutputs(a.getenv("GITHUB_OUTPUT"), outs); err != nil {
		a.errorf("%v", err)
		return ExitInternal
	}

	res := a.publish(ctx, run, in, tgt, plan, mdOpts, conclusion, pacing, now)
	if len(res.notes) > 0 {
		a.appendSummaryNotes(res.notes)
	}
	if err := writeOutputs(a.getenv("GITHUB_OUTPUT"), []output{{"check-url", res.checkURL}, {"comment-url", res.commentURL}}); err != nil {
		a.errorf("%v", err)
		return ExitInternal
	}

	if in.FailOn == FailOnMismatch && run.Summary.Failed > 0 {
		return ExitMismatch
	}
	return ExitOK
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
	p.Logf = func(format string, args ...any) {
		fmt.Fprintf(a.log, "::debug::%s\n", escape.WorkflowData(fmt.Sprintf(format, args...)))
	}
	return p, nil
}

func (a *runAction) runnerConfig(in Inputs, wd string, now func() time.Time) runner.Config {
	corpus := in.Corpus
	if corpus == "" {
		// As the run command: ./fixtures when present, else embedded.
		if st, err := os.Stat(filepath.Join(wd, "fixtures")); err == nil && st.IsDir() {
			corpus = "fixtures"
		}
	}
	if corpus != "" && !filepath.IsAbs(corpus) {
		corpus = filepath.Join(wd, corpus)
	}
	return runner.Config{
		Corpus: corpus, EmbeddedFS: fixtures.FS,
		CommandSchema: in.CommandSchema, FixtureSchema: in.FixtureSchema,
		Paths: in.Paths, Name: in.Name, Tags: in.Tags,
		Now: now, WorkDir: wd, Checker: drp2.New(),
	}
}

// corpusKey names the corpus in the sticky comment marker.
func corpusKey(corpus string) string {
	if corpus == "" {
		return "default"
	}
	return filepath.ToSlash(filepath.Clean(corpus))
}

// writeLog prints the text report between stop-commands markers, so that
// fixture names and messages cannot inject workflow commands.
func (a *runAction) writeLog(run *model.Run) error {
	token := randomToken()
	fmt.Fprintf(a.log, "::stop-commands::%s\n", token)
	err := text.Write(a.log, run, text.Options{})
	fmt.Fprintf(a.log, "::%s::\n", token)
	if err != nil {
		a.errorf("write the text report: %v", err)
	}
	return err
}

// writeFiles writes JUnit, JSON and the job summary. A path that cannot be
// written is unusable input (exit 2); a renderer that fails is a bug (exit 3).
func (a *runAction) writeFiles(run *model.Run, in Inputs, wd string, md markdown.Options) int {
	paths := Paths{JUnit: in.JUnitPath, JSON: in.JSONPath, Summary: a.getenv("GITHUB_STEP_SUMMARY")}
	err := Write(run, paths, Options{Dir: wd, Getenv: a.getenv, Markdown: md})
	if err == nil {
		return ExitOK
	}
	a.errorf("%v", err)
	var re *Error
	if errors.As(err, &re) && !re.Rendering {
		return ExitUsage
	}
	return ExitInternal
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
	if err := Append(path, []byte(b.String())); err != nil {
		a.warnf("write job summary: %v", err)
	}
}

// writeCommands prints annotations as workflow commands.
func (a *runAction) writeCommands(anns []annotation.Annotation) {
	if err := annotation.WriteCommands(a.log, anns, annotation.CommandOptions{}); err != nil {
		a.warnf("write annotations: %v", err)
	}
}
