package gate

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// workspaceWith makes the folders named (slash paths) in a new working
// directory.
func workspaceWith(t *testing.T, dirs ...string) string {
	t.Helper()
	wd := t.TempDir()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(wd, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return wd
}

func corpusDirs(root string) []string {
	return []string{root + "/positive", root + "/negative", root + "/negative_schema"}
}

// Both front ends find the corpus by the one discovery; they differ only
// in what a search that finds none means: the command line runs the
// embedded corpus and says so, the action stops.
func TestChooseCorpus(t *testing.T) {
	datoviz := workspaceWith(t, append(corpusDirs("spec/drp2/fixtures"), "src")...)
	empty := workspaceWith(t, "src/lib")
	for _, c := range []struct {
		name   string
		wd     string
		job    RunRequest
		corpus string
		search *model.CorpusSearch
		err    string
	}{
		{"run in datoviz", datoviz, RunRequest{Source: Source{Spelling: FlagSpelling}}, "spec/drp2/fixtures", &model.CorpusSearch{By: model.CorpusUpstream}, ""},
		{"the action in datoviz", datoviz, RunRequest{Source: Source{Spelling: InputSpelling}, RequireCorpus: true}, "spec/drp2/fixtures", &model.CorpusSearch{By: model.CorpusUpstream}, ""},
		{"a named corpus is not searched for", datoviz, RunRequest{Source: Source{Corpus: "elsewhere"}}, "elsewhere", nil, ""},
		{"embedded by name", datoviz, RunRequest{Source: Source{Corpus: runner.Embedded}}, "", nil, ""},
		{"run with none", empty, RunRequest{Source: Source{Spelling: FlagSpelling}}, "", &model.CorpusSearch{By: model.CorpusNone}, ""},
		{"the action with none", empty, RunRequest{Source: Source{Spelling: InputSpelling}, RequireCorpus: true}, "", nil, "no DRP2 corpus in the workspace: set the corpus input to the folder holding positive/, negative/, negative_schema/ (in datoviz's layout, corpus: spec/drp2/fixtures). Looked for"},
	} {
		corpus, search, err := chooseCorpus(envAt(c.wd), job{RunRequest: c.job})
		if corpus != c.corpus || (search == nil) != (c.search == nil) || (search != nil && *search != *c.search) {
			t.Errorf("%s: corpus %q, search %+v; want %q, %+v", c.name, corpus, search, c.corpus, c.search)
		}
		if msg := errText(err); !strings.Contains(msg, c.err) || (c.err == "") != (err == nil) {
			t.Errorf("%s: error %q; want one starting %q", c.name, msg, c.err)
		}
	}
}

// Several corpora stop the command line too, in its own words, with exit
// code 2.
func TestChooseCorpusSeveral(t *testing.T) {
	wd := workspaceWith(t, append(corpusDirs("a/corpus"), corpusDirs("b/corpus")...)...)
	_, _, err := chooseCorpus(envAt(wd), job{RunRequest: RunRequest{Source: Source{Spelling: FlagSpelling}}})
	var nf *CorpusNotFound
	want := "2 DRP2 corpora in the workspace (a/corpus, b/corpus): set --corpus to the one to run. Looked for spec/drp2/fixtures, then ./fixtures, then any folder holding the three, down to 6 folders deep (5 folders searched; hidden folders, node_modules and links skipped)"
	if !errors.As(err, &nf) || err.Error() != want || exit.Code(err) != exit.Usage {
		t.Errorf("two corpora: %v (exit %d)\nwant %s", err, exit.Code(err), want)
	}
}

// A search cut short at its bound that found nothing proves nothing: the
// command line does not run the embedded corpus in place of one the
// search did not reach, and the message says where it stopped.
func TestChooseCorpusCutShort(t *testing.T) {
	e := &CorpusNotFound{CorpusChoice: runner.CorpusChoice{Folders: 7, Search: model.CorpusSearch{By: model.CorpusNone, Truncated: true}}, spelling: FlagSpelling}
	want := "no DRP2 corpus in the workspace: set --corpus to the folder holding positive/, negative/, negative_schema/ (in datoviz's layout, --corpus spec/drp2/fixtures). Looked for spec/drp2/fixtures, then ./fixtures, then any folder holding the three, down to 6 folders deep (7 folders searched; hidden folders, node_modules and links skipped); the search stopped after 20000 entries"
	if e.Error() != want {
		t.Errorf("message:\n%s\nwant\n%s", e.Error(), want)
	}
	// Files count towards the bound as folders do.
	wd := workspaceWith(t)
	for i := range runner.CorpusSearchEntries {
		if err := os.WriteFile(filepath.Join(wd, strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, search, err := chooseCorpus(envAt(wd), job{RunRequest: RunRequest{Source: Source{Spelling: FlagSpelling}}})
	if !errors.As(err, &e) || search != nil || !strings.HasSuffix(err.Error(), "the search stopped after 20000 entries") {
		t.Errorf("a search cut short: %+v, %v", search, err)
	}
}

// envAt is the environment of a run in wd with no variable set.
func envAt(wd string) Env {
	return Env{WorkDir: wd, Getenv: func(string) string { return "" }}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
