package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// commitWorkspace commits everything in dir (a repository made on first
// use) and returns the commit.
func commitWorkspace(t *testing.T, dir, msg string) plumbing.Hash {
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
	sig := &object.Signature{Name: "ci", Email: "ci@example.com", When: fixedNow}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// withBase writes the pull request's base commit into the event payload.
func (w *sandbox) withBase(t *testing.T, base string) {
	t.Helper()
	data, err := os.ReadFile(w.event)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	ev["pull_request"].(map[string]any)["base"] = map[string]any{"sha": base}
	data, _ = json.Marshal(ev)
	if err := os.WriteFile(w.event, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// baseAndHead makes the workspace a repository whose base commit has six
// passing fixtures and whose head (the working tree, as actions/checkout
// leaves it) breaks two, drops one and adds one.
func baseAndHead(t *testing.T, w *sandbox) plumbing.Hash {
	t.Helper()
	corpus := filepath.Join(w.dir, "corpus")
	writeCorpus(t, corpus, 0, 6)
	base := commitWorkspace(t, w.dir, "base")
	writeCorpus(t, corpus, 2, 3)
	added := filepath.Join(corpus, "positive", "render_added.json")
	data, err := os.ReadFile(filepath.Join(corpus, "positive", "render_case_004.json"))
	if err != nil {
		t.Fatal(err)
	}
	// A new name and new commands: an added fixture, not a renamed one.
	body := strings.NewReplacer("render_case_004", "render_added", `"client_name": "t"`, `"client_name": "added"`).Replace(string(data))
	if err := os.WriteFile(added, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	commitWorkspace(t, w.dir, "head")
	w.withBase(t, base.String())
	return base
}

// baselineScenarios: the action compares with the pull request's base
// commit from the workspace's git objects, and says what to do when the
// checkout is too shallow to have it.
func baselineScenarios(t *testing.T, step stepRunner) {
	t.Run("compared with the base commit", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		w := newWorkspace(t, gh.URL, 7, repoName)
		base := baseAndHead(t, w)
		short := base.String()[:7]
		r := w.run(t, step)
		if r.code != ExitMismatch {
			t.Fatalf("exit %d, want 1\n%s", r.code, r.log)
		}
		want := map[string]string{"regressed": "2", "fixed": "0", "added": "1", "removed": "1", "expectation-changed": "0", "broken": "0"}
		for k, v := range want {
			if r.outputs[k] != v {
				t.Errorf("output %s = %q, want %q", k, r.outputs[k], v)
			}
		}
		headline := "2 regressed (2 stream changed), 1 added, 1 removed against base [`" + short + "`]"
		if !strings.HasPrefix(r.summary, "### 🔴 "+headline) {
			t.Errorf("the job summary does not lead with the delta:\n%.600s", r.summary)
		}
		comments := gh.Comments(7)
		if len(comments) != 1 || !strings.Contains(comments[0].Body, " -->\n### 🔴 "+headline) {
			t.Errorf("the comment does not lead with the delta: %+v", comments)
		}
		runs := gh.CheckRuns()
		if len(runs) != 1 || !strings.Contains(runs[0].Summary, headline) {
			t.Errorf("the check-run summary does not carry the delta: %+v", runs)
		}
		doc, err := os.ReadFile(filepath.Join(w.dir, "drp2-fixtures.json"))
		if err != nil || !strings.Contains(string(doc), `"commit": "`+base.String()+`"`) {
			t.Errorf("the JSON report does not carry the comparison: %v", err)
		}

		// comment: changes rewrites the comment when the delta changed,
		// and leaves it alone when only the base commit did.
		w.env["INPUT_COMMENT"] = "changes"
		commitWorkspace(t, w.dir, "an empty commit: the same tree as its parent")
		patched := func() bool {
			return sawRequest(gh, "PATCH", "/repos/acme/widgets/issues/comments/")
		}
		for _, c := range []struct {
			base  string
			patch bool
		}{
			{base.String(), false}, // the same base: nothing changed
			{"HEAD~1", true},       // no regressions now: the delta changed
			{"HEAD", false},        // another commit, the same tree: the same delta
		} {
			w.withBase(t, c.base)
			gh.ResetRequests()
			w.run(t, step)
			if patched() != c.patch {
				t.Errorf("comment: changes against %s: rewritten %v, want %v", c.base, patched(), c.patch)
			}
		}
		w.withBase(t, base.String())
		w.env["INPUT_COMMENT"] = "always"

		// fail-on regressions fails on the two fixtures that passed on
		// the base, not on the failures it had already.
		w.env["INPUT_FAIL-ON"] = "regressions"
		if r := w.run(t, step); r.code != ExitMismatch || !strings.Contains(r.log, "2 fixtures passed on base "+short+" and fail now") {
			t.Errorf("fail-on regressions: exit %d\n%s", r.code, r.log)
		}
		// Compared with the head itself, nothing regressed: the two
		// failures still fail and the step passes.
		w.withBase(t, "HEAD")
		if r := w.run(t, step); r.code != ExitOK || r.outputs["regressed"] != "0" || r.outputs["conclusion"] != "success" {
			t.Errorf("no regressions: exit %d, outputs %v\n%s", r.code, r.outputs, r.log)
		}
	})

	t.Run("shallow checkout", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		w := newWorkspace(t, gh.URL, 7, repoName)
		base := baseAndHead(t, w).String()
		// What actions/checkout with the default depth leaves: no base.
		if err := os.Remove(filepath.Join(w.dir, ".git", "objects", base[:2], base[2:])); err != nil {
			t.Fatal(err)
		}
		r := w.run(t, step)
		if r.code != ExitMismatch || r.outputs["regressed"] != "" || r.outputs["failed"] != "2" {
			t.Errorf("exit %d, outputs %v", r.code, r.outputs)
		}
		plain := strings.ReplaceAll(r.summary, `\`, "")
		if !strings.Contains(plain, "set `fetch-depth: 2` on actions/checkout for pull requests") {
			t.Errorf("the summary does not say what to add:\n%.800s", r.summary)
		}
		// Without a comparison, fail-on regressions counts every failure.
		w.env["INPUT_FAIL-ON"] = "regressions"
		if r := w.run(t, step); r.code != ExitMismatch || !strings.Contains(r.log, "every failure counts as a regression") {
			t.Errorf("fail-on regressions without a comparison: exit %d\n%s", r.code, r.log)
		}
	})
}

// regressing is the passing corpus with its positive fixture broken.
func regressing() map[string]string {
	m := map[string]string{}
	for k, v := range passing {
		m[k] = v
	}
	m["fixtures/positive/ok.json"] = testkit.Fixture("ok", `{"outcome": "success"}`, testkit.Hello, testkit.Reply, `{"cmd": "NoSuchCommand", "id": 1}`)
	return m
}

// TestRunBaselineFolder: run --baseline with a folder holding the base
// checkout, --known-failures, and fail-on regressions.
func TestRunBaselineFolder(t *testing.T) {
	base := testkit.Corpus(t, passing)
	head := testkit.Corpus(t, regressing())
	code, out, errOut := run(t, head, "run", "--baseline", base)
	if code != ExitMismatch || !strings.Contains(out, "Comparison with the base:\n1 regressed (1 stream changed) against base "+base) {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions")
	if code != ExitMismatch || !strings.Contains(errOut, "1 fixture passed on base "+base+" and fails now") {
		t.Errorf("fail-on regressions: exit %d\n%s", code, errOut)
	}
	// A regression on the known-failures list is excused.
	list := filepath.Join(head, "known.txt")
	os.WriteFile(list, []byte("positive/ok.json broken on purpose\n"), 0o644)
	if code, _, errOut = run(t, head, "run", "--baseline", base, "--fail-on", "regressions", "--known-failures", list); code != ExitOK {
		t.Errorf("known regression: exit %d\n%s", code, errOut)
	}
	// Against itself nothing regressed: the failure is old.
	if code, _, errOut = run(t, head, "run", "--baseline", head, "--fail-on", "regressions"); code != ExitOK {
		t.Errorf("no regression: exit %d\n%s", code, errOut)
	}
	if code, _, errOut = run(t, head, "run", "--fail-on", "regressions"); code != ExitUsage || !strings.Contains(errOut, "needs a baseline") {
		t.Errorf("fail-on regressions without a baseline: exit %d\n%s", code, errOut)
	}
	if code, _, errOut = run(t, head, "run", "--baseline", "no/such/dir"); code != ExitUsage || !strings.Contains(errOut, "no/such/dir") {
		t.Errorf("missing baseline: exit %d\n%s", code, errOut)
	}
}

// TestKnownFailures: a listed failure does not fail the run; a listed
// fixture that passes is a finding, which fails under fail-on findings.
func TestKnownFailures(t *testing.T) {
	dir := testkit.Corpus(t, regressing())
	code, out, errOut := run(t, dir, "run", "--format", "json")
	if code != ExitMismatch {
		t.Fatalf("without a list: exit %d\n%s", code, errOut)
	}
	var doc struct {
		Summary struct {
			FailingPaths []string `json:"failing_paths"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Summary.FailingPaths) != 1 {
		t.Fatalf("failing paths %v: %v", doc.Summary.FailingPaths, err)
	}
	failing := doc.Summary.FailingPaths[0]
	list := filepath.Join(dir, "known.txt")
	os.WriteFile(list, []byte("# known\n"+failing+"  renderer bug 12\n"), 0o644)
	code, out, errOut = run(t, dir, "run", "--known-failures", "known.txt")
	if code != ExitOK || !strings.Contains(out, "known failure: renderer bug 12") {
		t.Errorf("listed failure: exit %d\n%s\n%s", code, out, errOut)
	}

	os.WriteFile(list, []byte("negative_schema/bad.json fixed long ago\n"+failing+" bug\n"), 0o644)
	code, out, _ = run(t, dir, "run", "--known-failures", "known.txt", "--fail-on", "mismatch,findings")
	if code != ExitMismatch || !strings.Contains(out, "unexpectedly passing") || !strings.Contains(out, "remove it from the list") {
		t.Errorf("listed pass: exit %d\n%s", code, out)
	}

	os.WriteFile(list, []byte("fixtures/positive/ok.json\n"), 0o644)
	if code, _, errOut = run(t, dir, "run", "--known-failures", "known.txt"); code != ExitUsage || !strings.Contains(errOut, ":1: fixtures/positive/ok.json has no reason") {
		t.Errorf("entry without a reason: exit %d\n%s", code, errOut)
	}
}

// TestDiff compares two JSON reports.
func TestDiff(t *testing.T) {
	base := testkit.Corpus(t, passing)
	head := testkit.Corpus(t, regressing())
	if code, _, errOut := run(t, base, "run", "--json-out", "r.json"); code != ExitOK {
		t.Fatalf("base run: %d %s", code, errOut)
	}
	if code, _, errOut := run(t, head, "run", "--json-out", "r.json"); code != ExitMismatch {
		t.Fatalf("head run: %d %s", code, errOut)
	}
	b, h := filepath.Join(base, "r.json"), filepath.Join(head, "r.json")
	code, out, errOut := run(t, head, "diff", b, h)
	if code != ExitMismatch || !strings.HasPrefix(out, "Comparison with the base:\n1 regressed") || !strings.Contains(out, "  regressed                 fixtures/positive/ok.json (stream changed)") {
		t.Errorf("diff: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = run(t, head, "diff", "--format", "json", h, b)
	var c struct {
		Counts struct{ Fixed int } `json:"counts"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &c) != nil || c.Counts.Fixed != 1 {
		t.Errorf("diff json: exit %d\n%s", code, out)
	}
	if code, out, _ = run(t, head, "diff", b, h, "--format", "markdown"); code != ExitMismatch || !strings.HasPrefix(out, "### 🔴 1 regressed") {
		t.Errorf("diff markdown: exit %d\n%.300s", code, out)
	}
	// diff judges by the one regression rule of fail-on regressions: a
	// fixture added failing is a new failure too, unless it is a known one.
	files := withFailure()
	delete(files, "fixtures/positive/broken.json") // a corpus error is never excused
	added := testkit.Corpus(t, files)
	os.WriteFile(filepath.Join(added, "known.txt"), []byte("negative/wrong.json renderer bug 12\n"), 0o644)
	run(t, added, "run", "--json-out", "plain.json")
	run(t, added, "run", "--known-failures", "known.txt", "--json-out", "known.json")
	if code, out, _ := run(t, added, "diff", b, filepath.Join(added, "plain.json")); code != ExitMismatch || !strings.Contains(out, "1 added") {
		t.Errorf("diff with fixtures added failing: exit %d, want 1\n%s", code, out)
	}
	if code, out, _ := run(t, added, "diff", b, filepath.Join(added, "known.json")); code != ExitOK {
		t.Errorf("diff with known failures added: exit %d, want 0\n%s", code, out)
	}
	for _, args := range [][]string{{"diff", b}, {"diff", b, filepath.Join(head, "none.json")}, {"diff", "--format", "xml", b, h}} {
		if code, _, errOut := run(t, head, args...); code != ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}
