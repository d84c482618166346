package cli

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
	w.env["INPUT_GITHUB-TOKEN"] = ""
	w.env["INPUT_CORPUS"] = corpus
	w.env["INPUT_BASELINE"] = "off"
	return w.run(t, inProcess)
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	writeFiles(t, w.dir, under("spec/drp2/fixtures", corpusOf3))
	os.MkdirAll(filepath.Join(w.dir, "src"), 0o755)
	r := actionIn(t, w, "")
	if r.code != ExitMismatch || r.outputs["total"] != "3" || r.outputs["conclusion"] != "failure" {
		t.Fatalf("exit %d, outputs %v\n%s", r.code, r.outputs, r.log)
	}
	if !strings.Contains(r.log, "::notice title=drp2-fixtures::corpus spec/drp2/fixtures: the upstream layout, found because the corpus input is empty") {
		t.Errorf("the log does not say which corpus ran:\n%s", r.log)
	}
	if strings.Contains(r.summary, escape.Markdown("the corpus embedded")) || strings.Contains(r.summary, "Corpus: `embedded`") {
		t.Errorf("the summary speaks of the embedded corpus:\n%s", r.summary)
	}
}

// No corpus in the workspace: exit 2, and still a job summary that says
// what was wrong and how to fix it, and the conclusion output.
func TestActionWithoutCorpusFailsClearly(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	writeFiles(t, w.dir, map[string]string{"README.md": "# a runtime\n", "tests/fixtures/positive/x.json": "{}"})
	r := actionIn(t, w, "")
	if r.code != ExitUsage || r.outputs["conclusion"] != "failure" {
		t.Fatalf("exit %d, outputs %v\n%s", r.code, r.outputs, r.log)
	}
	for _, want := range []string{"no DRP2 corpus in the workspace", "set the corpus input", "Looked for spec/drp2/fixtures, then ./fixtures", "folders searched"} {
		if !strings.Contains(r.log, want) || !strings.Contains(r.summary, escape.Markdown(want)) {
			t.Errorf("log and summary should say %q:\nlog:\n%s\nsummary:\n%s", want, r.log, r.summary)
		}
	}
	if !strings.Contains(r.summary, "**How to fix it:** set `corpus:` on the step") || !strings.Contains(r.summary, "`corpus: spec/drp2/fixtures`") {
		t.Errorf("the summary does not say how to fix it:\n%s", r.summary)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "drp2-fixtures.json")); err == nil {
		t.Error("a report was written for a run that did not happen")
	}

	// Two corpora: the same, naming both.
	w = newWorkspace(t, "http://127.0.0.1:1", 0, "")
	writeFiles(t, w.dir, under("a/corpus", corpusOf3))
	writeFiles(t, w.dir, under("b/corpus", corpusOf3))
	r = actionIn(t, w, "")
	if r.code != ExitUsage || r.outputs["conclusion"] != "failure" || !strings.Contains(r.summary, escape.Markdown("2 DRP2 corpora in the workspace (a/corpus, b/corpus)")) {
		t.Errorf("two corpora: exit %d, outputs %v\n%s", r.code, r.outputs, r.summary)
	}
}

// Any unusable input writes the summary and the conclusion too.
func TestActionUnusableInputStillReports(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	writeFiles(t, w.dir, under("fixtures", corpusOf3))
	w.env["INPUT_ANNOTATIONS"] = "sideways"
	r := actionIn(t, w, "fixtures")
	if r.code != ExitUsage || r.outputs["conclusion"] != "failure" || !strings.Contains(r.summary, "sideways") || !strings.Contains(r.summary, "**How to fix it:** correct the input") {
		t.Errorf("exit %d, outputs %v\nsummary:\n%s\nlog:\n%s", r.code, r.outputs, r.summary, r.log)
	}
	w = newWorkspace(t, "http://127.0.0.1:1", 0, "")
	r = actionIn(t, w, "no/such/corpus")
	if r.code != ExitUsage || r.outputs["conclusion"] != "failure" || !strings.Contains(r.summary, "What was wrong") {
		t.Errorf("a missing corpus: exit %d, outputs %v\n%s", r.code, r.outputs, r.summary)
	}
}

// The embedded corpus runs only when asked for by name, and then the
// headline says whose fixtures passed.
func TestActionEmbeddedCorpusOnlyByName(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	r := actionIn(t, w, "embedded")
	if r.code != ExitOK || r.outputs["conclusion"] != "success" {
		t.Fatalf("exit %d, outputs %v\n%s", r.code, r.outputs, r.log)
	}
	if n, _ := strconv.Atoi(r.outputs["total"]); n == 0 {
		t.Errorf("no embedded fixture ran: %v", r.outputs)
	}
	if !strings.Contains(r.summary, escape.MarkdownText("passed (the corpus embedded in drp2-fixtures)")) {
		t.Errorf("the headline does not say the embedded corpus ran:\n%.400s", r.summary)
	}
}

// The README's first uses: step, in a workspace laid out like datoviz with
// the real DRP2 corpus: its 125 fixtures run against the schemas beside
// them, and pass. The corpus is read from the spec checkout beside this
// project and copied into a temporary workspace for the test.
func TestActionOnDatovizLayout(t *testing.T) {
	spec := filepath.Join("..", "..", "..", "shared", "drp2")
	if _, err := os.Stat(filepath.Join(spec, "fixtures", "RUNNER.md")); err != nil {
		t.Skip("SKIPPED: no DRP2 spec checkout beside the project (../shared/drp2)")
	}
	for _, corpus := range []string{"spec/drp2/fixtures", ""} {
		w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
		dst := filepath.Join(w.dir, "spec", "drp2")
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
		if r.code != ExitOK || r.outputs["total"] != "125" || r.outputs["passed"] != "125" || r.outputs["conclusion"] != "success" {
			t.Errorf("corpus %q: exit %d, outputs %v\n%s", corpus, r.code, r.outputs, r.log)
		}
		if strings.Contains(r.summary, escape.Markdown("the corpus embedded")) || strings.Contains(r.summary, "Corpus: `embedded`") {
			t.Errorf("corpus %q: the summary speaks of the embedded corpus:\n%s", corpus, r.summary)
		}
	}
}
