package action_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docsWorkflows returns the complete workflows the README and docs/*.md
// show (fenced yaml blocks with a top-level jobs: key), by file and place.
func docsWorkflows(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob("../../../docs/*.md")
	files = append(files, "../../../README.md")
	block := regexp.MustCompile("(?ms)^```yaml\n(.*?)^```")
	out := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range block.FindAllStringSubmatch(string(src), -1) {
			if strings.Contains(m[1], "\njobs:\n") {
				out[fmt.Sprintf("%s-%d", strings.TrimSuffix(filepath.Base(f), ".md"), i)] = m[1]
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("the docs show no workflow")
	}
	// The example workflows, which the docs show whole
	// (TestExampleWorkflowsAreShown).
	examples, _ := filepath.Glob("../../../examples/workflows/*.yml")
	for _, f := range examples {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out["example-"+filepath.Base(f)] = string(src)
	}
	return out
}

// TestExampleWorkflowsAreShown: each example workflow is shown whole in
// the docs, so the workflow a reader copies is the one actionlint checks.
func TestExampleWorkflowsAreShown(t *testing.T) {
	examples, _ := filepath.Glob("../../../examples/workflows/*.yml")
	if len(examples) == 0 {
		t.Fatal("no example workflow")
	}
	docs, _ := filepath.Glob("../../../docs/*.md")
	var all strings.Builder
	for _, f := range docs {
		src, _ := os.ReadFile(f)
		all.Write(src)
	}
	for _, f := range examples {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(all.String(), "```yaml\n"+string(src)+"```\n") {
			t.Errorf("%s is not shown whole in docs/*.md", filepath.Base(f))
		}
	}
}

// TestDocsWorkflowsLint: every workflow the docs show passes actionlint.
func TestDocsWorkflowsLint(t *testing.T) {
	bin, err := exec.LookPath("actionlint")
	if err != nil {
		t.Skip("SKIPPED: actionlint is not on PATH; install it with go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	}
	dir := t.TempDir()
	var args []string
	for name, wf := range docsWorkflows(t) {
		p := filepath.Join(dir, name+".yml")
		if err := os.WriteFile(p, []byte(wf), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	if out, err := exec.Command(bin, append([]string{"-no-color"}, args...)...).CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

// jobsOf splits a workflow into its jobs' text, by indentation.
func jobsOf(wf string) map[string]string {
	jobs := map[string]string{}
	_, body, ok := strings.Cut(wf, "\njobs:\n")
	if !ok {
		return jobs
	}
	name := ""
	for _, line := range strings.Split(body, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			break // the next top-level key
		}
		head, _, _ := strings.Cut(line, " #") // a comment after the job's name
		if head = strings.TrimSpace(head); strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && strings.HasSuffix(head, ":") {
			name = strings.TrimSuffix(head, ":")
			continue
		}
		jobs[name] += line + "\n"
	}
	return jobs
}

// TestDocsRunUntrustedRuntimesWithoutAWriteToken: a job of the docs that
// runs an implementation (the pull request's runtime) declares its own
// permissions, none of them write, and checks out without keeping the
// token in .git/config, where the runtime could read it.
func TestDocsRunUntrustedRuntimesWithoutAWriteToken(t *testing.T) {
	checked := 0
	for name, wf := range docsWorkflows(t) {
		for job, text := range jobsOf(wf) {
			if !strings.Contains(text, "--implementation") {
				continue
			}
			checked++
			perms := regexp.MustCompile(`(?m)^    permissions:(.*)\n((?:      .*\n)*)`).FindStringSubmatch(text)
			if perms == nil || strings.Contains(perms[1]+perms[2], "write") {
				t.Errorf("%s: job %s runs an implementation with the workflow's token permissions %q", name, job, perms)
			}
			for _, step := range strings.Split(text, "      - ")[1:] {
				if strings.Contains(step, "actions/checkout@") && !strings.Contains(step, "persist-credentials: false") {
					t.Errorf("%s: job %s runs an implementation after a checkout that keeps the token:\n%s", name, job, step)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no job of the docs runs an implementation: the test checks nothing")
	}
}

// docsJobs returns every job the README, docs/*.md and the example
// workflows show, whole workflows and fragments alike, by file, place and
// job name, with the events the workflow runs on ("" for a fragment).
func docsJobs(t *testing.T) map[string]struct{ on, text string } {
	t.Helper()
	files, _ := filepath.Glob("../../../docs/*.md")
	files = append(files, "../../../README.md")
	block := regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```")
	blocks := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range block.FindAllStringSubmatch(string(src), -1) {
			blocks[fmt.Sprintf("%s-%d", strings.TrimSuffix(filepath.Base(f), ".md"), i)] = m[1]
		}
	}
	examples, _ := filepath.Glob("../../../examples/workflows/*.yml")
	for _, f := range examples {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks["example-"+filepath.Base(f)] = string(src)
	}
	out := map[string]struct{ on, text string }{}
	for name, b := range blocks {
		on, _, whole := strings.Cut(b, "\njobs:\n")
		switch {
		case !whole && strings.HasPrefix(b, "jobs:\n"):
			on, b = "", "\n"+b
		case !whole:
			// Steps or jobs alone, shown as part of a workflow.
			on, b = "", "\njobs:\n"+b
		}
		for job, text := range jobsOf(b) {
			out[name+" job "+job] = struct{ on, text string }{on, text}
		}
	}
	return out
}

// TestDocsGateJobsFetchTheBase: every job the docs show that runs the
// action and checks the repository out fetches the base the gate reads
// (the comparison, the corpus search and the base's known failures on a
// pull request): `fetch-depth: 2` at least, and the whole history on
// workflow_run, whose base is the pull request's base or the merge base
// with the default branch, never the checked-out head's parent, and on
// merge_group, whose base_sha may lie several queued commits back. No
// checkout filters objects out: a blob-less clone leaves the base's
// changed files to be fetched by git, which the action never runs.
func TestDocsGateJobsFetchTheBase(t *testing.T) {
	depth := regexp.MustCompile(`fetch-depth: *(\d+)`)
	// The depth one event needs, another's otherwise.
	byEvent := regexp.MustCompile(`fetch-depth: \$\{\{ github\.event_name == '(\w+)' && '(\d+)' \|\| '(\d+)' \}\}`)
	depthOn := func(step, event string) string {
		if m := byEvent.FindStringSubmatch(step); m != nil {
			if m[1] == event {
				return m[2]
			}
			return m[3]
		}
		if m := depth.FindStringSubmatch(step); m != nil {
			return m[1]
		}
		return ""
	}
	checked := 0
	for name, job := range docsJobs(t) {
		for _, step := range strings.Split(job.text, "      - ")[1:] {
			if strings.Contains(step, "actions/checkout@") && strings.Contains(step, "filter:") {
				t.Errorf("%s: a checkout filters objects out, which the gate cannot fetch:\n%s", name, step)
			}
		}
		if !strings.Contains(job.text, "uses: drp2/drp2-fixtures@") {
			continue
		}
		for _, step := range strings.Split(job.text, "      - ")[1:] {
			if !strings.Contains(step, "actions/checkout@") || strings.Contains(step, "path:") {
				continue // another repository's checkout, beside the workspace
			}
			checked++
			if d := depthOn(step, "pull_request"); d == "" || d == "1" {
				t.Errorf("%s: the gate's checkout does not fetch the base; it needs `fetch-depth: 2` (the base commit):\n%s", name, step)
			}
			for _, event := range []string{"workflow_run", "merge_group"} {
				if strings.Contains(job.on, event+":") && depthOn(step, event) != "0" {
					t.Errorf("%s: the gate's checkout does not fetch the base on %s; it needs `fetch-depth: 0` there (the base branch, for the merge base; a merge queue's base, several commits back):\n%s", name, event, step)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no job of the docs checks out and runs the gate: the test checks nothing")
	}
}

// TestDocsReadOnlyReportsTheJobsMade: a workflow of the docs that hands
// reports to the gate reads them from the folder it downloaded the
// artifacts into (not one the pull request's checkout could hold, which
// the action refuses), runs that job even when a job it needs failed (a
// skipped gate passes a required check), uploads with
// if-no-files-found: error and never hides a failed build behind
// `|| true`.
func TestDocsReadOnlyReportsTheJobsMade(t *testing.T) {
	results := regexp.MustCompile(`(?m)^\s+results: (\S+)`)
	downloads := regexp.MustCompile(`(?m)actions/download-artifact@\S+\n\s+with:(?: \{ path: ([^ ,}]+)| *\n\s+path: (\S+))`)
	// Every yaml block, the fragments that are not whole workflows too.
	files, _ := filepath.Glob("../../../docs/*.md")
	block := regexp.MustCompile("(?ms)^```yaml\n(.*?)^```")
	for _, f := range append(files, "../../../README.md") {
		src, _ := os.ReadFile(f)
		for _, m := range block.FindAllStringSubmatch(string(src), -1) {
			for _, r := range results.FindAllStringSubmatch(m[1], -1) {
				if strings.HasPrefix(r[1], "artifacts/") {
					t.Errorf("%s: results %s: read from a folder the checkout could hold", f, r[1])
				}
			}
			// The uploads of a report a gate reads (not of the gate's own).
			feeds := strings.Contains(m[1], "--implementation") || strings.Contains(m[1], "results:")
			if strings.Contains(m[1], "|| true") || feeds && strings.Contains(m[1], "upload-artifact@") && !strings.Contains(m[1], "if-no-files-found: error") {
				t.Errorf("%s: a workflow hides a failed job (|| true, or an upload without if-no-files-found: error):\n%s", f, m[1])
			}
		}
	}
	checked := 0
	for name, wf := range docsWorkflows(t) {
		if strings.Contains(wf, "|| true") {
			t.Errorf("%s: a step ends in || true", name)
		}
		for _, step := range strings.Split(wf, "      - ")[1:] {
			if strings.Contains(wf, "--implementation") && strings.Contains(step, "actions/upload-artifact@") && !strings.Contains(step, "if-no-files-found: error") {
				t.Errorf("%s: an upload without if-no-files-found: error:\n%s", name, step)
			}
		}
		for job, text := range jobsOf(wf) {
			var folders []string
			for _, m := range downloads.FindAllStringSubmatch(text, -1) {
				folders = append(folders, m[1]+m[2])
			}
			for _, m := range results.FindAllStringSubmatch(text, -1) {
				checked++
				if len(folders) == 0 || !strings.HasPrefix(m[1], folders[0]+"/") || folders[0] == "artifacts" {
					t.Errorf("%s: job %s reads results %s, not from a folder it downloads into that the repository does not track (%v)", name, job, m[1], folders)
				}
				if strings.Contains(text, "needs:") && !strings.Contains(text, "if: always()") {
					t.Errorf("%s: job %s reads results without if: always(): a job it needs that failed skips it", name, job)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no workflow of the docs reads results: the test checks nothing")
	}
}

// TestDocsWorkflowsRunOnePerPullRequest: every workflow the docs show
// that runs for a pull request keeps one run per pull request at a time,
// cancelling the run of a superseded commit, so an older verdict never
// lands after a newer one.
func TestDocsWorkflowsRunOnePerPullRequest(t *testing.T) {
	group := regexp.MustCompile(`(?m)^concurrency:\n(?:  #.*\n)*  group: (.*)\n  cancel-in-progress: true\n`)
	for name, wf := range docsWorkflows(t) {
		if !strings.Contains(wf, "\n  pull_request:") && !strings.Contains(wf, "\n  workflow_run:") {
			continue
		}
		m := group.FindStringSubmatch(wf)
		switch {
		case m == nil:
			t.Errorf("%s: no concurrency group with cancel-in-progress: true", name)
		case !strings.Contains(m[1], "pull_request.number") && !strings.Contains(m[1], "workflow_run.head_branch"):
			t.Errorf("%s: the concurrency group %s is not one per pull request", name, m[1])
		}
	}
}
