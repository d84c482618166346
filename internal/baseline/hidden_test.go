package baseline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// lfsPointer is what a checkout without LFS objects holds in place of a
// file kept in Git LFS.
const lfsPointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1234\n"

// TestHiddenFixturesNamed: a change that hides fixtures instead of fixing
// them (one replaced by a link, one deleted, a folder renamed Positive/, a
// file renamed .JSON, one left as a Git LFS pointer) gets a headline that
// names each removed fixture with the base's verdict, the failures first,
// and a corpus error for each fixture that is still there under a name the
// corpus does not know or as a pointer.
func TestHiddenFixturesNamed(t *testing.T) {
	passing := projectFixture(t, "positive/session_handshake_ok.json")
	failing := withExpectedCode(t, projectFixture(t, "negative/invalid_identity_duplicate_buffer_id.json"), "DRP2_ERR_BOGUS")
	base := map[string][]byte{
		"fixtures/negative/linked.json":  failing,
		"fixtures/negative/deleted.json": failing,
		"fixtures/positive/kept.json":    passing,
		"fixtures/positive/upper.json":   passing,
		"fixtures/positive/lfs.json":     passing,
		"fixtures/positive/stays.json":   passing,
	}
	head := map[string][]byte{
		"fixtures/Positive/kept.json":  passing,
		"fixtures/positive/upper.JSON": passing,
		"fixtures/positive/lfs.json":   []byte(lfsPointer),
		"fixtures/positive/stays.json": passing,
		"elsewhere/linked.json":        failing,
	}
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, base)
	baseHash := commitAll(t, repo, "base")
	writeTree(t, dir, head)
	if err := os.MkdirAll(filepath.Join(dir, "fixtures", "negative"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../elsewhere/linked.json", filepath.Join(dir, "fixtures", "negative", "linked.json")); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "head")

	cfg := headConfig(dir)
	run := runHead(t, cfg)
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg}, run)
	if err != nil {
		t.Fatal(err)
	}
	want := "1 regressed (1 broken), 2 added, 4 removed (2 failed on the base: negative/deleted.json, negative/linked.json; " +
		"2 passed on the base: positive/kept.json and 1 more) against base " + baseHash.String()[:7]
	if h := explain.ComparisonHeadline(c); h != want {
		t.Errorf("headline %q\n    want %q", h, want)
	}

	refused := map[string]string{
		"Positive/kept.json":  "the folder Positive/ is not a corpus folder, whose name is positive/",
		"positive/upper.JSON": "the extension .JSON is not .json",
		"positive/lfs.json":   "the file is a Git LFS pointer, not the fixture: check the corpus out with its LFS objects (actions/checkout with `lfs: true`",
	}
	for _, r := range run.Results {
		if why, ok := refused[r.RelPath]; ok {
			delete(refused, r.RelPath)
			if r.Actual.Outcome != model.CorpusError || !strings.Contains(r.Actual.Message, why) {
				t.Errorf("%s: %s %q, want a corpus error saying %q", r.RelPath, r.Actual.Outcome, r.Actual.Message, why)
			}
		}
	}
	for rel := range refused {
		t.Errorf("%s: no result: the fixture vanished", rel)
	}
	if run.Summary.Unexcused() != 3 {
		t.Errorf("%d failures count, want the 3 corpus errors", run.Summary.Unexcused())
	}
}
