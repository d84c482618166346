package baseline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/drp2/drp2-fixtures/model"
)

// On workflow_run the checkout is the pull request's head. A pull request
// that breaks a fixture in one commit and adds a second commit must still
// be compared with the base branch, not with its own first commit (HEAD^):
// the merge base with the default branch when the event names no pull
// request (a fork's), and the comparison says which commit it used.
func TestWorkflowRunComparesWithTheBaseBranch(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	passing := projectFixture(t, "positive/compute_empty_pass_finish.json")
	good := map[string][]byte{"fixtures/positive/a.json": passing}
	writeTree(t, dir, good)
	base := commitAll(t, repo, "base")
	// refs/heads/main stays at the base; the pull request's commits follow
	// on a branch checked out as HEAD.
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/main", base)); err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/pr")); err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/pr", base)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(passing, &doc); err != nil {
		t.Fatal(err)
	}
	doc["expected"] = map[string]any{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 0}
	failing, _ := json.Marshal(doc)
	broken := map[string][]byte{"fixtures/positive/a.json": failing}
	writeTree(t, dir, broken)
	commitAll(t, repo, "break a fixture")
	broken["README"] = []byte("any second commit\n")
	writeTree(t, dir, broken)
	commitAll(t, repo, "a second commit")

	for _, c := range []struct{ name, payload, from string }{
		{"the run names its pull request", `{"workflow_run":{"pull_requests":[{"base":{"sha":"` + base.String() + `"}}]},"repository":{"default_branch":"main"}}`, ""},
		{"a fork's run names none", `{"workflow_run":{"pull_requests":[]},"repository":{"default_branch":"main"}}`, "merge base of HEAD and main"},
	} {
		t.Run(c.name, func(t *testing.T) {
			payload := filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(payload, []byte(c.payload), 0o644); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"GITHUB_EVENT_NAME": "workflow_run", "GITHUB_EVENT_PATH": payload}
			cfg := headConfig(dir)
			cmp, err := For(context.Background(), Options{Spec: Auto, Config: cfg, Getenv: func(k string) string { return env[k] }}, runHead(t, cfg))
			if err != nil {
				t.Fatal(err)
			}
			if cmp.Unavailable != "" {
				t.Fatalf("unavailable: %s", cmp.Unavailable)
			}
			if cmp.Commit != base.String() || !strings.HasPrefix(cmp.Base, base.String()[:7]) || !strings.Contains(cmp.Base, c.from) {
				t.Errorf("compared with %s (%q), want the base branch's %s", cmp.Commit, cmp.Base, base)
			}
			if d := cmp.Delta(); d.Regressed != 1 {
				t.Errorf("delta %+v: the broken fixture is not a regression", d)
			}
			for _, ch := range cmp.Changes {
				if ch.Transition != model.Regressed {
					t.Errorf("change %+v", ch)
				}
			}
		})
	}
}
