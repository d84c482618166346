package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// run runs the CLI in-process in dir with a frozen clock.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Getenv: func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1767225600"
		}
		return ""
	}}
	code = Main(context.Background(), args, env)
	checkReportSchema(t, dir, args, out.String())
	return code, out.String(), errb.String()
}

var passing = testkit.Passing

func withFailure() map[string]string {
	m := map[string]string{}
	for k, v := range passing {
		m[k] = v
	}
	m["fixtures/negative/wrong.json"] = testkit.Fixture("wrong", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`, testkit.Hello, testkit.Reply)
	m["fixtures/positive/broken.json"] = `{"name": `
	return m
}

func TestExitCodes(t *testing.T) {
	good := testkit.Corpus(t, passing)
	os.WriteFile(filepath.Join(good, "bad-schema.json"), []byte(`{"type": 12}`), 0o644)
	bad := testkit.Corpus(t, withFailure())
	cases := []struct {
		name string
		dir  string
		args []string
		want int
	}{
		{"all match", good, []string{"run"}, ExitOK},
		{"mismatch and corpus error", bad, []string{"run"}, ExitMismatch},
		{"filtered to the passing ones", bad, []string{"run", "--name", "ok"}, ExitOK},
		{"no command", good, nil, ExitUsage},
		{"unknown command", good, []string{"frobnicate"}, ExitUsage},
		{"unknown flag", good, []string{"run", "--nope"}, ExitUsage},
		{"bad format", good, []string{"run", "--format", "xml"}, ExitUsage},
		{"missing corpus", good, []string{"run", "--corpus", "missing"}, ExitUsage},
		{"schema that does not compile", good, []string{"run", "--command-schema", "bad-schema.json"}, ExitUsage},
		{"path outside the corpus", good, []string{"run", "--corpus", "fixtures", "/"}, ExitUsage},
		{"unwritable report", good, []string{"run", "--junit", "fixtures"}, ExitUsage},
		{"help", good, []string{"help"}, ExitOK},
		{"version", good, []string{"version"}, ExitOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.dir, c.args...)
			if code != c.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.want, out, errOut)
			}
		})
	}
}

func TestTextReport(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	code, out, _ := run(t, dir, "run")
	if code != ExitMismatch {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"FAIL  fixtures/negative/wrong.json:10:15 [negative]",
		"      expected semantic_validation DRP2_ERR_USAGE at command 1, got success",
		"ERROR fixtures/positive/broken.json",
		"corpus error",
		"Summary: discovered 4, run 4, passed 2, failed 2, corpus errors 1, findings 0",
		"DRP2 conformance: 2 of 4 fixtures failed (1 mismatch, 1 corpus error)",
		"Command schema: embedded (sha256 ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONKeys(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	_, out, _ := run(t, dir, "run", "--format", "json")
	var doc struct {
		Summary map[string]any    `json:"summary"`
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	keys := []string{"fixture_path", "fixture_name", "actual_outcome", "actual_phase", "actual_code",
		"actual_command_index", "passed", "message", "expected_outcome", "expected_phase",
		"expected_code", "expected_command_index"}
	for _, raw := range doc.Results {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.Token()
		for i, want := range keys {
			tok, _ := dec.Token()
			if tok != want {
				t.Fatalf("key %d = %v, want %q in %s", i, tok, want, raw)
			}
			var skip json.RawMessage
			dec.Decode(&skip)
		}
	}
	var positive map[string]any
	json.Unmarshal(doc.Results[3], &positive)
	if positive["fixture_path"] != "fixtures/positive/ok.json" || positive["expected_phase"] != nil || positive["actual_code"] != nil {
		t.Errorf("positive result: %v", positive)
	}
	for _, k := range []string{"discovered", "run", "passed", "failed"} {
		if _, ok := doc.Summary[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
}

func TestReportFilesAreWrittenAndDeterministic(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	render := func() map[string][]byte {
		out := t.TempDir()
		summary := filepath.Join(out, "summary.md")
		os.WriteFile(summary, []byte("earlier step\n"), 0o644)
		code, _, errOut := run(t, dir, "run", "--junit", filepath.Join(out, "r.xml"),
			"--json-out", filepath.Join(out, "r.json"), "--summary", summary)
		if code != ExitMismatch {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		files := map[string][]byte{}
		for _, f := range []string{"r.xml", "r.json", "summary.md"} {
			data, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatal(err)
			}
			files[f] = data
		}
		return files
	}
	first, second := render(), render()
	for name, data := range first {
		if !bytes.Equal(data, second[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	if !bytes.HasPrefix(first["summary.md"], []byte("earlier step\n")) {
		t.Error("the summary was not appended")
	}
	if !bytes.Contains(first["r.xml"], []byte("<testsuites")) || !bytes.Contains(first["r.json"], []byte(`"fixture_path"`)) {
		t.Error("report files lack their content")
	}
}

func TestGitHubFormat(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	_, out, _ := run(t, dir, "run", "--format", "github")
	if !strings.Contains(out, "::error file=fixtures/negative/wrong.json,line=") {
		t.Errorf("no workflow-command annotation:\n%s", out)
	}
}
