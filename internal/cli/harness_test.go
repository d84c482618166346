package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

const (
	token    = "ghs_e2eSECRETtoken42"
	repoName = "acme/widgets"
	mergeSHA = "merge0000000000000000000000000000000000"
	headSHA  = "head11111111111111111111111111111111111"
)

var fixedNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// writeCorpus lays out a corpus with `failing` fixtures that expect success
// but carry a command the command schema rejects, and `passing` ones that
// are a plain handshake. The fixtures carry no description: fixtures that
// differ by name alone are told apart by their file digest.
func writeCorpus(t *testing.T, root string, failing, passing int) {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for i := 0; i < failing+passing; i++ {
		name := fmt.Sprintf("render_case_%03d", i)
		cmds := testkit.Handshake
		if i < failing {
			cmds += `,
    {"cmd": "NoSuchCommand", "id": 1}`
		}
		files["positive/"+name+".json"] = fmt.Sprintf(`{
  "name": %q,
  "version": {"major": 2, "minor": 0},
  "commands": [
    %s
  ],
  "expected": {"outcome": "success"}
}
`, name, cmds)
	}
	testkit.WriteFiles(t, root, files)
}

// sandbox is one simulated job: the workspace, the file-command files
// and the event payload, as GitHub lays them out for a Docker action.
type sandbox struct {
	dir, output, summary, event string
	env                         map[string]string
}

// newWorkspace sets up the environment of a Docker action step on a
// pull_request event (or push when pr is 0). headRepo differs from the
// repository for a fork.
func newWorkspace(t *testing.T, apiURL string, pr int, headRepo string) *sandbox {
	t.Helper()
	root := t.TempDir()
	w := &sandbox{
		dir:     filepath.Join(root, "workspace"),
		output:  filepath.Join(root, "file_commands", "set_output"),
		summary: filepath.Join(root, "file_commands", "step_summary"),
		event:   filepath.Join(root, "workflow", "event.json"),
	}
	for _, d := range []string{w.dir, filepath.Dir(w.output), filepath.Dir(w.event)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eventName := "push"
	payload := map[string]any{"after": mergeSHA}
	if pr != 0 {
		eventName = "pull_request"
		payload = map[string]any{"number": pr, "pull_request": map[string]any{
			"number": pr,
			"head":   map[string]any{"sha": headSHA, "repo": map[string]any{"full_name": headRepo}},
		}}
	}
	data, _ := json.Marshal(payload)
	if err := os.WriteFile(w.event, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.env = map[string]string{
		"CI": "true", "HOME": "/github/home",
		"GITHUB_ACTIONS": "true", "GITHUB_API_URL": apiURL, "GITHUB_SERVER_URL": githubtest.WebURL,
		"GITHUB_REPOSITORY": repoName, "GITHUB_SHA": mergeSHA, "GITHUB_EVENT_NAME": eventName,
		"GITHUB_EVENT_PATH": w.event, "GITHUB_OUTPUT": w.output, "GITHUB_STEP_SUMMARY": w.summary,
		"GITHUB_WORKSPACE": w.dir, "GITHUB_RUN_ID": "77", "GITHUB_REF": "refs/pull/7/merge",
		"RUNNER_OS": "Linux", "RUNNER_TEMP": "/home/runner/work/_temp",
		// action.yml defaults, as the runner passes them, hyphens kept.
		"INPUT_CORPUS": "corpus", "INPUT_COMMAND-SCHEMA": "", "INPUT_FIXTURE-SCHEMA": "",
		"INPUT_PATHS": "", "INPUT_NAME": "", "INPUT_TAGS": "",
		"INPUT_JUNIT-PATH": "drp2-fixtures-junit.xml", "INPUT_JSON-PATH": "drp2-fixtures.json",
		"INPUT_GITHUB-TOKEN": token, "INPUT_CHECK-NAME": "DRP2 fixtures", "INPUT_CHECK-RUN-ID": "",
		"INPUT_REPORT-NAME": "", "INPUT_COMMENT": "always", "INPUT_ANNOTATIONS": "check-run", "INPUT_FAIL-ON": "mismatch,empty",
		"INPUT_MANIFEST": "", "INPUT_COVERAGE": "false", "INPUT_EXPLORE": "", "INPUT_EXPLORE-OUT": "",
		"INPUT_IMPLEMENTATION": "", "INPUT_RESULTS": "",
		"INPUT_BASELINE": "auto", "INPUT_KNOWN-FAILURES": "",
		"INPUT_COMMENT-STYLE": "compact", "INPUT_JOB-SUMMARY": "true", "INPUT_MARKDOWN-PATH": "", "INPUT_FINDING-ANNOTATIONS": "all",
		// Keep retries short; the transport's own tests cover the production pacing.
		action.EnvBudget: "3s", action.EnvAttemptTimeout: "500ms", action.EnvWriteInterval: "0s",
	}
	return w
}

// result is what one step left behind.
type result struct {
	code    int
	log     string
	outputs map[string]string
	summary string
}

// runner runs the action in a workspace: in-process or as the built binary.
type stepRunner func(t *testing.T, w *sandbox) (code int, log string)

func inProcess(t *testing.T, w *sandbox) (int, string) {
	var out bytes.Buffer
	code := Main(context.Background(), []string{"action"}, Env{
		Getenv: func(k string) string { return w.env[k] }, Stdout: &out, Stderr: &out,
		Now: func() time.Time { return fixedNow }, WorkDir: w.dir,
	})
	return code, out.String()
}

func (w *sandbox) run(t *testing.T, step stepRunner) result {
	t.Helper()
	// Each step gets fresh file-command files, as on GitHub.
	os.Remove(w.output)
	os.Remove(w.summary)
	code, log := step(t, w)
	r := result{code: code, log: log, outputs: readOutputs(t, w.output)}
	if b, err := os.ReadFile(w.summary); err == nil {
		r.summary = string(b)
	}
	// The ::add-mask:: line is the one place the token may appear: the
	// runner reads it and masks the value everywhere after.
	if strings.Contains(strings.Replace(log, "::add-mask::"+token+"\n", "", 1), token) || strings.Contains(r.summary, token) {
		t.Errorf("the token appears in the log or the summary")
	}
	for _, v := range r.outputs {
		if strings.Contains(v, token) {
			t.Errorf("the token appears in an output")
		}
	}
	return r
}

// readOutputs parses a GITHUB_OUTPUT file (name<<DELIM ... DELIM).
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			t.Fatalf("output line %d is not name<<DELIM: %q", i+1, lines[i])
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("output %s has no closing delimiter", name)
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}
