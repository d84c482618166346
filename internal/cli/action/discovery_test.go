package action_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// actionIn runs the action without a token (no API) in w with the corpus
// input given.
func actionIn(t *testing.T, w *sandbox, corpus string) result {
	t.Helper()
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = corpus
	w.Env["INPUT_BASELINE"] = "off"
	return w.Run(t, inProcess)
}

var corpusOf3 = map[string]string{
	"positive/ok.json":         testkit.Fixture("ok", `{"outcome": "success"}`, testkit.Hello, testkit.Reply),
	"negative/wrong.json":      testkit.Fixture("wrong", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`, testkit.Hello, testkit.Reply),
	"negative_schema/bad.json": testkit.Fixture("bad", `{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 2}`, testkit.Hello, testkit.Reply, `{"cmd": "Draw"}`),
}

func under(prefix string, files map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range files {
		m[prefix+"/"+k] = v
	}
	return m
}

// With the corpus input left out, the action runs the workspace's corpus
// (here datoviz's layout, a failing fixture included, so it goes red) and
// says which one; it never falls back to its own embedded corpus.
func TestActionFindsTheCorpus(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	testkit.WriteFiles(t, w.Dir, under("spec/drp2/fixtures", corpusOf3))
	os.MkdirAll(filepath.Join(w.Dir, "src"), 0o755)
	r := actionIn(t, w, "")
	if r.Code != ExitMismatch || r.Outputs["total"] != "3" || r.Outputs["conclusion"] != "failure" {
		t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	if !strings.Contains(r.Log, "::notice title=drp2-fixtures::corpus spec/drp2/fixtures: the upstream layout, found because the corpus input is empty") {
		t.Errorf("the log does not say which corpus ran:\n%s", r.Log)
	}
	if strings.Contains(r.Summary, escape.Markdown("the corpus embedded")) || strings.Contains(r.Summary, "Corpus: `embedded`") {
		t.Errorf("the summary speaks of the embedded corpus:\n%s", r.Summary)
	}
}

// No corpus in the workspace: exit 2, and still a job summary that says
// what was wrong and how to fix it, and the conclusion output.
func TestActionWithoutCorpusFailsClearly(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	testkit.WriteFiles(t, w.Dir, map[string]string{"README.md": "# a runtime\n", "tests/fixtures/positive/x.json": "{}"})
	r := actionIn(t, w, "")
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" {
		t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	for _, want := range []string{"no DRP2 corpus in the workspace", "set the corpus input", "Looked for spec/drp2/fixtures, then ./fixtures", "folders searched"} {
		if !strings.Contains(r.Log, want) || !strings.Contains(r.Summary, escape.Markdown(want)) {
			t.Errorf("log and summary should say %q:\nlog:\n%s\nsummary:\n%s", want, r.Log, r.Summary)
		}
	}
	if !strings.Contains(r.Summary, "**How to fix it:** set `corpus:` on the step") || !strings.Contains(r.Summary, "`corpus: spec/drp2/fixtures`") {
		t.Errorf("the summary does not say how to fix it:\n%s", r.Summary)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, "drp2-fixtures.json")); err == nil {
		t.Error("a report was written for a run that did not happen")
	}

	// Two corpora: the same, naming both.
	w = newWorkspace(t, "http://127.0.0.1:1", 0, "")
	testkit.WriteFiles(t, w.Dir, under("a/corpus", corpusOf3))
	testkit.WriteFiles(t, w.Dir, under("b/corpus", corpusOf3))
	r = actionIn(t, w, "")
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Summary, escape.Markdown("2 DRP2 corpora in the workspace (a/corpus, b/corpus)")) {
		t.Errorf("two corpora: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Summary)
	}
}

// Any unusable input writes the summary and the conclusion too.
func TestActionUnusableInputStillReports(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	testkit.WriteFiles(t, w.Dir, under("fixtures", corpusOf3))
	w.Env["INPUT_ANNOTATIONS"] = "sideways"
	r := actionIn(t, w, "fixtures")
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Summary, "sideways") || !strings.Contains(r.Summary, "**How to fix it:** correct the input") {
		t.Errorf("exit %d, outputs %v\nsummary:\n%s\nlog:\n%s", r.Code, r.Outputs, r.Summary, r.Log)
	}
	w = newWorkspace(t, "http://127.0.0.1:1", 0, "")
	r = actionIn(t, w, "no/such/corpus")
	if r.Code != ExitUsage || r.Outputs["conclusion"] != "failure" || !strings.Contains(r.Summary, "What was wrong") {
		t.Errorf("a missing corpus: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Summary)
	}
}

// The embedded corpus runs only when asked for by name, and then the
// headline says whose fixtures passed.
func TestActionEmbeddedCorpusOnlyByName(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	r := actionIn(t, w, "embedded")
	if r.Code != ExitOK || r.Outputs["conclusion"] != "success" {
		t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	if n, _ := strconv.Atoi(r.Outputs["total"]); n == 0 {
		t.Errorf("no embedded fixture ran: %v", r.Outputs)
	}
	if !strings.Contains(r.Summary, escape.MarkdownText("passed (the corpus embedded in drp2-fixtures)")) {
		t.Errorf("the headline does not say the embedded corpus ran:\n%.400s", r.Summary)
	}
}

// The README's first uses: step, in a workspace laid out like datoviz with
// the real DRP2 corpus: its 125 fixtures run against the schemas beside
// them, and pass. The corpus is read from the spec checkout beside this
// project and copied into a temporary workspace for the test.
func TestActionOnDatovizLayout(t *testing.T) {
	spec := filepath.Join("..", "..", "..", "..", "shared", "drp2")
	if _, err := os.Stat(filepath.Join(spec, "fixtures", "RUNNER.md")); err != nil {
		t.Skip("SKIPPED: no DRP2 spec checkout beside the project (../shared/drp2)")
	}
	for _, corpus := range []string{"spec/drp2/fixtures", ""} {
		w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
		dst := filepath.Join(w.Dir, "spec", "drp2")
		err := filepath.WalkDir(spec, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(spec, p)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			if !d.Type().IsRegular() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		r := actionIn(t, w, corpus)
		if r.Code != ExitOK || r.Outputs["total"] != "125" || r.Outputs["passed"] != "125" || r.Outputs["conclusion"] != "success" {
			t.Errorf("corpus %q: exit %d, outputs %v\n%s", corpus, r.Code, r.Outputs, r.Log)
		}
		if strings.Contains(r.Summary, escape.Markdown("the corpus embedded")) || strings.Contains(r.Summary, "Corpus: `embedded`") {
			t.Errorf("corpus %q: the summary speaks of the embedded corpus:\n%s", corpus, r.Summary)
		}
	}
}
