package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		name   string
		dirs   []string
		path   string
		reason string
	}{
		{"datoviz's layout", []string{"spec/drp2/fixtures/*", "spec/drp2/schema", "src"}, "spec/drp2/fixtures", "the upstream layout"},
		{"the upstream layout before ./fixtures and others", []string{"spec/drp2/fixtures/*", "fixtures/*", "tests/corpus/*"}, "spec/drp2/fixtures", "the upstream layout"},
		{"./fixtures before another", []string{"fixtures/*", "tests/corpus/*"}, "fixtures", "./fixtures"},
		{"the one corpus elsewhere", []string{"tests/drp2/corpus/*", "src/fixtures"}, "tests/drp2/corpus", "the only corpus in the workspace"},
		{"the workspace itself", []string{"./*"}, ".", "the only corpus in the workspace"},
		{"fixtures below a corpus belong to it", []string{"c/*", "c/positive/nested/*"}, "c", "the only corpus in the workspace"},
	} {
		got, err := FindCorpus(layout(t, c.dirs...))
		if err != nil || got.Path != c.path || got.Why != c.reason {
			t.Errorf("%s: %+v, %v; want %s (%s)", c.name, got, err, c.path, c.reason)
		}
	}
}

func TestFindFailsClearly(t *testing.T) {
	_, err := FindCorpus(layout(t, "src/fixtures", "spec/drp2/schema", "spec/drp2/fixtures/positive"))
	var nf *CorpusNotFound
	if !errors.As(err, &nf) || len(nf.Found) != 0 {
		t.Fatalf("no corpus: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"no DRP2 corpus in the workspace", "set the corpus input", "positive/, negative/, negative_schema/", "corpus: spec/drp2/fixtures", "Looked for spec/drp2/fixtures, then ./fixtures", "down to 6 folders deep", "folders searched"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	_, err = FindCorpus(layout(t, "a/corpus/*", "b/corpus/*"))
	if !errors.As(err, &nf) || strings.Join(nf.Found, " ") != "a/corpus b/corpus" || !strings.Contains(err.Error(), "2 DRP2 corpora in the workspace (a/corpus, b/corpus): set the corpus input to the one to run") {
		t.Errorf("two corpora: %v", err)
	}
	if _, err := FindCorpus(filepath.Join(t.TempDir(), "missing")); err == nil || errors.As(err, &nf) {
		t.Errorf("a missing workspace: %v", err)
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
	_, err := FindCorpus(root)
	var nf *CorpusNotFound
	if !errors.As(err, &nf) || len(nf.Found) != 0 {
		t.Fatalf("found a corpus through a link, a hidden folder, node_modules or past the depth: %v", err)
	}

	wide := layout(t)
	for i := range 60 {
		mkdir(t, filepath.Join(wide, fmt.Sprintf("d%02d", i)))
	}
	mkdir(t, filepath.Join(wide, "zz", "corpus", "positive"))
	s := corpusSearch{root: wide, limit: 50}
	if err := s.run(); err != nil {
		t.Fatal(err)
	}
	if !s.truncated || s.entries > 51 {
		t.Errorf("the entry bound did not stop the search: %+v", s)
	}
	msg := (&CorpusNotFound{Folders: s.folders, Truncated: true, limit: 50}).Error()
	if !strings.Contains(msg, "the search stopped after 50 entries") {
		t.Errorf("message: %s", msg)
	}
}
