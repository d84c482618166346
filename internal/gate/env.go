package gate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/drp2/drp2-fixtures/internal/workspace"
)

// NewEnv is the gate's view of the process, completed from what a front
// end knows of it: the one place the working directory and the clock get
// their defaults.
func NewEnv(p Env) (Env, error) {
	wd := p.WorkDir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return Env{}, fmt.Errorf("working directory: %w", err)
		}
	}
	getenv := p.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	now := p.Now
	if now == nil {
		now = time.Now
	}
	if v := getenv("SOURCE_DATE_EPOCH"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Env{}, usagef("SOURCE_DATE_EPOCH=%q is not a whole number of seconds", v)
		}
		t := time.Unix(secs, 0).UTC()
		now = func() time.Time { return t }
	}
	redactBytes := p.RedactBytes
	if redactBytes == nil {
		redactBytes = func(b []byte) []byte { return b }
	}
	p.WorkDir, p.Getenv, p.Now, p.RedactBytes = wd, getenv, now, redactBytes
	if p.InWorkspace && p.Workspace == "" {
		if p.Workspace = getenv("GITHUB_WORKSPACE"); p.Workspace == "" {
			p.Workspace = wd
		}
	}
	return p, nil
}

// Run runs a corpus as asked: the use case of run (the action resolves
// and executes in two calls, Resolve and Execute).
func Run(ctx context.Context, env Env, req RunRequest) (*Outcome, error) {
	_, o, err := run(ctx, env, job{RunRequest: req})
	return o, err
}

// Merge judges the JSON reports of several jobs or shards as one run.
func Merge(ctx context.Context, env Env, req MergeRequest) (*Outcome, error) {
	_, o, err := run(ctx, env, job{RunRequest: RunRequest{Results: req.Results, Require: req.Require, Expectations: req.Expectations,
		FailOn: req.FailOn, Commit: req.Commit, Repository: req.Repository, RunURL: req.RunURL, Source: Source{Spelling: req.Spelling}}, mergeOnly: true})
	return o, err
}

// Coverage runs the corpus and counts which of the validator's rules its
// fixtures exercise (Outcome.Coverage), judged by the default fail-on.
func Coverage(ctx context.Context, env Env, src Source) (*Outcome, error) {
	_, o, err := run(ctx, env, job{RunRequest: RunRequest{Source: src, FailOn: DefaultFailOn, Coverage: true}})
	return o, err
}

// run resolves and executes a job.
func run(ctx context.Context, env Env, job job) (*Resolved, *Outcome, error) {
	r, err := resolve(env, job)
	if err != nil {
		return nil, nil, err
	}
	o, err := Execute(ctx, r)
	return r, o, err
}

// SaveReport writes the report files of a job in the working directory
// workDir: replaced, held to it when contained and never through a link
// below it, or appended (appendTo) to a file that is the runner's own,
// such as $GITHUB_STEP_SUMMARY, which lies outside the workspace.
func SaveReport(workDir string, contained bool) func(path string, data []byte, appendTo bool) error {
	return workspace.New(workDir, contained).SaveReport
}
