package action_test

// The action end to end, as scripts: each testdata/script/*.txtar holds a
// workspace (a corpus and any input files), the action's inputs and an
// event payload, and its want/ members are what every sink showed: the
// exit code, the log, standard error (the action writes none), the step
// outputs, the job summary and the requests the fake GitHub recorded. go
// test -update rewrites the want/ members; read their diff as a reviewer
// before accepting it. The runner's shared half is internal/testkit's.

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/internal/version"
	"github.com/drp2/drp2-fixtures/report/escape"
)

func TestScripts(t *testing.T) {
	testkit.RunScripts(t, filepath.Join("testdata", "script", "*.txtar"), golden.Updating(), golden.LineDiff, runScript)
}

// scriptToken is the github-token of the action scripts.
const scriptToken = "ghs_scriptSECRETtoken42"

// runScript lays out the workspace and the event of a script, runs the
// action with its inputs and returns its want/ members.
func runScript(t *testing.T, a *testkit.Archive) []testkit.File {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "workspace")
	testkit.ScriptWorkspace(t, a, ws)
	if args := testkit.ScriptCommand(a); len(args) != 1 || args[0] != "action" {
		t.Fatalf("an action script's command line is action, not %q", args)
	}
	gh := githubtest.New(t, githubtest.Options{Token: scriptToken})
	gh.AddPull(7, headSHA)
	for _, f := range testkit.ScriptFaultList(t, a) {
		gh.AddFault(githubtest.Fault{Method: f.Method, Path: f.Path, Status: f.Status, Body: f.Body})
	}
	output := filepath.Join(root, "file_commands", "set_output")
	summary := filepath.Join(root, "file_commands", "step_summary")
	env := actionEnv(t, gh.URL, ws, output, summary)
	if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
		t.Fatal(err)
	}
	event, ok := a.File(testkit.ScriptEvent)
	if !ok {
		event = []byte(`{"number": 7, "pull_request": {"number": 7, "head": {"sha": "` + headSHA + `", "repo": {"full_name": "` + repoName + `"}}}}`)
	}
	env["GITHUB_EVENT_PATH"] = filepath.Join(root, "workflow", "event.json")
	testkit.WriteFiles(t, root, map[string]string{"workflow/event.json": string(event)})
	testkit.SetScriptEnv(a, env)
	adapter := selfAdapter(t)
	py := testkit.ScriptPlaceholders(t, a, ws, nil, env, adapter)
	tool := version.String()
	if v, ok := a.File(testkit.ScriptToolVersion); ok {
		tool = strings.TrimSpace(string(v))
	}
	code, log := runVersion(t, context.Background(), &sandbox{Dir: ws, Env: env}, fixedNow, tool)
	// The ::add-mask:: line is the one place the token may appear.
	if strings.Contains(strings.Replace(log, "::add-mask::"+scriptToken+"\n", "", 1), scriptToken) {
		t.Errorf("the token appears in the log")
	}
	var requests []testkit.Request
	for _, r := range gh.Requests() {
		requests = append(requests, testkit.Request{Method: r.Method, Path: r.Path, RawQuery: r.RawQuery, Body: r.Body})
	}
	// The job summary quotes the API's address escaped for Markdown; the
	// run's nonce, in the check run's external id and the comment's hidden
	// line, differs on every run.
	clean := testkit.Scrubber(py, "$PYTHON_EXAMPLE", adapter, "$ADAPTER", ws, "$WORKSPACE", root, "$ROOT", gh.URL, "$API",
		escape.Markdown(gh.URL), "$API", escape.MarkdownText(gh.URL), "$API", runNonce(requests), "$NONCE")
	return testkit.ScriptGot(t, a, ws, testkit.ScriptSinks{Code: code, Stdout: log, OutputFile: output, SummaryFile: summary, Requests: requests}, clean)
}

// actionEnv is a Docker action step's environment with the inputs at the
// defaults action.yml declares (an empty check-run-id, as on Enterprise
// Server, so that the check run the action creates is recorded).
func actionEnv(t *testing.T, apiURL, ws, output, summary string) map[string]string {
	env := map[string]string{
		"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_API_URL": apiURL, "GITHUB_SERVER_URL": githubtest.WebURL,
		"GITHUB_REPOSITORY": repoName, "GITHUB_SHA": mergeSHA, "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_OUTPUT": output, "GITHUB_STEP_SUMMARY": summary,
		"GITHUB_WORKSPACE": ws, "GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REF": "refs/pull/7/merge",
		"SOURCE_DATE_EPOCH": "1767225600",
		action.EnvBudget:    "3s", action.EnvAttemptTimeout: "2s", action.EnvWriteInterval: "0s",
	}
	for name, def := range testkit.ActionDefaults(t, "../../../action.yml") {
		switch {
		case name == "github-token":
			def = scriptToken
		case strings.HasPrefix(def, "${{"):
			def = ""
		}
		env["INPUT_"+strings.ToUpper(name)] = def
	}
	return env
}

// runNonce is the nonce the run sent in its requests, or a string no text
// holds when it sent none.
func runNonce(requests []testkit.Request) string {
	nonce := regexp.MustCompile(`(?:nonce=|drp2-fixtures run [0-9]+\.[0-9]+ )([0-9a-f]{16})`)
	for _, r := range requests {
		if m := nonce.FindSubmatch(r.Body); m != nil {
			return string(m[1])
		}
	}
	return "\x00no nonce\x00"
}
