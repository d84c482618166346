package cli

// The command line end to end, as scripts: each testdata/script/*.txtar
// holds a workspace (a corpus and any input files) and the command line,
// and its want/ members are what every sink showed: the exit code,
// standard output, standard error, the step outputs, the job summary and
// the requests the fake GitHub recorded (none: the command line never
// calls GitHub). go test -update rewrites the want/ members; read their
// diff as a reviewer before accepting it. The action's scripts are
// internal/cli/action's; the runner's shared half is internal/testkit's.

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

func TestScripts(t *testing.T) {
	testkit.RunScripts(t, filepath.Join("testdata", "script", "*.txtar"), golden.Updating(), golden.LineDiff, runScript)
}

// runScript lays out the workspace of a script, runs its command line and
// returns its want/ members.
func runScript(t *testing.T, a *testkit.Archive) []testkit.File {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "workspace")
	testkit.ScriptWorkspace(t, a, ws)
	args := testkit.ScriptCommand(a)
	if args[0] == "action" {
		t.Fatalf("the action's scripts are internal/cli/action's")
	}
	gh := githubtest.New(t, githubtest.Options{Token: token})
	for _, f := range testkit.ScriptFaultList(t, a) {
		gh.AddFault(githubtest.Fault{Method: f.Method, Path: f.Path, Status: f.Status, Body: f.Body})
	}
	env := map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}
	testkit.SetScriptEnv(a, env)
	adapter := selfAdapter(t)
	py := testkit.ScriptPlaceholders(t, a, ws, args, env, adapter)
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, Env{
		Stdout: &stdout, Stderr: &stderr, WorkDir: ws,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return fixedNow },
	})
	// The token the fake knows is never given to the command line: it
	// must appear nowhere.
	if strings.Contains(stdout.String()+stderr.String(), token) {
		t.Errorf("the token appears in the output")
	}
	var requests []testkit.Request
	for _, r := range gh.Requests() {
		requests = append(requests, testkit.Request{Method: r.Method, Path: r.Path, RawQuery: r.RawQuery, Body: r.Body})
	}
	// The job summary quotes the API's address escaped for Markdown.
	clean := testkit.Scrubber(py, "$PYTHON_EXAMPLE", adapter, "$ADAPTER", ws, "$WORKSPACE", root, "$ROOT", gh.URL, "$API",
		escape.Markdown(gh.URL), "$API", escape.MarkdownText(gh.URL), "$API")
	return testkit.ScriptGot(t, a, ws, testkit.ScriptSinks{Code: code, Stdout: stdout.String(), Stderr: stderr.String(),
		OutputFile: filepath.Join(root, "file_commands", "set_output"), SummaryFile: filepath.Join(root, "file_commands", "step_summary"),
		Requests: requests}, clean)
}
