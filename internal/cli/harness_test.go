package cli

// The job sandbox (internal/testkit) for the tests that run the action
// subcommand through the command line.

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

const token = testkit.Token

var fixedNow = testkit.FixedNow

type sandbox = testkit.Workspace

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

// inProcess runs the action subcommand of the command line in the
// workspace.
func inProcess(t *testing.T, w *sandbox) (int, string) {
	var out bytes.Buffer
	code := Main(context.Background(), []string{"action"}, Env{
		Getenv: func(k string) string { return w.Env[k] }, Stdout: &out, Stderr: &out,
		Now: func() time.Time { return fixedNow }, WorkDir: w.Dir,
	})
	return code, out.String()
}
