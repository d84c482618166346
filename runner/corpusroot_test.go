package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// layout makes the folders named (slash paths) below a new workspace;
// a name ending in "/" + a corpus marker "*" becomes a corpus root.
func layout(t *testing.T, dirs ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range dirs {
		if c, ok := strings.CutSuffix(d, "/*"); ok {
			for _, f := range []string{"positive", "negative", "negative_schema"} {
				mkdir(t, filepath.Join(root, c, f))
			}
			continue
		}
		mkdir(t, filepath.Join(root, d))
	}
	return root
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.FromSlash(p), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestFindChooses(t *testing.T) {
	for _, c := range []struct {
		name string
		dirs []string
		path string
		by   model.CorpusRule
	}{
		{"datoviz's layout", []string{"spec/drp2/fixtures/*", "spec/drp2/schema", "src"}, "spec/drp2/fixtures", model.CorpusUpstream},
		{"the upstream layout before ./fixtures and others", []string{"spec/drp2/fixtures/*", "fixtures/*", "tests/corpus/*"}, "spec/drp2/fixtures", model.CorpusUpstream},
		// A corpus that lost a folder is still the corpus: another must
		// not run in its place.
		{"the upstream layout with a folder missing", []string{"spec/drp2/fixtures/positive", "fixtures/*"}, "spec/drp2/fixtures", model.CorpusUpstream},
		{"./fixtures before another", []string{"fixtures/*", "tests/corpus/*"}, "fixtures", model.CorpusConventional},
		{"./fixtures with a folder missing", []string{"fixtures/negative", "tests/corpus/*"}, "fixtures", model.CorpusConventional},
		{"the one corpus elsewhere", []string{"tests/drp2/corpus/*", "src/fixtures"}, "tests/drp2/corpus", model.CorpusSearched},
		{"the workspace itself", []string{"./*"}, ".", model.CorpusSearched},
		{"fixtures below a corpus belong to it", []string{"c/*", "c/positive/nested/*"}, "c", model.CorpusSearched},
	} {
		got, err := FindCorpus(layout(t, c.dirs...))
		if err != nil || got.Path != c.path || got.Search != (model.CorpusSearch{By: c.by}) {
			t.Errorf("%s: %+v, %v; want %s (rule %d)", c.name, got, err, c.path, c.by)
		}
	}
}

// A search that finds none, or several, says so and what it searched;
// the front end decides what that means. Elsewhere than the two known
// places, a folder is a corpus only when it holds all three folders.
func TestFindNoneOrSeveral(t *testing.T) {
	got, err := FindCorpus(layout(t, "src/fixtures", "spec/drp2/schema", "half/positive", "half/negative"))
	if err != nil || got.Path != "" || len(got.Found) != 0 || got.Search != (model.CorpusSearch{By: model.CorpusNone}) || got.Folders < 5 {
		t.Fatalf("no corpus: %+v, %v", got, err)
	}
	got, err = FindCorpus(layout(t, "a/corpus/*", "b/corpus/*"))
	if err != nil || got.Path != "" || strings.Join(got.Found, " ") != "a/corpus b/corpus" {
		t.Errorf("two corpora: %+v, %v", got, err)
	}
	if _, err := FindCorpus(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Errorf("a missing workspace: no error")
	}
}

// The pull request lays out the workspace: links are never followed,
// hidden folders and node_modules are not searched, and the search stops
// at its depth and entry bounds.
func TestFindIsBounded(t *testing.T) {
	elsewhere := layout(t, "real/*")
	root := layout(t, "spec/drp2", ".git/corpus/*", "node_modules/x/*", "a/b/c/d/e/f/g/*", "half/positive", "half/negative")
	if err := os.Symlink(filepath.Join(elsewhere, "real"), filepath.Join(root, "spec/drp2/fixtures")); err != nil {
		t.Skip("SKIPPED: no symbolic links here")
	}
	os.Symlink(filepath.Join(elsewhere, "real"), filepath.Join(root, "fixtures"))
	os.Symlink(filepath.Join(elsewhere, "real"), filepath.Join(root, "linked"))
	os.Symlink(filepath.Join(elsewhere, "real", "negative_schema"), filepath.Join(root, "half", "negative_schema"))
	got, err := FindCorpus(root)
	if err != nil || got.Path != "" || len(got.Found) != 0 {
		t.Fatalf("found a corpus through a link, a hidden folder, node_modules or past the depth: %+v, %v", got, err)
	}

	wide := layout(t)
	for i := range 60 {
		mkdir(t, filepath.Join(wide, fmt.Sprintf("d%02d", i)))
	}
	mkdir(t, filepath.Join(wide, "zz", "corpus", "positive"))
	s := corpusSearch{tree: workspace.New(wide, true), limit: 50}
	if err := s.run(); err != nil {
		t.Fatal(err)
	}
	if !s.truncated || s.entries > 51 {
		t.Errorf("the entry bound did not stop the search: %+v", s)
	}

	// One corpus found before the bound is taken, but the answer says
	// the search was cut short: it need not be the only one.
	cut := layout(t, "a/*")
	for i := range 60 {
		mkdir(t, filepath.Join(cut, "b", fmt.Sprintf("d%02d", i)))
	}
	got, err = FindCorpusIn(workspace.New(cut, true), 50)
	if err != nil || got.Path != "a" || got.Search != (model.CorpusSearch{By: model.CorpusSearched, Truncated: true}) {
		t.Errorf("a search cut short: %+v, %v", got, err)
	}
}
