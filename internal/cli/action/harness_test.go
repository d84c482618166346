package action_test

// The sandbox the action's tests run in: a workspace laid out as GitHub
// lays it out for a Docker action step (internal/testkit), and action.Run
// given the environment the command line gives it.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli"
	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/github"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/internal/version"
)

const (
	token    = testkit.Token
	repoName = testkit.RepoName
	mergeSHA = testkit.MergeSHA
	headSHA  = testkit.HeadSHA
)

var fixedNow = testkit.FixedNow

// Exit codes of the action: internal/exit's, as the command line's are.
const (
	ExitOK       = exit.OK
	ExitMismatch = exit.Failed
	ExitUsage    = exit.Usage
)

type (
	sandbox    = testkit.Workspace
	result     = testkit.Result
	stepRunner = testkit.StepRunner
)

// writeCorpus lays out a corpus of failing and passing render fixtures.
func writeCorpus(t *testing.T, root string, failing, passing int) {
	t.Helper()
	testkit.WriteRenderCorpus(t, root, failing, passing)
}

// newWorkspace sets up the environment of a Docker action step on a
// pull_request event (or push when pr is 0). headRepo differs from the
// repository for a fork.
func newWorkspace(t *testing.T, apiURL string, pr int, headRepo string) *sandbox {
	t.Helper()
	return testkit.NewWorkspace(t, testkit.Step{APIURL: apiURL, WebURL: githubtest.WebURL, PR: pr, HeadRepo: headRepo,
		// Keep retries short; the transport's own tests cover the production pacing.
		Env: map[string]string{action.EnvBudget: "3s", action.EnvAttemptTimeout: "500ms", action.EnvWriteInterval: "0s"}})
}

// inProcess runs the action in the workspace at fixedNow.
func inProcess(t *testing.T, w *sandbox) (int, string) {
	return runAt(t, context.Background(), w, fixedNow)
}

// runAt runs action.Run as the command line's action subcommand does: the
// log behind a redactor of the process's secrets (none here; the action
// adds its token), the raw log beside it for the ::add-mask:: line, and
// the GitHub API paced for a fake on loopback.
func runAt(t *testing.T, ctx context.Context, w *sandbox, now time.Time) (int, string) {
	t.Helper()
	return runVersion(t, ctx, w, now, version.String())
}

// runVersion is runAt by a build whose version line is tool. The JSON
// report the run writes is held to the report schema closed to members it
// does not describe.
func runVersion(t *testing.T, ctx context.Context, w *sandbox, now time.Time, tool string) (int, string) {
	t.Helper()
	report := ""
	if p := w.Env["INPUT_JSON-PATH"]; p != "" && !filepath.IsAbs(p) {
		report = filepath.Join(w.Dir, p)
	}
	before, _ := os.ReadFile(report)
	defer func() {
		if after, err := os.ReadFile(report); err == nil && !bytes.Equal(before, after) {
			validateReport(t, "the action's "+w.Env["INPUT_JSON-PATH"], after)
		}
	}()
	var out bytes.Buffer
	redactor := secret.NewRedactor()
	log := redactor.Writer(&out)
	code := exit.Code(action.Run(ctx, action.Env{Log: log, RawLog: &out, Getenv: func(k string) string { return w.Env[k] },
		Now: func() time.Time { return now }, WorkDir: w.Dir, Redactor: redactor, ToolVersion: tool,
		Pacing: github.Pacing{BaseDelay: 10 * time.Millisecond}}))
	log.Flush()
	return code, out.String()
}

// inBinary runs the built binary's action subcommand with exactly the
// environment a Docker action step gets.
func sawRequest(gh *githubtest.Server, method, pathPrefix string) bool {
	for _, r := range gh.Requests() {
		if r.Method == method && strings.HasPrefix(r.Path, pathPrefix) {
			return true
		}
	}
	return false
}

// run runs the command line in dir with a frozen clock: what another step
// or job of the workflow did before the action ran.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Getenv: func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1767225600"
		}
		return ""
	}}
	code = cli.Main(context.Background(), args, env)
	for i, a := range args {
		if a == "--json-out" && i+1 < len(args) && (args[0] == "run" || args[0] == "merge") {
			p := args[i+1]
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if data, err := os.ReadFile(p); err == nil {
				validateReport(t, args[0]+"'s "+args[i+1], data)
			}
		}
	}
	return code, out.String(), errb.String()
}

// putFile writes body to path, creating folders.
func putFile(t *testing.T, path, body string) {
	t.Helper()
	testkit.WriteFiles(t, filepath.Dir(path), map[string]string{filepath.Base(path): body})
}

// The test binary doubles as `drp2-fixtures adapter` when this variable is
// set, so that the runtime harness can start the project's own adapter
// without building the binary.
const selfAdapterEnv = "DRP2_ACTION_TEST_ADAPTER"

func TestMain(m *testing.M) {
	if os.Getenv(selfAdapterEnv) != "" {
		os.Exit(cli.Main(context.Background(), []string{"adapter"}, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	code := m.Run()
	if binary.path != "" {
		os.RemoveAll(filepath.Dir(binary.path))
	}
	os.Exit(code)
}

// selfAdapter is the command line that runs the project's adapter.
func selfAdapter(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "env " + selfAdapterEnv + "=1 '" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
}
