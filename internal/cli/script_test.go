package cli

// The front end end to end, as scripts: each testdata/script/*.txtar holds
// a workspace (a corpus and any input files), the command line or the
// action's inputs, and an event payload, and its want/ members are what
// every sink showed: the exit code, standard output (the log in the
// action), standard error, the step outputs, the job summary and the
// requests the fake GitHub recorded. go test -update rewrites the want/
// members; read their diff as a reviewer before accepting it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Members of a script archive that are not workspace files.
const (
	scriptArgs   = "args"       // the command line, one argument a line
	scriptEnv    = "env"        // KEY=VALUE lines over the defaults
	scriptEvent  = "event.json" // the event payload (the action's default: pull request 7)
	scriptFiles  = "files"      // report files the run writes in the workspace, one path a line
	scriptFaults = "faults"     // refusals of the fake GitHub, "METHOD PATH STATUS BODY" a line
	scriptWant   = "want/"      // the golden members
)

func TestScripts(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts (%v)", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := testkit.ParseArchive(data)
			got := runScript(t, a)
			if golden.Updating() {
				kept := a.Files[:0]
				for _, f := range a.Files {
					if !strings.HasPrefix(f.Name, scriptWant) {
						kept = append(kept, f)
					}
				}
				a.Files = append(kept, got...)
				if err := os.WriteFile(path, a.Format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, g := range got {
				want, ok := a.File(g.Name)
				if !ok {
					t.Errorf("%s has no %s member (run go test -update to add it)", path, g.Name)
					continue
				}
				if !bytes.Equal(want, g.Data) {
					t.Errorf("%s: %s differs (run go test -update to accept):\n%s", path, g.Name, golden.LineDiff(want, g.Data))
				}
			}
		})
	}
}

// scriptToken is the github-token of the action scripts.
const scriptToken = "ghs_scriptSECRETtoken42"

// runScript lays out the workspace of a script, runs it and returns its
// want/ members.
func runScript(t *testing.T, a *testkit.Archive) []testkit.File {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "workspace")
	files := map[string]string{}
	for _, f := range a.Files {
		switch {
		case f.Name == scriptArgs, f.Name == scriptEnv, f.Name == scriptEvent, f.Name == scriptFiles, f.Name == scriptFaults, strings.HasPrefix(f.Name, scriptWant):
		default:
			files[f.Name] = string(f.Data)
		}
	}
	testkit.WriteFiles(t, ws, files)
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	argData, _ := a.File(scriptArgs)
	args := strings.Split(strings.TrimRight(string(argData), "\n"), "\n")
	gh := githubtest.New(t, githubtest.Options{Token: scriptToken})
	gh.AddPull(7, headSHA)
	addFaults(t, gh, a)
	env := map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}
	output := filepath.Join(root, "file_commands", "set_output")
	summary := filepath.Join(root, "file_commands", "step_summary")
	if args[0] == "action" {
		env = actionEnv(t, gh.URL, ws, output, summary)
		if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
			t.Fatal(err)
		}
		event, ok := a.File(scriptEvent)
		if !ok {
			event = []byte(`{"number": 7, "pull_request": {"number": 7, "head": {"sha": "` + headSHA + `", "repo": {"full_name": "` + repoName + `"}}}}`)
		}
		env["GITHUB_EVENT_PATH"] = filepath.Join(root, "workflow", "event.json")
		testkit.WriteFiles(t, root, map[string]string{"workflow/event.json": string(event)})
	}
	envData, _ := a.File(scriptEnv)
	for _, line := range strings.Split(string(envData), "\n") {
		// A value's \n is a new line: list inputs take one item a line.
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = strings.ReplaceAll(v, `\n`, "\n")
		}
	}
	// The Python example is looked up only where a script uses it: it
	// skips (or, in CI, fails) where python3 is missing.
	py, adapter := "$PYTHON_EXAMPLE", selfAdapter(t)
	if bytes.Contains(a.Format(), []byte(py)) {
		py = testkit.PythonExample(t)
	}
	for i := range args {
		args[i] = strings.NewReplacer("$PYTHON_EXAMPLE", py, "$ADAPTER", adapter).Replace(args[i])
	}
	for k, v := range env {
		env[k] = strings.NewReplacer("$PYTHON_EXAMPLE", py, "$ADAPTER", adapter).Replace(v)
	}
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, Env{
		Stdout: &stdout, Stderr: &stderr, WorkDir: ws,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return fixedNow },
	})
	// The ::add-mask:: line is the one place the token may appear.
	if log := strings.Replace(stdout.String(), "::add-mask::"+scriptToken+"\n", "", 1); strings.Contains(log+stderr.String(), scriptToken) {
		t.Errorf("the token appears in the log")
	}
	clean := scrubber(root, ws, gh.URL, py, adapter)
	outputs := "(none)\n"
	if _, err := os.Stat(output); err == nil {
		outputs = formatOutputs(readOutputs(t, output))
	}
	sum := "(none)\n"
	if b, err := os.ReadFile(summary); err == nil {
		sum = string(b)
	}
	got := []testkit.File{
		{Name: "want/exit", Data: []byte(fmt.Sprintf("%d\n", code))},
		{Name: "want/stdout", Data: clean(stdout.String())},
		{Name: "want/stderr", Data: clean(stderr.String())},
		{Name: "want/outputs", Data: clean(outputs)},
		{Name: "want/summary", Data: clean(sum)},
		{Name: "want/requests", Data: clean(formatRequests(gh.Requests()))},
	}
	return append(got, reportFiles(t, a, ws, clean)...)
}

// addFaults makes the fake GitHub refuse the requests the script's faults
// member names, as GitHub would (status and body).
func addFaults(t *testing.T, gh *githubtest.Server, a *testkit.Archive) {
	t.Helper()
	data, _ := a.File(scriptFaults)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		f := strings.SplitN(line, " ", 4)
		status, err := strconv.Atoi(f[2])
		if len(f) != 4 || err != nil {
			t.Fatalf("faults: %q is not METHOD PATH STATUS BODY", line)
		}
		gh.AddFault(githubtest.Fault{Method: f[0], Path: f[1], Status: status, Body: f[3]})
	}
}

// junitTime is a JUnit time attribute: how long the machine took, the one
// part of a report that changes from run to run.
var junitTime = regexp.MustCompile(` time="[0-9.]+"`)

// reportFiles are the want/file/ members: the report files the script's
// files member names, as the run wrote them ("(none)" for a file it did
// not write).
func reportFiles(t *testing.T, a *testkit.Archive, ws string, clean func(string) []byte) []testkit.File {
	t.Helper()
	list, _ := a.File(scriptFiles)
	var out []testkit.File
	for _, name := range strings.Fields(string(list)) {
		data, err := os.ReadFile(filepath.Join(ws, name))
		text := "(none)\n"
		if err == nil {
			text = junitTime.ReplaceAllString(string(data), ` time="T"`)
		}
		out = append(out, testkit.File{Name: scriptWant + "file/" + name, Data: clean(text)})
	}
	return out
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
	for name, def := range actionDefaults(t) {
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

// actionDefaults reads the default of every input in action.yml.
func actionDefaults(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`^  ([a-z][a-z-]*):`)
	def := regexp.MustCompile(`^    default: (.*)$`)
	out := map[string]string{}
	in, name := false, ""
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '#' {
			in = line == "inputs:"
			continue
		}
		if !in {
			continue
		}
		if m := key.FindStringSubmatch(line); m != nil {
			name = m[1]
			out[name] = ""
		} else if m := def.FindStringSubmatch(line); m != nil && name != "" {
			out[name] = strings.Trim(m[1], `'"`)
		}
	}
	return out
}

// scrubber replaces what changes from one run to the next (folders, the
// fake's address, stop-commands tokens) with fixed words.
func scrubber(root, ws, apiURL, py, adapter string) func(string) []byte {
	stop := regexp.MustCompile(`::stop-commands::[0-9a-f]{32}|::[0-9a-f]{32}::`)
	// The job summary quotes the API's address escaped for Markdown.
	r := strings.NewReplacer(py, "$PYTHON_EXAMPLE", adapter, "$ADAPTER", ws, "$WORKSPACE", root, "$ROOT", apiURL, "$API",
		escape.Markdown(apiURL), "$API", escape.MarkdownText(apiURL), "$API")
	return func(s string) []byte {
		s = r.Replace(s)
		s = stop.ReplaceAllStringFunc(s, func(m string) string {
			if strings.HasPrefix(m, "::stop-commands::") {
				return "::stop-commands::TOKEN"
			}
			return "::TOKEN::"
		})
		if s == "" {
			s = "(none)\n"
		}
		return []byte(s)
	}
}

func formatOutputs(outs map[string]string) string {
	names := make([]string, 0, len(outs))
	for k := range outs {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "%s=%s\n", k, outs[k])
	}
	return b.String()
}

// formatRequests lists the requests; a JSON body is shown one member a
// line (key paths sorted), a text of several lines as its lines, so that a
// changed summary or comment reads as a diff of its own lines.
func formatRequests(reqs []githubtest.Request) string {
	var b strings.Builder
	for _, r := range reqs {
		fmt.Fprintf(&b, "%s %s", r.Method, r.Path)
		if r.RawQuery != "" {
			b.WriteString("?" + r.RawQuery)
		}
		b.WriteString("\n")
		if len(r.Body) == 0 {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(r.Body))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			b.Write(r.Body)
			b.WriteString("\n")
			continue
		}
		flatten(&b, "", v)
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}

func flatten(b *strings.Builder, path string, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(b, path+"."+k, v[k])
		}
	case []any:
		for i, e := range v {
			flatten(b, fmt.Sprintf("%s[%d]", path, i), e)
		}
	case string:
		if !strings.Contains(v, "\n") {
			fmt.Fprintf(b, "  %s = %q\n", strings.TrimPrefix(path, "."), v)
			return
		}
		fmt.Fprintf(b, "  %s =\n", strings.TrimPrefix(path, "."))
		for _, line := range strings.Split(v, "\n") {
			fmt.Fprintf(b, "    | %s\n", line)
		}
	default:
		fmt.Fprintf(b, "  %s = %v\n", strings.TrimPrefix(path, "."), v)
	}
}
