package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In GitHub Actions the report of run and merge names the commit and the
// repository without flags, as the action's does: a pull request's head
// (not the test merge commit in GITHUB_SHA), a merge queue entry's
// head_sha, else GITHUB_SHA; and the workflow run, as the action's comment
// links it. The flags win; outside Actions nothing is taken from the
// environment.
func TestReportOriginFromActions(t *testing.T) {
	const merge, head = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"pull_request": {"number": 7, "head": {"sha": "`+head+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	queue := filepath.Join(t.TempDir(), "queue.json")
	if err := os.WriteFile(queue, []byte(`{"action": "checks_requested", "merge_group": {"head_sha": "`+head+`", "base_sha": "`+merge+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	actions := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": merge, "GITHUB_REPOSITORY": "acme/runtime", "GITHUB_RUN_ID": "42"}
	const runURL = "https://github.com/acme/runtime/actions/runs/42"
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for _, e := range []map[string]string{actions, extra} {
			for k, v := range e {
				m[k] = v
			}
		}
		return m
	}
	for _, c := range []struct {
		name                       string
		env                        map[string]string
		args                       []string
		commit, repository, runURL string
	}{
		{"push", with(map[string]string{"GITHUB_EVENT_NAME": "push"}), nil, merge, "acme/runtime", runURL},
		{"pull request", with(map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event}), nil, head, "acme/runtime", runURL},
		{"merge queue entry", with(map[string]string{"GITHUB_EVENT_NAME": "merge_group", "GITHUB_EVENT_PATH": queue}), nil, head, "acme/runtime", runURL},
		{"a re-run on a server of its own", with(map[string]string{"GITHUB_SERVER_URL": "https://ghe.example/", "GITHUB_RUN_ATTEMPT": "3"}), nil, merge, "acme/runtime", "https://ghe.example/acme/runtime/actions/runs/42/attempts/3"},
		{"flags win", with(nil), []string{"--commit", "abcdef12", "--repository", "o/r", "--run-url", "https://github.com/o/r/actions/runs/7"}, "abcdef12", "o/r", "https://github.com/o/r/actions/runs/7"},
		{"a run of another repository is left out", with(nil), []string{"--repository", "o/r"}, merge, "o/r", ""},
		{"the run names its repository", nil, []string{"--run-url", "https://github.com/o/r/actions/runs/7/attempts/2"}, "", "o/r", "https://github.com/o/r/actions/runs/7/attempts/2"},
		{"a value of another shape", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": "main", "GITHUB_REPOSITORY": "no-slash", "GITHUB_RUN_ID": "42"}, nil, "", "", ""},
		{"a run id of another shape", with(map[string]string{"GITHUB_RUN_ID": "42?x"}), nil, merge, "acme/runtime", ""},
		{"outside Actions", map[string]string{"GITHUB_SHA": merge, "GITHUB_REPOSITORY": "acme/runtime", "GITHUB_RUN_ID": "42"}, nil, "", "", ""},
	} {
		for _, cmd := range []string{"run", "merge"} {
			dir := t.TempDir()
			env := map[string]string{}
			if c.env != nil {
				env = c.env
			}
			env["SOURCE_DATE_EPOCH"] = "1767225600"
			args := append([]string{"run", "--json-out", "first.json"}, c.args...)
			if cmd == "merge" {
				if code, _, errs := runIn(dir, map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}, "run", "--json-out", "first.json"); code != ExitOK {
					t.Fatalf("run: %d %s", code, errs)
				}
				args = append([]string{"merge", "first.json"}, c.args...)
			}
			args = append(args, "--json-out", "r.json")
			if code, _, errs := runIn(dir, env, args...); code != ExitOK {
				t.Fatalf("%s %s: exit %d %s", c.name, cmd, code, errs)
			}
			var doc struct {
				Summary struct {
					Commit     string `json:"commit"`
					Repository string `json:"repository"`
					RunURL     string `json:"run_url"`
				} `json:"summary"`
			}
			data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if s := doc.Summary; s.Commit != c.commit || s.Repository != c.repository || s.RunURL != c.runURL {
				t.Errorf("%s, %s: commit %q repository %q run %q, want %q %q %q", c.name, cmd, s.Commit, s.Repository, s.RunURL, c.commit, c.repository, c.runURL)
			}
		}
	}
}

func runIn(dir string, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Getenv: func(k string) string { return vars[k] }})
	return code, out.String(), errb.String()
}

// A --run-url of another shape, or of another repository than
// --repository's, is a mistake on the command line, refused as --commit's.
func TestRunURLFlagRefused(t *testing.T) {
	for _, args := range [][]string{
		{"--run-url", "http://github.com/o/r/actions/runs/7"},
		{"--run-url", "https://github.com/o/r/actions/runs/7/jobs/1"},
		{"--run-url", "https://github.com/o/r/actions/runs/7", "--repository", "o/s"},
	} {
		for _, cmd := range []string{"run", "merge"} {
			code, _, errs := runIn(t.TempDir(), nil, append([]string{cmd}, append(args, "r.json")...)...)
			if code != ExitUsage || !strings.Contains(errs, "--run-url") {
				t.Errorf("%s %q: exit %d, %s", cmd, args, code, errs)
			}
		}
	}
}
