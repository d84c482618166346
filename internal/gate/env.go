package gate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// Process is what a front end knows of its process, from which NewEnv
// makes the gate's Env: the one place the working directory and the clock
// get their defaults.
type Process struct {
	// WorkDir is the working directory; empty means the process's.
	WorkDir string
	// Getenv reads an environment variable; nil means none are set.
	Getenv func(string) string
	// Now is the wall clock; nil means time.Now. SOURCE_DATE_EPOCH, when
	// set, replaces it with a fixed time (reproducible reports).
	Now func() time.Time
	// Redact hides the process's secrets in a value, RedactBytes in a
	// file about to be written; nil hides nothing.
	Redact      func(v any)
	RedactBytes func([]byte) []byte
	// ReadReport reads a JSON report: the JSON report's own reader.
	ReadReport func([]byte) (*model.Run, error)
	// ToolVersion is recorded in every report.
	ToolVersion string
	// Sized is told the number of fixtures a run is about to run (Env.Sized).
	Sized func(fixtures int)
	// InWorkspace names the files of what the sinks show relative to the
	// workspace: $GITHUB_WORKSPACE, else the working directory (Env.Workspace).
	InWorkspace bool
}

// NewEnv is the gate's view of the process.
func NewEnv(p Process) (Env, error) {
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
			return Env{}, Usagef("SOURCE_DATE_EPOCH=%q is not a whole number of seconds", v)
		}
		t := time.Unix(secs, 0).UTC()
		now = func() time.Time { return t }
	}
	redactBytes := p.RedactBytes
	if redactBytes == nil {
		redactBytes = func(b []byte) []byte { return b }
	}
	workspace := ""
	if p.InWorkspace {
		if workspace = getenv("GITHUB_WORKSPACE"); workspace == "" {
			workspace = wd
		}
	}
	return Env{WorkDir: wd, Now: now, Getenv: getenv, ToolVersion: p.ToolVersion, Redact: p.Redact, RedactBytes: redactBytes,
		ReadReport: p.ReadReport, Sized: p.Sized, Workspace: workspace}, nil
}

// Run resolves and executes a job: the use case of run, merge, coverage
// and the action.
func Run(ctx context.Context, env Env, job Job) (*Resolved, *Outcome, error) {
	r, err := Resolve(env, job)
	if err != nil {
		return nil, nil, err
	}
	o, err := Execute(ctx, r)
	return r, o, err
}

// ErrorLines are the messages of err, one for each joined error.
func ErrorLines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

// SaveReport writes the report files of a job in the working directory
// workDir: replaced, held to it when contained and never through a link
// below it, or appended (appendTo) to a file that is the runner's own,
// such as $GITHUB_STEP_SUMMARY, which lies outside the workspace.
func SaveReport(workDir string, contained bool) func(path string, data []byte, appendTo bool) error {
	return workspace.New(workDir, contained).SaveReport
}
