package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// A pull request that hides fixtures instead of fixing them is named in
// the headline of the job summary, the comment and the check run: each
// fixture it removed with the base's verdict on it, those that failed
// first; a fixture moved to a folder named but for case, or left as a Git
// LFS pointer, is a corpus error naming the cause, and the run is red.
func TestHiddenFixturesNamedInHeadline(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_KNOWN-FAILURES"] = "known-failures.txt"
	corpus := filepath.Join(w.Dir, "corpus")
	positive := filepath.Join(corpus, "positive")
	// The base: render_case_000 and 001 fail, 001 a known failure.
	writeCorpus(t, corpus, 2, 4)
	testkit.WriteFiles(t, w.Dir, map[string]string{"known-failures.txt": "positive/render_case_001.json  fixing it later\n"})
	base := commitWorkspace(t, w.Dir, "base")
	withBase(t, w, base.String())
	short := base.String()[:7]

	// The pull request: 000 replaced by a link, 001 and its entry deleted.
	linkInstead := func() {
		t.Helper()
		if err := os.Rename(filepath.Join(positive, "render_case_000.json"), filepath.Join(w.Dir, "elsewhere.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../../elsewhere.json", filepath.Join(positive, "render_case_000.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(positive, "render_case_001.json")); err != nil {
			t.Fatal(err)
		}
		testkit.WriteFiles(t, w.Dir, map[string]string{"known-failures.txt": "# none\n"})
	}
	linkInstead()
	commitWorkspace(t, w.Dir, "head: the failures hidden")
	r := w.Run(t, inProcess)
	headline := "2 removed (1 failed on the base: positive/render_case_000.json; 1 known failure on the base: positive/render_case_001.json) against base " + short
	checkHeadline(t, gh, r, "⚪", headline)
	if r.Outputs["removed"] != "2" {
		t.Errorf("output removed = %q, want 2", r.Outputs["removed"])
	}

	// The same, and 002 moved to Positive/ and 003 left as an LFS pointer:
	// each a corpus error naming why.
	writeCorpus(t, corpus, 2, 4)
	linkInstead()
	if err := os.MkdirAll(filepath.Join(corpus, "Positive"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(positive, "render_case_002.json"), filepath.Join(corpus, "Positive", "render_case_002.json")); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, positive, map[string]string{"render_case_003.json": "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 312\n"})
	commitWorkspace(t, w.Dir, "head: renamed and left in LFS")
	r = w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["corpus-errors"] != "2" {
		t.Errorf("exit %d, outputs %v, want 1 with 2 corpus errors\n%s", r.Code, r.Outputs, r.Log)
	}
	headline = "1 regressed (1 broken), 1 added, 3 removed (1 failed on the base: positive/render_case_000.json; " +
		"1 known failure on the base: positive/render_case_001.json; 1 passed on the base: positive/render_case_002.json) against base " + short
	checkHeadline(t, gh, r, "🔴", headline)
	for _, why := range []string{"the folder Positive/ is not a corpus folder, whose name is positive/",
		"the file is a Git LFS pointer, not the fixture: check the corpus out with its LFS objects (actions/checkout with `lfs: true`"} {
		if !strings.Contains(r.Log, why) {
			t.Errorf("the log does not say %q:\n%s", why, r.Log)
		}
	}
}

// checkHeadline checks that the job summary, the last comment and the
// last check run lead with the headline, the icon before it.
func checkHeadline(t *testing.T, gh *githubtest.Server, r testkit.Result, icon, headline string) {
	t.Helper()
	md := escape.MarkdownText(strings.TrimSuffix(headline, " "+lastWord(headline)))
	if !strings.HasPrefix(r.Summary, "### "+icon+" "+md) {
		t.Errorf("the job summary does not lead with %q:\n%.800s", md, r.Summary)
	}
	comments := gh.Comments(7)
	if len(comments) == 0 || !strings.Contains(comments[len(comments)-1].Body, " -->\n### "+icon+" "+md) {
		t.Errorf("the comment does not lead with %q: %+v", md, comments)
	}
	runs := gh.CheckRuns()
	if len(runs) == 0 || !strings.Contains(runs[len(runs)-1].Summary, md) {
		t.Errorf("the check-run summary does not carry %q: %+v", md, runs)
	}
	if !strings.Contains(r.Log, headline) {
		t.Errorf("the log does not say %q:\n%s", headline, r.Log)
	}
}

func lastWord(s string) string { return s[strings.LastIndex(s, " ")+1:] }

// A failing fixture moved into a folder an entry of the base excuses is
// still a failure: an entry excuses a renamed fixture only when the base
// excused it at its old path, and a finding says why it counts. One the
// base excused where it was stays excused where it went.
func TestMovedIntoExcusedFolderCounts(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_EXPECTATIONS"] = "expectations.txt"
	corpus := filepath.Join(w.Dir, "corpus")
	positive := filepath.Join(corpus, "positive")
	writeCorpus(t, corpus, 1, 3)
	testkit.WriteFiles(t, w.Dir, map[string]string{"expectations.txt": "* positive/wip/ fail # work in progress\n", "corpus/positive/wip/README": "kept\n"})
	base := commitWorkspace(t, w.Dir, "base")
	withBase(t, w, base.String())
	moveInto := func(from, to string) {
		t.Helper()
		if err := os.Rename(filepath.Join(positive, from), filepath.Join(positive, to)); err != nil {
			t.Fatal(err)
		}
	}
	moveInto("render_case_000.json", "wip/render_case_000.json")
	commitWorkspace(t, w.Dir, "head: the failure moved into the folder the base excuses")
	r := w.Run(t, inProcess)
	why := "listed as a known failure (expectations.txt:1), but it fails, renamed from positive/render_case_000.json: only an entry the base already had excuses a failure at its old path, and the base " +
		base.String()[:7] + " did not list it; its failure counts"
	if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Log, why) {
		t.Errorf("exit %d, outputs %v, want 1 and a finding saying %q\n%s", r.Code, r.Outputs, why, r.Log)
	}

	// Excused on the base where it was: moved on, it stays excused.
	base = commitWorkspace(t, w.Dir, "base: the failure in the folder")
	withBase(t, w, base.String())
	if err := os.MkdirAll(filepath.Join(positive, "wip", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	moveInto("wip/render_case_000.json", "wip/deeper/render_case_000.json")
	commitWorkspace(t, w.Dir, "head: moved within the folder")
	if r := w.Run(t, inProcess); r.Code != ExitOK || strings.Contains(r.Log, "known failure not on the base") {
		t.Errorf("a failure the base excused where it was: exit %d\n%s", r.Code, r.Log)
	}
}
