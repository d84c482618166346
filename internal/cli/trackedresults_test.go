package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// streamsCorpus is twelve passing streams: enough that each of four
// shards runs some.
func streamsCorpus() map[string]string {
	files := map[string]string{}
	for i := range 12 {
		name := fmt.Sprintf("stream_%02d", i)
		files["fixtures/positive/"+name+".json"] = testkit.Fixture(name, testkit.Success, testkit.Hello, testkit.Reply)
	}
	return files
}

// commitAll commits everything in dir, a repository made on first use.
func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err == git.ErrRepositoryNotExists {
		repo, err = git.PlainInit(dir, false)
	}
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "ci", Email: "ci@example.com", When: time.Unix(1767225600, 0)}
	if _, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true}); err != nil {
		t.Fatal(err)
	}
}

// shardReports writes the reports of four shards of the corpus in dir
// run through the project's adapter, as four shard jobs would, at
// <folder>/shard-K/r.json.
func shardReports(t *testing.T, dir, folder string) {
	t.Helper()
	for k := 1; k <= 4; k++ {
		out := fmt.Sprintf("%s/shard-%d/r.json", folder, k)
		if code, o, e := run(t, dir, "run", "--shard", fmt.Sprintf("%d/4", k), "--fail-on", "never",
			"--implementation", selfAdapter(t), "--json-out", out); code != ExitOK {
			t.Fatalf("shard %d: exit %d\n%s%s", k, code, o, e)
		}
	}
}

// Four shard reports committed by a pull request where the shards
// workflow downloads its artifacts make a whole and say every fixture
// passed; merge refuses a report git tracks, naming it. The same reports
// downloaded (untracked) merge.
func TestMergeRefusesReportsTheRepositoryTracks(t *testing.T) {
	dir := testkit.Corpus(t, streamsCorpus())
	commitAll(t, dir, "base")
	shardReports(t, dir, "artifacts")
	commitAll(t, dir, "head: four reports")
	code, out, errs := run(t, dir, "merge", "artifacts/*/*.json")
	want := "results artifacts/shard-1/r.json: git tracks this file"
	if code != ExitUsage || !strings.Contains(errs, want) {
		t.Fatalf("exit %d, want %d and %q\n%s%s", code, ExitUsage, want, out, errs)
	}
	shardReports(t, dir, "drp2-artifacts")
	if code, out, errs := run(t, dir, "merge", "drp2-artifacts/*/*.json"); code != ExitOK {
		t.Fatalf("downloaded reports: exit %d\n%s%s", code, out, errs)
	}
}
