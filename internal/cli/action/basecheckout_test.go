package action_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// gitBinary is the git that makes checkouts as actions/checkout makes
// them (shallow, blob-less); go-git makes neither.
func gitBinary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("SKIPPED: no git on PATH to make a shallow or partial clone")
	}
	return bin
}

// gitRun runs git with args and fails the test on an error.
func gitRun(t *testing.T, args ...string) {
	t.Helper()
	// file:// is refused for submodules unless allowed; the tests clone
	// only their own repositories.
	cmd := exec.Command(gitBinary(t), append([]string{"-c", "protocol.file.allow=always", "-c", "user.name=ci", "-c", "user.email=ci@example.com"}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// checkout clones the repository src into the workspace as actions/checkout
// does with the options given (--depth 1 for its default fetch-depth).
func checkout(t *testing.T, w *sandbox, src string, options ...string) {
	t.Helper()
	gitRun(t, "-C", src, "config", "uploadpack.allowFilter", "true")
	gitRun(t, append(append([]string{"clone", "--quiet"}, options...), "file://"+src, w.Dir)...)
}

// With actions/checkout's default depth the base commit is absent: the
// corpus search cannot read the base, so the pull request's own checkout
// would choose the corpus (a ./fixtures of its own, green, beside the
// corpus it broke). The gate refuses, saying what to set.
func TestShallowCheckoutCannotChooseTheCorpus(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_CORPUS"] = ""
	w.Env["INPUT_BASELINE"] = "off"
	src := filepath.Join(t.TempDir(), "src")
	searchable(t, filepath.Join(src, "tests/corpus"), 0, 4)
	base := commitWorkspace(t, src, "base").String()
	searchable(t, filepath.Join(src, "tests/corpus"), 2, 2)
	writeCorpus(t, filepath.Join(src, "fixtures"), 0, 1)
	commitWorkspace(t, src, "head: break the corpus, add another")
	checkout(t, w, src, "--depth", "1")
	withBase(t, w, base)

	r := w.Run(t, inProcess)
	want := "the corpus search cannot read the pull request's base commit"
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Log, want) {
		t.Fatalf("a shallow checkout: exit %d, outputs %v, want 2 saying %q\n%s", r.Code, r.Outputs, want, r.Log)
	}
	for _, fix := range []string{"set `corpus:`", "`fetch-depth: 2`"} {
		if !strings.Contains(r.Log, fix) || !strings.Contains(r.Summary, escape.Markdown(fix)) {
			t.Errorf("the refusal does not say %q:\n%s\n%s", fix, r.Log, r.Summary)
		}
	}

	// Named, the corpus needs no search: the broken one runs, red.
	w.Env["INPUT_CORPUS"] = "tests/corpus"
	if r := w.Run(t, inProcess); r.Code != ExitMismatch {
		t.Errorf("the corpus named: exit %d\n%s", r.Code, r.Log)
	}
}

// A workspace that is no git checkout at all has no base either: the
// search refuses the same way.
func TestCorpusSearchOutsideACheckout(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_CORPUS"] = ""
	w.Env["INPUT_BASELINE"] = "off"
	writeCorpus(t, filepath.Join(w.Dir, "fixtures"), 0, 1)
	r := w.Run(t, inProcess)
	if r.Code != ExitUsage || !strings.Contains(r.Log, "is not in a git repository") || !strings.Contains(r.Log, "set `corpus:`") {
		t.Errorf("no repository: exit %d\n%s", r.Code, r.Log)
	}
}

// A blob-less clone (filter: blob:none) holds the base's commits and
// trees but not the blobs of the files the pull request changed, which git
// fetches on demand and go-git cannot: the comparison is unavailable,
// naming the missing object and what to set, never "no change", and
// fail-on: regressions counts every failure.
func TestBloblessCheckoutHasNoComparison(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_FAIL-ON"] = "regressions"
	src := filepath.Join(t.TempDir(), "src")
	writeCorpus(t, filepath.Join(src, "corpus"), 0, 3)
	base := commitWorkspace(t, src, "base").String()
	writeCorpus(t, filepath.Join(src, "corpus"), 1, 2)
	commitWorkspace(t, src, "head: break a fixture")
	checkout(t, w, src, "--filter=blob:none")
	withBase(t, w, base)

	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" || r.Outputs["regressed"] != "" {
		t.Errorf("a blob-less checkout: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	plain := strings.ReplaceAll(r.Summary, `\`, "")
	for _, want := range []string{"is not in this checkout", "filter: blob:none"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the summary does not say %q:\n%.1500s", want, r.Summary)
		}
	}
	if strings.Contains(r.Summary, "no change against base") || !strings.Contains(r.Log, "every failure counts as a regression") {
		t.Errorf("a blob-less base reads as a comparison:\n%s\n%.1500s", r.Log, r.Summary)
	}
}

// superprojectWithCorpus makes a repository whose base commit holds a
// passing corpus in the git submodule "corpus" (found by search), and
// whose head bumps the submodule to a commit that breaks two fixtures and
// adds a green ./fixtures of its own, which the search of the head's
// checkout takes first. It returns the repository and the base commit.
func superprojectWithCorpus(t *testing.T) (src, base string) {
	t.Helper()
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	searchable(t, filepath.Join(sub, "drp2"), 0, 4)
	good := commitWorkspace(t, sub, "a passing corpus").String()
	searchable(t, filepath.Join(sub, "drp2"), 2, 2)
	commitWorkspace(t, sub, "break two fixtures")
	src = filepath.Join(dir, "super")
	gitRun(t, "init", "--quiet", src)
	gitRun(t, "-C", src, "submodule", "--quiet", "add", "file://"+sub, "corpus")
	gitRun(t, "-C", filepath.Join(src, "corpus"), "checkout", "--quiet", good)
	gitRun(t, "-C", src, "add", "-A")
	gitRun(t, "-C", src, "commit", "--quiet", "-m", "base")
	out, err := exec.Command(gitBinary(t), "-C", src, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	base = strings.TrimSpace(string(out))
	gitRun(t, "-C", filepath.Join(src, "corpus"), "checkout", "--quiet", "master")
	writeCorpus(t, filepath.Join(src, "fixtures"), 0, 1)
	gitRun(t, "-C", src, "add", "-A")
	gitRun(t, "-C", src, "commit", "--quiet", "-m", "head: bump the corpus to a broken commit, add another")
	return src, base
}

// A corpus in a git submodule is a folder of the base for the search: the
// pull request's own ./fixtures does not take its place, and the corpus
// runs as the pull request bumped it, compared with the submodule's commit
// the base names, so its regressions show.
func TestPullRequestCannotHideTheCorpusInASubmodule(t *testing.T) {
	src, base := superprojectWithCorpus(t)
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	w.Env["INPUT_CORPUS"] = ""
	w.Env["INPUT_FAIL-ON"] = "regressions"
	checkout(t, w, src, "--recurse-submodules")
	withBase(t, w, base)

	r := w.Run(t, inProcess)
	notice := "corpus corpus/drp2: the only corpus in the workspace, at the pull request's base commit " + base[:7] + " (the pull request's checkout alone would give fixtures)"
	if r.Code != ExitMismatch || r.Outputs["regressed"] != "2" || !strings.Contains(r.Log, notice) {
		t.Errorf("a corpus in a submodule: exit %d, outputs %v, want 1 with 2 regressed and %q\n%s", r.Code, r.Outputs, notice, r.Log)
	}
}

// When the checkout does not hold the submodule at the commit the base
// names (not checked out, or fetched too shallow), the search cannot know
// whether the corpus lies in it, and the gate refuses, naming the
// submodule and what to set.
func TestCorpusSearchRefusesAnUnreadableSubmodule(t *testing.T) {
	src, base := superprojectWithCorpus(t)
	for _, c := range []struct {
		name    string
		options []string
		want    string
	}{
		{"not checked out", nil, "the git submodule corpus, which is not checked out here"},
		{"too shallow", []string{"--recurse-submodules", "--shallow-submodules"}, "the git submodule corpus, whose commit "},
	} {
		t.Run(c.name, func(t *testing.T) {
			gh := githubtest.New(t, githubtest.Options{Token: token})
			w := newWorkspace(t, gh.URL, 7, repoName)
			w.Env["INPUT_CORPUS"] = ""
			checkout(t, w, src, c.options...)
			withBase(t, w, base)
			r := w.Run(t, inProcess)
			if r.Code != ExitUsage || !strings.Contains(r.Log, c.want) || !strings.Contains(r.Log, "`submodules: true`") || !strings.Contains(r.Log, "set `corpus:`") {
				t.Errorf("exit %d, want 2 saying %q and what to set\n%s", r.Code, c.want, r.Log)
			}
		})
	}
}
