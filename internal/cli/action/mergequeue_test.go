package action_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// mergeGroupPayload is the merge_group webhook payload GitHub sends when
// a merge queue asks for checks (action checks_requested): the queue's
// commit (head_sha, head_commit) on its branch gh-readonly-queue/..., and
// the commit of the branch it is to be merged into it was built on.
func mergeGroupPayload(head, base string) map[string]any {
	return map[string]any{
		"action": "checks_requested",
		"merge_group": map[string]any{
			"head_sha": head,
			"head_ref": "refs/heads/gh-readonly-queue/main/pr-7-" + base,
			"base_sha": base,
			"base_ref": "refs/heads/main",
			"head_commit": map[string]any{
				"id": head, "tree_id": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
				"message":   "Merge pull request #7 from acme/feature\n\nRender the widget",
				"timestamp": "2026-01-01T00:00:00Z",
				"author":    map[string]any{"name": "Ada", "email": "ada@example.com"},
				"committer": map[string]any{"name": "GitHub", "email": "noreply@github.com"},
			},
		},
		"repository": map[string]any{"id": 1296269, "node_id": "R_kgDOABCDEF", "name": "widgets", "full_name": repoName,
			"private": false, "owner": map[string]any{"login": "acme", "id": 1, "type": "Organization"}, "default_branch": "main"},
		"sender": map[string]any{"login": "github-merge-queue[bot]", "id": 118344674, "type": "Bot"},
	}
}

// A merge queue entry is gated as its pull request was: on merge_group the
// action compares with the payload's base_sha, not HEAD^ (here the commit
// of another pull request queued before it in the same group), chooses the
// corpus from that base, publishes the check run on head_sha, the commit
// the required check waits for, and writes no comment, as there is no
// pull request; the log says so once. The pull request ahead broke the
// corpus and brought a green one where the search looks first: compared
// with HEAD^, or with the corpus HEAD^ chooses, the queue would pass.
func TestMergeQueueEntry(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, repoName)
	w.Env["INPUT_CORPUS"] = ""
	searchable(t, filepath.Join(w.Dir, "tests/corpus"), 0, 4)
	base := commitWorkspace(t, w.Dir, "main").String()
	searchable(t, filepath.Join(w.Dir, "tests/corpus"), 2, 2)
	writeCorpus(t, filepath.Join(w.Dir, "fixtures"), 0, 1)
	ahead := commitWorkspace(t, w.Dir, "queue: pull request 6").String()
	testkit.WriteFiles(t, w.Dir, map[string]string{"NOTES.md": "pull request 7\n"})
	head := commitWorkspace(t, w.Dir, "queue: pull request 7").String()
	if parent := firstParent(t, w.Dir); parent != ahead || parent == base {
		t.Fatalf("HEAD^ is %s, want the queued commit %s, not the base %s", parent, ahead, base)
	}
	enqueue(t, w, head, base)

	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["total"] != "4" || r.Outputs["failed"] != "2" || r.Outputs["regressed"] != "2" {
		t.Fatalf("exit %d, outputs %v: want the base's corpus, two of its fixtures regressed\n%s", r.Code, r.Outputs, r.Log)
	}
	var doc struct {
		Commit     string `json:"commit"`
		Comparison struct {
			Base, Commit string
		} `json:"comparison"`
	}
	report, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(report, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Comparison.Commit != base || doc.Comparison.Base != base[:7] {
		t.Errorf("compared with %+v, want base_sha %s (HEAD^ is %s)", doc.Comparison, base, ahead)
	}
	headline := "corpus tests/corpus found by search at base " + base[:7] + " (this checkout alone would give fixtures)"
	if !strings.Contains(r.Summary, escape.MarkdownText(headline)) {
		t.Errorf("the corpus is not the base's:\n%.800s", r.Summary)
	}
	runs := gh.CheckRuns()
	if len(runs) == 0 {
		t.Fatalf("no check run\n%s", r.Log)
	}
	for _, cr := range runs {
		if cr.HeadSHA != head || cr.Conclusion != "failure" {
			t.Errorf("check run %q on %s, %s: want a failure on head_sha %s", cr.Name, cr.HeadSHA, cr.Conclusion, head)
		}
	}
	for _, req := range gh.Requests() {
		if strings.Contains(req.Path, "/issues/") || strings.Contains(req.Path, "/pulls") {
			t.Errorf("%s %s: a merge queue entry has no pull request to comment on or look up", req.Method, req.Path)
		}
	}
	said := "merge queue entry refs/heads/gh-readonly-queue/main/pr-7-" + base + " at " + head + ": it belongs to no pull request, so no pull request comment is written"
	if n := strings.Count(r.Log, "merge queue entry"); n != 1 || !strings.Contains(r.Log, said) {
		t.Errorf("the log says %d times that there is no pull request, want once %q:\n%s", n, said, r.Log)
	}
	if !strings.Contains(r.Summary, escape.Markdown("this run is a merge queue entry, which belongs to no pull request")) {
		t.Errorf("the job summary does not say why there is no comment:\n%s", r.Summary)
	}
}

// enqueue makes w the step of a merge_group workflow run for the queue's
// commit head, built on base, with the payload and the variables GitHub
// gives it.
func enqueue(t *testing.T, w *sandbox, head, base string) {
	t.Helper()
	data, _ := json.Marshal(mergeGroupPayload(head, base))
	if err := os.WriteFile(w.Event, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env["GITHUB_EVENT_NAME"] = "merge_group"
	w.Env["GITHUB_SHA"] = head
	w.Env["GITHUB_REF"] = "refs/heads/gh-readonly-queue/main/pr-7-" + base
}

// A queue entry cannot excuse a regression of the pull requests it holds:
// an entry another queued pull request added to the known-failures list,
// with the failure it excuses, is held to the list of the queue's base,
// which did not have it. Compared with HEAD^, that pull request's commit,
// nothing would have changed and the queue would pass.
func TestMergeQueueEntryCannotExcuseARegression(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, repoName)
	w.Env["INPUT_FAIL-ON"] = "mismatch,empty,regressions"
	w.Env["INPUT_KNOWN-FAILURES"] = "known-failures.txt"
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 3)
	testkit.WriteFiles(t, w.Dir, map[string]string{"known-failures.txt": "# none yet\n"})
	base := commitWorkspace(t, w.Dir, "main").String()
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 2)
	testkit.WriteFiles(t, w.Dir, map[string]string{"known-failures.txt": "positive/render_case_000.json  fixing it later\n"})
	commitWorkspace(t, w.Dir, "queue: pull request 6 breaks a fixture and lists it")
	testkit.WriteFiles(t, w.Dir, map[string]string{"NOTES.md": "pull request 7\n"})
	head := commitWorkspace(t, w.Dir, "queue: pull request 7").String()
	enqueue(t, w, head, base)

	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" || r.Outputs["regressed"] != "1" {
		t.Fatalf("a regression listed in the queue: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	note := "the known-failures list known-failures.txt changed against base " + base[:7] + " (1 added, 0 removed): 1 failure no entry of the base excuses counts"
	if !strings.Contains(r.Log, note) {
		t.Errorf("the log does not say the list changed against the queue's base:\n%s", r.Log)
	}
}

// firstParent is HEAD^ of the repository at dir.
func firstParent(t *testing.T, dir string) string {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return c.ParentHashes[0].String()
}

// TestDocsWorkflowsRunInMergeQueues: every workflow of the docs and
// examples that gates pull requests also runs on merge_group, where a
// required check that never runs stalls the queue; and its concurrency
// group falls back to github.ref, the queue entry's own, when there is no
// pull request number. TestDocsGateJobsFetchTheBase holds their checkouts to
// the history the queue's base needs.
func TestDocsWorkflowsRunInMergeQueues(t *testing.T) {
	topLevel := func(wf, key string) string {
		_, body, ok := strings.Cut("\n"+wf, "\n"+key+":\n")
		if !ok {
			return ""
		}
		var b strings.Builder
		for _, line := range strings.Split(body, "\n") {
			if line != "" && !strings.HasPrefix(line, " ") {
				break
			}
			b.WriteString(line + "\n")
		}
		return b.String()
	}
	gating := 0
	for name, wf := range docsWorkflows(t) {
		on := topLevel(wf, "on")
		if !strings.Contains(on, "\n  pull_request:") && !strings.HasPrefix(on, "  pull_request:") {
			continue
		}
		gating++
		if !strings.Contains(on, "  merge_group:") {
			t.Errorf("%s runs on pull_request but not on merge_group:\n%s", name, on)
		}
		if group := topLevel(wf, "concurrency"); strings.Contains(group, "pull_request.number") && !strings.Contains(group, "|| github.ref }}") {
			t.Errorf("%s: the concurrency group has no github.ref for a merge queue entry:\n%s", name, group)
		}
	}
	if gating < 3 {
		t.Errorf("%d workflows gate pull requests, want the README's, the shards' and the WebGPU one at least", gating)
	}
}
