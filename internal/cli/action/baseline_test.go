package action_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// commitWorkspace commits everything in dir (a repository made on first
// use) and returns the commit.
func commitWorkspace(t *testing.T, dir, msg string) plumbing.Hash {
	return testkit.CommitAll(t, dir, msg, fixedNow)
}

// withBase writes the pull request's base commit into the event payload.
func withBase(t *testing.T, w *sandbox, base string) {
	t.Helper()
	data, err := os.ReadFile(w.Event)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	ev["pull_request"].(map[string]any)["base"] = map[string]any{"sha": base}
	data, _ = json.Marshal(ev)
	if err := os.WriteFile(w.Event, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// baseAndHead makes the workspace a repository whose base commit has six
// passing fixtures and whose head (the working tree, as actions/checkout
// leaves it) breaks two, drops one and adds one.
func baseAndHead(t *testing.T, w *sandbox) plumbing.Hash {
	t.Helper()
	corpus := filepath.Join(w.Dir, "corpus")
	writeCorpus(t, corpus, 0, 6)
	base := commitWorkspace(t, w.Dir, "base")
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
	commitWorkspace(t, w.Dir, "head")
	withBase(t, w, base.String())
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
		r := w.Run(t, step)
		if r.Code != ExitMismatch {
			t.Fatalf("exit %d, want 1\n%s", r.Code, r.Log)
		}
		want := map[string]string{"regressed": "2", "fixed": "0", "added": "1", "removed": "1", "expectation-changed": "0", "broken": "0"}
		for k, v := range want {
			if r.Outputs[k] != v {
				t.Errorf("output %s = %q, want %q", k, r.Outputs[k], v)
			}
		}
		headline := `2 regressed (2 stream changed), 1 added, 1 removed (passed on the base: positive/render\_case\_005.json) against base [` + "`" + short + "`]"
		if !strings.HasPrefix(r.Summary, "### 🔴 "+headline) {
			t.Errorf("the job summary does not lead with the delta:\n%.600s", r.Summary)
		}
		comments := gh.Comments(7)
		if len(comments) != 1 || !strings.Contains(comments[0].Body, " -->\n### 🔴 "+headline) {
			t.Errorf("the comment does not lead with the delta: %+v", comments)
		}
		// The streams that changed say which of their commands did: one
		// appended after the two of the handshake (one row for both).
		if stream := "stream changed from command 2\\: 1 added\\, 2 → 3 commands"; len(comments) != 1 ||
			!strings.Contains(comments[0].Body, stream) {
			t.Errorf("the comment does not say which commands changed (%q): %+v", stream, comments)
		}
		runs := gh.CheckRuns()
		if len(runs) != 1 || !strings.Contains(runs[0].Summary, headline) {
			t.Errorf("the check-run summary does not carry the delta: %+v", runs)
		}
		doc, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
		if err != nil || !strings.Contains(string(doc), `"commit": "`+base.String()+`"`) {
			t.Errorf("the JSON report does not carry the comparison: %v", err)
		}

		// comment: changes rewrites the comment when the delta changed,
		// and leaves it alone when only the base commit did.
		w.Env["INPUT_COMMENT"] = "changes"
		commitWorkspace(t, w.Dir, "an empty commit: the same tree as its parent")
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
			withBase(t, w, c.base)
			gh.ResetRequests()
			w.Run(t, step)
			if patched() != c.patch {
				t.Errorf("comment: changes against %s: rewritten %v, want %v", c.base, patched(), c.patch)
			}
		}
		withBase(t, w, base.String())
		w.Env["INPUT_COMMENT"] = "always"

		// fail-on regressions fails on the two fixtures that passed on
		// the base, not on the failures it had already.
		w.Env["INPUT_FAIL-ON"] = "regressions"
		if r := w.Run(t, step); r.Code != ExitMismatch || !strings.Contains(r.Log, "2 fixtures passed on base "+short+" and fail now") {
			t.Errorf("fail-on regressions: exit %d\n%s", r.Code, r.Log)
		}
		// Compared with the head itself, nothing regressed: the two
		// failures still fail and the step passes.
		withBase(t, w, "HEAD")
		if r := w.Run(t, step); r.Code != ExitOK || r.Outputs["regressed"] != "0" || r.Outputs["conclusion"] != "success" {
			t.Errorf("no regressions: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
		}
	})

	t.Run("shallow checkout", func(t *testing.T) {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		w := newWorkspace(t, gh.URL, 7, repoName)
		base := baseAndHead(t, w).String()
		// What actions/checkout with the default depth leaves: no base.
		if err := os.Remove(filepath.Join(w.Dir, ".git", "objects", base[:2], base[2:])); err != nil {
			t.Fatal(err)
		}
		r := w.Run(t, step)
		if r.Code != ExitMismatch || r.Outputs["regressed"] != "" || r.Outputs["failed"] != "2" {
			t.Errorf("exit %d, outputs %v", r.Code, r.Outputs)
		}
		plain := strings.ReplaceAll(r.Summary, `\`, "")
		if !strings.Contains(plain, "set `fetch-depth: 2` on actions/checkout for pull requests") {
			t.Errorf("the summary does not say what to add:\n%.800s", r.Summary)
		}
		// Without a comparison, fail-on regressions counts every failure.
		w.Env["INPUT_FAIL-ON"] = "regressions"
		if r := w.Run(t, step); r.Code != ExitMismatch || !strings.Contains(r.Log, "every failure counts as a regression") {
			t.Errorf("fail-on regressions without a comparison: exit %d\n%s", r.Code, r.Log)
		}
	})
}
