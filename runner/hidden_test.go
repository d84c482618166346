package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

const lfsPointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1234\n"

// TestMisnamedFixturesRefused: a corpus folder named but for case, a
// fixture whose extension is .json but for case, and a fixture left as a
// Git LFS pointer are each a corpus error naming the cause, not a fixture
// that vanishes or a JSON syntax error.
func TestMisnamedFixturesRefused(t *testing.T) {
	fixture := fixtureJSON("a", success, hello, reply)
	root := writeCorpus(t, map[string]string{
		"positive/a.json":              fixture,
		"Positive/b.json":              fixture,
		"NEGATIVE_schema/deep/c.json":  fixture,
		"positive/d.JSON":              fixture,
		"positive/e.json":              lfsPointer,
		"positive/notes.txt":           "not a fixture",
		"other/f.json":                 fixture,
		"positive/folder.JSON/g.json":  fixture,
		"negative_schemas/h.json":      fixture,
		"positive/sub/Positive/i.json": fixture,
	})
	if err := os.Symlink("positive", filepath.Join(root, "NEGATIVE")); err != nil {
		t.Fatal(err)
	}
	run := runCorpus(t, Config{Corpus: root})
	if !hasFinding(run, "NEGATIVE", "the class folder is a symbolic link") {
		t.Errorf("a link named as a corpus folder but for case: no finding in %+v", run.Findings)
	}
	want := map[string]string{
		"positive/a.json":              "",
		"Positive/b.json":              "the folder Positive/ is not a corpus folder, whose name is positive/ (names are case-sensitive): rename the folder",
		"NEGATIVE_schema/deep/c.json":  "the folder NEGATIVE_schema/ is not a corpus folder, whose name is negative_schema/",
		"positive/d.JSON":              "the extension .JSON is not .json, the only one a fixture has (names are case-sensitive): rename the file",
		"positive/e.json":              "the file is a Git LFS pointer, not the fixture: check the corpus out with its LFS objects (actions/checkout with `lfs: true`, or `git lfs pull`)",
		"positive/folder.JSON/g.json":  "",
		"positive/sub/Positive/i.json": "",
	}
	if len(run.Results) != len(want) {
		t.Errorf("%d results, want %d", len(run.Results), len(want))
	}
	for _, r := range run.Results {
		why, ok := want[r.RelPath]
		switch {
		case !ok:
			t.Errorf("%s: read as a fixture", r.RelPath)
		case why == "" && !r.Passed:
			t.Errorf("%s: %s %s", r.RelPath, r.Actual.Outcome, r.Actual.Message)
		case why != "" && (r.Actual.Outcome != model.CorpusError || !strings.HasPrefix(r.Actual.Message, why)):
			t.Errorf("%s: %s %q, want a corpus error %q", r.RelPath, r.Actual.Outcome, r.Actual.Message, why)
		}
	}
}

// TestLFSPointerSchemaRefused: a schema file that is a Git LFS pointer
// stops the run with an error naming the file and what to do.
func TestLFSPointerSchemaRefused(t *testing.T) {
	root := writeCorpus(t, map[string]string{"positive/a.json": fixtureJSON("a", success, hello, reply)})
	pointer := filepath.Join(root, "command.schema.json")
	if err := os.WriteFile(pointer, []byte(lfsPointer), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Corpus: root, CommandSchema: pointer})
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "command.schema.json") ||
		!strings.Contains(err.Error(), "is a Git LFS pointer, not the schema") || !strings.Contains(err.Error(), "lfs: true") {
		t.Errorf("err = %v, want unusable input naming the file as an LFS pointer", err)
	}
}

func hasFinding(run *model.Run, path, message string) bool {
	for _, f := range run.Findings {
		if strings.HasSuffix(f.Path, path) && strings.Contains(f.Message, message) {
			return true
		}
	}
	return false
}
