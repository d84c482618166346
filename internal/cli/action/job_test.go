package action_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

func TestActionEmptyRunFailsAndNamesTheInputs(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	w.Env["INPUT_NAME"] = "no-such-fixture"
	w.Env["INPUT_FAIL-ON"] = "mismatch,empty"
	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || !strings.Contains(r.Log, `input name \"no-such-fixture\"`) && !strings.Contains(r.Log, `input name "no-such-fixture"`) {
		t.Errorf("exit %d\n%s", r.Code, r.Log)
	}
	w.Env["INPUT_FAIL-ON"] = "mismatch"
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Errorf("opted out: exit %d\n%s", r.Code, r.Log)
	}
}

func TestActionRefusesReportPathsOutsideTheWorkspace(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	w.Env["INPUT_JUNIT-PATH"] = "../junit.xml"
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	r := w.Run(t, inProcess)
	if r.Code != ExitUsage || !strings.Contains(r.Log, "outside the workspace") {
		t.Errorf("exit %d\n%s", r.Code, r.Log)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(w.Dir), "junit.xml")); err == nil {
		t.Error("the report was written outside the workspace")
	}
	if !strings.Contains(r.Summary, "DRP2") || r.Outputs["junit-path"] != "" || r.Outputs["json-path"] == "" {
		t.Errorf("the summary and outputs were not written as they should:\n%v\n%s", r.Outputs, r.Summary)
	}
}

func TestActionLogFoldsPasses(t *testing.T) {
	w := newWorkspace(t, "", 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 2)
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	r := w.Run(t, inProcess)
	if !strings.Contains(r.Log, "::group::") || !strings.Contains(r.Log, "::endgroup::") {
		t.Errorf("no folding in the action log:\n%s", r.Log)
	}
	// Every line between a stop-commands marker and its end is inert; the
	// group lines are outside.
	inside := false
	for _, line := range strings.Split(r.Log, "\n") {
		switch {
		case strings.HasPrefix(line, "::stop-commands::"):
			inside = true
		case inside && strings.HasPrefix(line, "::") && strings.HasSuffix(line, "::") && !strings.Contains(line[2:len(line)-2], ":"):
			inside = false
		case strings.HasPrefix(line, "::group::") && inside:
			t.Errorf("a group line inside stop-commands: %q", line)
		}
	}
}

// Files the action reads by a path it was given can come from the pull
// request: a link to a secret elsewhere on the machine must not be read
// into a report.
func TestActionNeverReadsInputsThroughALink(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "environ")
	os.WriteFile(secret, []byte("GITHUB_TOKEN=ghs_SECRET_FROM_A_LINK\n"), 0o644)
	for _, input := range []string{"INPUT_KNOWN-FAILURES", "INPUT_MANIFEST", "INPUT_RESULTS", "INPUT_BASELINE"} {
		t.Run(input, func(t *testing.T) {
			w := newWorkspace(t, "", 0, "")
			writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
			if err := os.Symlink(secret, filepath.Join(w.Dir, "innocent.txt")); err != nil {
				t.Skip("no symlinks here:", err)
			}
			w.Env["INPUT_GITHUB-TOKEN"] = ""
			w.Env["INPUT_FAIL-ON"] = "never"
			w.Env[input] = "innocent.txt"
			r := w.Run(t, inProcess)
			if r.Code != ExitUsage || !strings.Contains(r.Log, "symbolic link") {
				t.Errorf("exit %d\n%s", r.Code, r.Log)
			}
			for name, text := range map[string]string{"log": r.Log, "summary": r.Summary} {
				if strings.Contains(text, "ghs_SECRET_FROM_A_LINK") {
					t.Errorf("the link's target reached the %s", name)
				}
			}
			if data, _ := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json")); bytes.Contains(data, []byte("ghs_SECRET_FROM_A_LINK")) {
				t.Error("the link's target reached the JSON report")
			}
		})
	}
	w := newWorkspace(t, "", 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_KNOWN-FAILURES"] = secret // outside the workspace
	if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "outside the workspace") {
		t.Errorf("a known-failures file outside the workspace: exit %d\n%s", r.Code, r.Log)
	}
}

// When a report cannot be written the step fails, and the conclusion
// output and the created check run say so too, by the verdict (its title
// says why, not only its conclusion); every unwritable report is named and
// left out of the outputs.
func TestUnwritableReportsFailTheConclusion(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, "")
	w.Env["INPUT_CHECK-RUN-ID"] = ""
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 2)
	elsewhere := t.TempDir()
	for _, name := range []string{"drp2-fixtures-junit.xml", "drp2-fixtures.json"} {
		if err := os.Symlink(filepath.Join(elsewhere, name), filepath.Join(w.Dir, name)); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	r := w.Run(t, inProcess)
	if r.Code != ExitUsage {
		t.Errorf("exit %d", r.Code)
	}
	if r.Outputs["conclusion"] != "failure" || r.Outputs["junit-path"] != "" || r.Outputs["json-path"] != "" {
		t.Errorf("outputs %v", r.Outputs)
	}
	if !strings.Contains(r.Log, "JUnit report") || !strings.Contains(r.Log, "JSON report") {
		t.Errorf("not every unwritable report is named:\n%s", r.Log)
	}
	if runs := gh.CheckRuns(); len(runs) != 1 || runs[0].Conclusion != "failure" ||
		!strings.HasPrefix(runs[0].Title, "DRP2 conformance: all 2 fixtures passed; not every check could be made") {
		t.Errorf("check runs %+v", runs)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written through the links: %v", entries)
	}
}

// On workflow_run the job's own check run sits on the default branch: the
// results get a check run on the pull request's head instead, even with
// action.yml's default check-run-id.
func TestWorkflowRunCreatesACheckRunOnTheHead(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	gh.AddPull(12, headSHA)
	job := gh.JobCheckRun("publish", mergeSHA)
	w := newWorkspace(t, gh.URL, 0, "")
	w.Env["GITHUB_EVENT_NAME"] = "workflow_run"
	w.Env["INPUT_CHECK-RUN-ID"] = fmt.Sprint(job)
	os.WriteFile(w.Event, []byte(`{"workflow_run": {"head_sha": "`+headSHA+`", "pull_requests": []}}`), 0o644)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 1)
	r := w.Run(t, inProcess)
	var onHead int
	for _, cr := range gh.CheckRuns() {
		if cr.HeadSHA == headSHA && cr.Conclusion == "failure" {
			onHead++
		}
	}
	if onHead != 1 {
		t.Errorf("check runs on the head: %d; all: %+v\n%s", onHead, gh.CheckRuns(), r.Log)
	}
}

func TestActionRefusesLinkedSchemas(t *testing.T) {
	w := newWorkspace(t, "", 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 1)
	if err := os.Symlink("/etc/hostname", filepath.Join(w.Dir, "schema.json")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	for _, input := range []string{"INPUT_COMMAND-SCHEMA", "INPUT_FIXTURE-SCHEMA"} {
		w.Env[input] = "schema.json"
		if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "symbolic link") {
			t.Errorf("%s: exit %d\n%s", input, r.Code, r.Log)
		}
		w.Env[input] = ""
	}
}
