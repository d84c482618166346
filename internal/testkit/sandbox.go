package testkit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The job the sandbox simulates: its token, repository and commits.
const (
	Token    = "ghs_e2eSECRETtoken42"
	RepoName = "acme/widgets"
	MergeSHA = "merge0000000000000000000000000000000000"
	HeadSHA  = "head11111111111111111111111111111111111"
)

// FixedNow is the clock of a step.
var FixedNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// WriteRenderCorpus lays out a corpus with `failing` fixtures that expect
// success but carry a command the command schema rejects, and `passing`
// ones that are a plain handshake. The fixtures carry no description:
// fixtures that differ by name alone are told apart by their file digest.
func WriteRenderCorpus(t testing.TB, root string, failing, passing int) {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for i := 0; i < failing+passing; i++ {
		name := fmt.Sprintf("render_case_%03d", i)
		cmds := Handshake
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
	WriteFiles(t, root, files)
}

// Workspace is one simulated job step: the workspace, the file-command
// files and the event payload, as GitHub lays them out for a Docker
// action, and the step's environment.
type Workspace struct {
	Dir, Output, Summary, Event string
	Env                         map[string]string
}

// Step is where a workspace's step runs: the API's address, the server's
// web address, the pull request (0: a push) and the repository of its
// head (another one for a fork), and variables set over the defaults.
type Step struct {
	APIURL, WebURL string
	PR             int
	HeadRepo       string
	Env            map[string]string
}

// NewWorkspace sets up the environment of a Docker action step on a
// pull_request event (or push when s.PR is 0).
func NewWorkspace(t testing.TB, s Step) *Workspace {
	t.Helper()
	root := t.TempDir()
	w := &Workspace{
		Dir:     filepath.Join(root, "workspace"),
		Output:  filepath.Join(root, "file_commands", "set_output"),
		Summary: filepath.Join(root, "file_commands", "step_summary"),
		Event:   filepath.Join(root, "workflow", "event.json"),
	}
	for _, d := range []string{w.Dir, filepath.Dir(w.Output), filepath.Dir(w.Event)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eventName := "push"
	payload := map[string]any{"after": MergeSHA}
	if s.PR != 0 {
		eventName = "pull_request"
		payload = map[string]any{"number": s.PR, "pull_request": map[string]any{
			"number": s.PR,
			"head":   map[string]any{"sha": HeadSHA, "repo": map[string]any{"full_name": s.HeadRepo}},
		}}
	}
	data, _ := json.Marshal(payload)
	if err := os.WriteFile(w.Event, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env = stepEnv(s.APIURL, s.WebURL, eventName, w)
	for k, v := range s.Env {
		w.Env[k] = v
	}
	return w
}

// stepEnv is the environment of a step with action.yml's defaults.
func stepEnv(apiURL, webURL, eventName string, w *Workspace) map[string]string {
	return map[string]string{
		"CI": "true", "HOME": "/github/home",
		"GITHUB_ACTIONS": "true", "GITHUB_API_URL": apiURL, "GITHUB_SERVER_URL": webURL,
		"GITHUB_REPOSITORY": RepoName, "GITHUB_SHA": MergeSHA, "GITHUB_EVENT_NAME": eventName,
		"GITHUB_EVENT_PATH": w.Event, "GITHUB_OUTPUT": w.Output, "GITHUB_STEP_SUMMARY": w.Summary,
		"GITHUB_WORKSPACE": w.Dir, "GITHUB_RUN_ID": "77", "GITHUB_REF": "refs/pull/7/merge",
		"RUNNER_OS": "Linux", "RUNNER_TEMP": "/home/runner/work/_temp",
		// action.yml defaults, as the runner passes them, hyphens kept.
		"INPUT_CORPUS": "corpus", "INPUT_COMMAND-SCHEMA": "", "INPUT_FIXTURE-SCHEMA": "",
		"INPUT_PATHS": "", "INPUT_NAME": "", "INPUT_TAGS": "", "INPUT_SHARD": "", "INPUT_SHARD-TIMINGS": "",
		"INPUT_JUNIT-PATH": "drp2-fixtures-junit.xml", "INPUT_JUNIT-STRICT": "false", "INPUT_JSON-PATH": "drp2-fixtures.json",
		"INPUT_GITHUB-TOKEN": Token, "INPUT_CHECK-NAME": "DRP2 fixtures", "INPUT_CHECK-RUN-ID": "",
		"INPUT_REPORT-NAME": "", "INPUT_COMMENT": "always", "INPUT_ANNOTATIONS": "check-run", "INPUT_FAIL-ON": "mismatch,empty",
		"INPUT_MANIFEST": "", "INPUT_COVERAGE": "false", "INPUT_EXPLORE": "", "INPUT_EXPLORE-TIME": "2m", "INPUT_EXPLORE-OUT": "",
		"INPUT_IMPLEMENTATION": "", "INPUT_RESULTS": "", "INPUT_REQUIRE-IMPLEMENTATIONS": "", "INPUT_REQUIRE": "", "INPUT_EXPECT-ADAPTER": "",
		"INPUT_BASELINE": "auto", "INPUT_KNOWN-FAILURES": "",
		"INPUT_EXPECTATIONS": "", "INPUT_RETRIES": "0", "INPUT_UPDATE-EXPECTATIONS": "", "INPUT_UPDATE-REFS": "false", "INPUT_RERUN-FROM": "",
		"INPUT_COMMENT-STYLE": "compact", "INPUT_JOB-SUMMARY": "true", "INPUT_MARKDOWN-PATH": "", "INPUT_FINDING-ANNOTATIONS": "all",
	}
}

// Result is what one step left behind.
type Result struct {
	Code    int
	Log     string
	Outputs map[string]string
	Summary string
}

// StepRunner runs the action in a workspace: in-process or as the built
// binary.
type StepRunner func(t *testing.T, w *Workspace) (code int, log string)

// Run runs a step in the workspace and reads what it left; the token
// must appear nowhere but in the ::add-mask:: line.
func (w *Workspace) Run(t *testing.T, step StepRunner) Result {
	t.Helper()
	// Each step gets fresh file-command files, as on GitHub.
	os.Remove(w.Output)
	os.Remove(w.Summary)
	code, log := step(t, w)
	r := Result{Code: code, Log: log, Outputs: ReadOutputs(t, w.Output)}
	if b, err := os.ReadFile(w.Summary); err == nil {
		r.Summary = string(b)
	}
	// The ::add-mask:: line is the one place the token may appear: the
	// runner reads it and masks the value everywhere after.
	if strings.Contains(strings.Replace(log, "::add-mask::"+Token+"\n", "", 1), Token) || strings.Contains(r.Summary, Token) {
		t.Errorf("the token appears in the log or the summary")
	}
	for _, v := range r.Outputs {
		if strings.Contains(v, Token) {
			t.Errorf("the token appears in an output")
		}
	}
	return r
}

// ReadOutputs parses a GITHUB_OUTPUT file (name<<DELIM ... DELIM).
func ReadOutputs(t testing.TB, path string) map[string]string {
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
