package action_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestActionManifest: a frozen manifest broken by a pull request fails the
// step, shows the comparison in the summary and the comment, and annotates
// the changed fixture on the check run.
func TestActionManifest(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	for rel, body := range testkit.ManifestCorpus() {
		putFile(t, filepath.Join(w.Dir, "corpus", strings.TrimPrefix(rel, "fixtures/")), body)
	}
	if code, out, errs := run(t, w.Dir, "manifest", "write", "--corpus", "corpus", "--frozen"); code != ExitOK {
		t.Fatalf("write: %s%s", out, errs)
	}
	w.Env["INPUT_MANIFEST"] = "corpus/manifest.json"

	r := w.Run(t, inProcess)
	if r.Code != ExitOK || !strings.Contains(r.Summary, "### Fixture manifest") || !strings.Contains(r.Summary, "the corpus matches its manifest") {
		t.Fatalf("unchanged corpus: exit %d\n%s\n%s", r.Code, r.Log, r.Summary)
	}

	putFile(t, filepath.Join(w.Dir, "corpus/negative/unknown.json"),
		testkit.Fixture("unknown", strings.Replace(testkit.InvalidID, "DRP2_ERR_INVALID_ID", "DRP2_ERR_DESTROYED_OBJECT", 1), testkit.Hello, testkit.Reply, testkit.WriteCmd))
	gh.ResetRequests()
	r = w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" {
		t.Fatalf("broken freeze: exit %d, conclusion %q\n%s", r.Code, r.Outputs["conclusion"], r.Log)
	}
	if !strings.Contains(r.Log, "::error title=drp2-fixtures::the corpus breaks the freeze of corpus/manifest.json") {
		t.Errorf("the log does not say why the step failed:\n%s", r.Log)
	}
	if !strings.Contains(r.Summary, "❌") || !strings.Contains(r.Summary, `<code>negative\/unknown\.json</code>`) {
		t.Errorf("summary:\n%s", r.Summary)
	}
	comments := gh.Comments(7)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "### Fixture manifest") {
		t.Fatalf("comment does not show the comparison: %+v", comments)
	}
	runs := gh.CheckRuns()
	if len(runs) == 0 {
		t.Fatal("no check run")
	}
	var found bool
	for _, a := range runs[len(runs)-1].Annotations {
		if a.Path == "corpus/negative/unknown.json" && a.AnnotationLevel == "failure" && strings.Contains(a.Title, "Frozen fixture changed") {
			found = a.StartLine > 1
		}
	}
	if !found {
		t.Errorf("no failure annotation on the changed fixture: %+v", runs[len(runs)-1].Annotations)
	}

	// A manifest outside the workspace is refused.
	w.Env["INPUT_MANIFEST"] = "../elsewhere.json"
	if r = w.Run(t, inProcess); r.Code != ExitUsage {
		t.Errorf("manifest outside the workspace: exit %d", r.Code)
	}
}

// TestActionCoverage: the action adds the rule coverage Markdown to the
// job summary.
func TestActionCoverage(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_COVERAGE"] = "true"
	for rel, body := range testkit.ManifestCorpus() {
		putFile(t, filepath.Join(w.Dir, "corpus", strings.TrimPrefix(rel, "fixtures/")), body)
	}
	r := w.Run(t, inProcess)
	if r.Code != ExitOK || !strings.Contains(r.Summary, "### Rule coverage") || !strings.Contains(r.Summary, "Identity And Type rule 1") {
		t.Errorf("action coverage: exit %d\n%s", r.Code, r.Summary)
	}
	w.Env["INPUT_COVERAGE"] = "yes"
	if r := w.Run(t, inProcess); r.Code != ExitUsage {
		t.Errorf("coverage: yes: exit %d", r.Code)
	}
}
