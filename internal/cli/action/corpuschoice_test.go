package action_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// searchable writes a corpus the folder search finds: all three folders,
// each holding a file so that git keeps it.
func searchable(t *testing.T, dir string, failing, passing int) {
	t.Helper()
	writeCorpus(t, dir, failing, passing)
	testkit.WriteFiles(t, dir, map[string]string{"negative/README": "none yet\n", "negative_schema/README": "none yet\n"})
}

// prWithCorpusAt is a pull request's workspace whose base commit holds a
// passing corpus in the folder dir, found by search (the corpus input is
// empty, the default of a workflow that does not name it).
func prWithCorpusAt(t *testing.T, gh *githubtest.Server, dir string) (*sandbox, string) {
	t.Helper()
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_CORPUS"] = ""
	w.Env["INPUT_BASELINE"] = "off"
	searchable(t, filepath.Join(w.Dir, dir), 0, 4)
	base := commitWorkspace(t, w.Dir, "base").String()
	withBase(t, w, base)
	return w, base[:7]
}

// A pull request cannot choose the corpus the gate runs: the search's
// answer is the base commit's. Breaking the corpus and adding a green one
// where the search looks first (./fixtures) still runs, and fails on, the
// corpus the base had; the headline, the notice and the comment's key
// name it, and what the pull request's own checkout would have given.
func TestPullRequestCannotChooseTheCorpus(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w, short := prWithCorpusAt(t, gh, "tests/corpus")
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Fatalf("the base's corpus: exit %d\n%s", r.Code, r.Log)
	}
	searchable(t, filepath.Join(w.Dir, "tests/corpus"), 2, 2)
	writeCorpus(t, filepath.Join(w.Dir, "fixtures"), 0, 1)
	commitWorkspace(t, w.Dir, "head: break the corpus, add another")

	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["total"] != "4" || r.Outputs["failed"] != "2" {
		t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	headline := "corpus tests/corpus found by search at base " + short + " (this checkout alone would give fixtures)"
	if !strings.Contains(r.Summary, escape.MarkdownText(headline)) {
		t.Errorf("the summary's headline does not name the corpus and its search:\n%.800s", r.Summary)
	}
	runs := gh.CheckRuns()
	if len(runs) != 2 || !strings.Contains(runs[1].Title, headline) {
		t.Errorf("the check run's title does not name the corpus: %+v", runs)
	}
	notice := "::notice title=drp2-fixtures::corpus tests/corpus: the only corpus in the workspace, at the pull request's base commit " + short
	if !strings.Contains(r.Log, notice) {
		t.Errorf("the log does not say which corpus ran and why:\n%s", r.Log)
	}
	// One comment, for the corpus that ran, now red: the green run of the
	// base and the red one of the head share it.
	comments := gh.Comments(7)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, "<!-- drp2-fixtures:comment:tests/corpus -->") || !strings.Contains(comments[0].Body, "❌") {
		t.Errorf("comments: %+v", comments)
	}
}

// A pull request that moves or removes the corpus the base's search finds
// stops the gate with a clear error; it does not run the corpus it brings.
func TestPullRequestCannotMoveTheCorpus(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w, short := prWithCorpusAt(t, gh, "tests/corpus")
	if err := os.Rename(filepath.Join(w.Dir, "tests/corpus"), filepath.Join(w.Dir, "fixtures")); err != nil {
		t.Fatal(err)
	}
	commitWorkspace(t, w.Dir, "head: move the corpus")
	r := w.Run(t, inProcess)
	want := "the corpus tests/corpus, which the search finds at the pull request's base commit " + short + ", is not a folder of this checkout"
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Log, want) || !strings.Contains(r.Summary, escape.Markdown(want)) {
		t.Errorf("exit %d, outputs %v\n%s\n%s", r.Code, r.Outputs, r.Log, r.Summary)
	}
}

// Flooding the search past its bound after a corpus of the pull request's
// making does not make that corpus "the only one": the base's answer
// stands, and a search cut short in the checkout is never taken by the
// action, even when it found one.
func TestPullRequestCannotFloodTheSearch(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w, short := prWithCorpusAt(t, gh, "z/corpus")
	floodBeside(t, filepath.Join(w.Dir, "a"))
	// The head is the working tree, as actions/checkout leaves it; its
	// commit does not matter to the search.
	r := w.Run(t, inProcess)
	if r.Code != ExitOK || r.Outputs["total"] != "4" || !strings.Contains(r.Log, "corpus z/corpus: the only corpus in the workspace, at the pull request's base commit "+short) {
		t.Errorf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
}

// paths never re-roots the corpus in the action: a folder named in paths
// that holds a corpus of the pull request's making is only a filter of
// the corpus the search found, and lies outside it.
func TestPathsNeverReRootTheCorpus(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w, _ := prWithCorpusAt(t, gh, "spec/drp2/fixtures")
	w.Env["INPUT_PATHS"] = "spec/drp2/fixtures/positive"
	writeCorpus(t, filepath.Join(w.Dir, "spec/drp2/fixtures"), 1, 3)
	testkit.WriteFiles(t, filepath.Join(w.Dir, "spec/drp2/fixtures/positive"), corpusOf3)
	commitWorkspace(t, w.Dir, "head: a corpus inside the folder paths names")
	r := w.Run(t, inProcess)
	if r.Outputs["conclusion"] != "failure" || strings.Contains(r.Log, "corpus spec/drp2/fixtures/positive") {
		t.Errorf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
}

// A pull request cannot excuse its own regression: an entry it adds to
// the known-failures list does not excuse a fixture that passed on the
// base, under any fail-on, and the headline says the list changed. An
// entry the base already had still excuses the same failure.
func TestPullRequestCannotExcuseItsRegression(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_FAIL-ON"] = "mismatch,empty,regressions"
	w.Env["INPUT_KNOWN-FAILURES"] = "known-failures.txt"
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 3)
	testkit.WriteFiles(t, w.Dir, map[string]string{"known-failures.txt": "# none yet\n"})
	base := commitWorkspace(t, w.Dir, "base")
	withBase(t, w, base.String())
	short := base.String()[:7]

	// The pull request breaks a fixture and lists it.
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 2)
	testkit.WriteFiles(t, w.Dir, map[string]string{"known-failures.txt": "positive/render_case_000.json  fixing it later\n"})
	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" || r.Outputs["regressed"] != "1" {
		t.Fatalf("a listed regression: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	note := "the known-failures list known-failures.txt changed against base " + short + " (1 added, 0 removed): 1 failure no entry of the base excuses counts"
	if !strings.Contains(r.Summary, escape.MarkdownText(note)) || !strings.Contains(r.Log, note) {
		t.Errorf("the headline does not say the list changed:\n%s\n%.1200s", r.Log, r.Summary)
	}
	if !strings.Contains(r.Log, "only an entry the base already had excuses a regression") {
		t.Errorf("no finding says why the entry does not excuse:\n%s", r.Log)
	}

	// The same entry on the base: the failure was known there (it passed
	// then), and the list has not changed, so it excuses the failure.
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 3)
	base = commitWorkspace(t, w.Dir, "base: the fixture passes, the entry stays")
	withBase(t, w, base.String())
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 2)
	r = w.Run(t, inProcess)
	if r.Code != ExitOK || r.Outputs["conclusion"] != "success" || strings.Contains(r.Summary, "known-failures list changed") {
		t.Errorf("an entry the base had: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
}

// floodBeside puts a searchable corpus in dir/corpus, after 20,000 empty
// files in dir that cut a corpus search short.
func floodBeside(t *testing.T, dir string) {
	t.Helper()
	searchable(t, filepath.Join(dir, "corpus"), 0, 1)
	for i := range 20000 {
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
