package action_test

import (
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
)

// The report job of the trust boundary's recipe, as GitHub runs it on a
// pull request: the checkout of the pull request's merge commit (base and
// head in its history), the runtime job's artifacts downloaded beside it,
// and the action given them as results. resultsWorkspace lays out the
// base, with a corpus of three passing fixtures, and returns the
// workspace and the base commit; the caller adds the head.
func resultsWorkspace(t *testing.T) (*sandbox, string) {
	t.Helper()
	w := newWorkspace(t, "http://127.0.0.1:1", 7, "")
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 3)
	base := commitWorkspace(t, w.Dir, "base")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "corpus"
	return w, base.String()
}

// runtimeReport runs the corpus of dir through the project's own adapter
// (a runtime that passes everything) as the runtime job does, writing the
// JSON report to out, with more flags.
func runtimeReport(t *testing.T, dir, out string, flags ...string) {
	t.Helper()
	args := append([]string{"run", "--corpus", "corpus", "--fail-on", "never", "--implementation", selfAdapter(t), "--json-out", out}, flags...)
	if code, stdout, stderr := run(t, dir, args...); code != ExitOK {
		t.Fatalf("the runtime job: exit %d\n%s%s", code, stdout, stderr)
	}
}

// A pull request that breaks its runtime's build uploads no report, and
// commits one of its own where the old recipe downloaded the artifacts
// (artifacts/*/*.json): every fixture passed, it says. The action refuses
// a results file git tracks, naming it, whatever the pattern that found
// it; the same report downloaded as an artifact is read.
func TestActionRefusesAReportThePullRequestCommitted(t *testing.T) {
	w, base := resultsWorkspace(t)
	forged := "artifacts/drp2-runtime/drp2-runtime.json"
	runtimeReport(t, w.Dir, forged)
	commitWorkspace(t, w.Dir, "head: a report says the runtime passed")
	withBase(t, w, base)
	w.Env["INPUT_RESULTS"] = "artifacts/*/*.json"
	r := w.Run(t, inProcess)
	want := "results " + forged + ": git tracks this file"
	if r.Code != ExitUsage || !strings.Contains(r.Log, want) || !strings.Contains(r.Log, "a result must come from the job that made it") {
		t.Fatalf("exit %d, want %d and %q\n%s", r.Code, ExitUsage, want, r.Log)
	}
	if r.Outputs["conclusion"] == "success" {
		t.Errorf("conclusion %q", r.Outputs["conclusion"])
	}

	// Added to the index, not committed: still the checkout's.
	untracked := "drp2-artifacts/drp2-runtime/drp2-runtime.json"
	runtimeReport(t, w.Dir, untracked)
	w.Env["INPUT_RESULTS"] = untracked
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Fatalf("an artifact the checkout does not track: exit %d\n%s", r.Code, r.Log)
	}
	stage(t, w.Dir, untracked)
	if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "results "+untracked+": git tracks this file") {
		t.Fatalf("a report in the index: exit %d\n%s", r.Code, r.Log)
	}
}

// stage adds the file rel of the repository dir to its index, uncommitted.
func stage(t *testing.T, dir, rel string) {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Add(rel); err != nil {
		t.Fatal(err)
	}
}
