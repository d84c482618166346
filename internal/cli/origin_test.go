package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// In GitHub Actions the report of run and merge names the commit and the
// repository without flags, as the action's does: a pull request's head
// (not the test merge commit in GITHUB_SHA), a merge queue entry's
// head_sha, else GITHUB_SHA. The flags
// win; outside Actions nothing is taken from the environment.
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
	actions := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": merge, "GITHUB_REPOSITORY": "acme/runtime"}
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
		name               string
		env                map[string]string
		args               []string
		commit, repository string
	}{
		{"push", with(map[string]string{"GITHUB_EVENT_NAME": "push"}), nil, merge, "acme/runtime"},
		{"pull request", with(map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event}), nil, head, "acme/runtime"},
		{"merge queue entry", with(map[string]string{"GITHUB_EVENT_NAME": "merge_group", "GITHUB_EVENT_PATH": queue}), nil, head, "acme/runtime"},
		{"flags win", with(nil), []string{"--commit", "abcdef12", "--repository", "o/r"}, "abcdef12", "o/r"},
		{"a value of another shape", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": "main", "GITHUB_REPOSITORY": "no-slash"}, nil, "", ""},
		{"outside Actions", map[string]string{"GITHUB_SHA": merge, "GITHUB_REPOSITORY": "acme/runtime"}, nil, "", ""},
	} {
		for _, cmd := range []string{"run", "merge"} {
			dir := t.TempDir()
			env := c.env
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
				} `json:"summary"`
			}
			data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Summary.Commit != c.commit || doc.Summary.Repository != c.repository {
				t.Errorf("%s, %s: commit %q repository %q, want %q %q", c.name, cmd, doc.Summary.Commit, doc.Summary.Repository, c.commit, c.repository)
			}
		}
	}
}

func runIn(dir string, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Getenv: func(k string) string { return vars[k] }})
	return code, out.String(), errb.String()
}
