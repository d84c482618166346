package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// errorLines are the log's ::error lines that contain s.
func errorLines(log, s string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "::error") && strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}

// A report that cannot be written is said once, naming the report, the
// path and the cause; the step exits 2 with the rest written.
func TestReportFileErrorSaidOnce(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	if err := os.WriteFile(filepath.Join(w.Dir, "blocker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env["INPUT_JSON-PATH"] = "blocker/report.json"
	r := w.Run(t, inProcess)
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" {
		t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	if said := errorLines(r.Log, "write JSON report: blocker is not a folder"); len(said) != 1 {
		t.Errorf("the report's error is said %d times, want once:\n%s", len(said), r.Log)
	}
}

// The files the runner hands the step fail the step alike, exit 2 (a
// record that could not be written), each error naming its file and said
// once (a later write of the same file is not tried); the other one is
// still written.
func TestRunnerFileErrorsShareAnExitCode(t *testing.T) {
	want := map[string]string{"GITHUB_OUTPUT": "write the step outputs to GITHUB_OUTPUT: open ", "GITHUB_STEP_SUMMARY": "write job summary: mkdir "}
	for _, variable := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		t.Run(variable, func(t *testing.T) {
			// A read-only token: publishing fails, and its notes would
			// go to the job summary too.
			gh := githubtest.New(t, githubtest.Options{Token: token, ReadOnly: true})
			w := newWorkspace(t, gh.URL, 7, repoName)
			writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
			// The runner makes the folder of its files.
			if err := os.MkdirAll(filepath.Dir(w.Output), 0o755); err != nil {
				t.Fatal(err)
			}
			blocker := filepath.Join(t.TempDir(), "blocker")
			if err := os.WriteFile(blocker, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			written := map[string]string{"GITHUB_OUTPUT": w.Output, "GITHUB_STEP_SUMMARY": w.Summary}
			delete(written, variable)
			w.Env[variable] = filepath.Join(blocker, "file")
			code, log := inProcess(t, w)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d\n%s", code, ExitUsage, log)
			}
			if said := errorLines(log, blocker); strings.Count(log, blocker) != 1 || len(said) != 1 || !strings.Contains(said[0], want[variable]) {
				t.Errorf("the error of %s: %d ::error lines, %d lines naming the file, want one saying %q:\n%s",
					variable, len(said), strings.Count(log, blocker), want[variable], log)
			}
			for _, other := range written {
				if st, err := os.Stat(other); err != nil || st.Size() == 0 {
					t.Errorf("%s was not written: %v", other, err)
				}
			}
		})
	}
}

// Under Actions without GITHUB_OUTPUT, the outputs cannot be written: a
// warning says so, once. Outside Actions nothing is said.
func TestMissingOutputFileWarned(t *testing.T) {
	for _, actions := range []string{"true", ""} {
		w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
		w.Env["INPUT_GITHUB-TOKEN"] = ""
		w.Env["GITHUB_ACTIONS"] = actions
		delete(w.Env, "GITHUB_OUTPUT")
		writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
		code, log := inProcess(t, w)
		if code != ExitOK {
			t.Errorf("GITHUB_ACTIONS=%q: exit %d\n%s", actions, code, log)
		}
		warned := strings.Count(log, "::warning title=drp2-fixtures::GITHUB_OUTPUT is not set")
		if want := map[string]int{"true": 1, "": 0}[actions]; warned != want {
			t.Errorf("GITHUB_ACTIONS=%q: warned %d times, want %d:\n%s", actions, warned, want, log)
		}
	}
}
