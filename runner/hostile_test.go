package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// TestHostileButValidInput covers inputs that are legal JSON but large or
// extreme: each fixture gets a result, the others still run.
func TestHostileButValidInput(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	root := writeCorpus(t, map[string]string{
		"positive/ten_mb_string.json": strings.Replace(fixtureJSON("ten_mb_string", success, hello, reply),
			`"name": "ten_mb_string"`, `"name": "ten_mb_string", "notes": "`+huge+`"`, 1),
		"negative_schema/id_1e400.json": fixtureJSON("id_1e400", schemaError(2), hello, reply,
			`{"cmd": "CreateBuffer", "id": 1e400, "size": 16, "usage": ["COPY_DST"], "extra": true}`),
		"negative_schema/id_2_64.json": fixtureJSON("id_2_64", schemaError(2), hello, reply,
			`{"cmd": "CreateBuffer", "id": 18446744073709551616, "size": 16, "usage": ["COPY_DST"], "extra": true}`),
		"positive/big_ids.json": fixtureJSON("big_ids", success, hello, reply,
			`{"cmd": "CreateBuffer", "id": 18446744073709551616, "size": 1e400, "usage": ["COPY_DST"]}`),
		"positive/ok.json": fixtureJSON("ok", success, hello, reply),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
	r := byPath(run)
	for _, p := range []string{"positive/ten_mb_string.json", "negative_schema/id_1e400.json", "negative_schema/id_2_64.json", "positive/ok.json"} {
		if !r[p].Passed {
			t.Errorf("%s: %+v", p, r[p].Actual)
		}
	}
	// Huge numbers pass the upstream-style schema (ids have no maximum)
	// and reach the semantic phase exactly as written, which judges them
	// without overflowing.
	if got := r["positive/big_ids.json"]; got.IsCorpusError() || strings.HasPrefix(got.Actual.Message, "internal error") {
		t.Errorf("big ids: %+v", got.Actual)
	} else {
		t.Logf("big ids: %s %s %s", got.Actual.Phase, got.Actual.Code, got.Actual.Message)
	}
}

// TestHugeFileIsRefusedBeforeReading uses a sparse 300 MB file: the size
// limit refuses it from its size alone, so memory stays small.
func TestHugeFileIsRefusedBeforeReading(t *testing.T) {
	root := writeCorpus(t, map[string]string{"positive/ok.json": fixtureJSON("ok", success, hello, reply)})
	big := filepath.Join(root, "positive", "huge.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	run := runCorpus(t, Config{Corpus: root})
	r := byPath(run)
	got := r["positive/huge.json"]
	if !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "314572800 bytes") {
		t.Errorf("huge: %+v", got.Actual)
	}
	if !r["positive/ok.json"].Passed {
		t.Error("the other fixture did not pass")
	}
	if run.Summary.Failed != 1 || run.Summary.CorpusErrors != 1 {
		t.Errorf("summary %+v", run.Summary)
	}
}

// TestLinkedClassFolderIsNotFollowed: a pull request may commit a class
// folder itself as a link (positive -> /). It is skipped with a finding,
// like a linked file, and nothing behind it is read.
func TestLinkedClassFolderIsNotFollowed(t *testing.T) {
	outside := writeCorpus(t, map[string]string{"secret.json": fixtureJSON("secret", success, hello, reply)})
	root := writeCorpus(t, map[string]string{"negative_schema/m.json": fixtureJSON("m", schemaError(2), hello, reply, `{"id": 1}`)})
	if err := os.Symlink(outside, filepath.Join(root, "positive")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("negative_schema", filepath.Join(root, "negative")); err != nil {
		t.Fatal(err)
	}
	run := runCorpus(t, Config{Corpus: root})
	if len(run.Results) != 1 || run.Results[0].RelPath != "negative_schema/m.json" {
		t.Errorf("results: %+v", run.Results)
	}
	found := map[string]string{}
	for _, f := range run.Findings {
		if f.Kind == model.FindingSkippedFile {
			found[f.Path] = f.Message
		}
	}
	for _, p := range []string{"positive", "negative"} {
		if !strings.Contains(found[p], "symbolic link") {
			t.Errorf("%s: no finding about the link (findings: %v)", p, found)
		}
	}
	if run.Summary.Discovered != 1 {
		t.Errorf("discovered %d, want 1", run.Summary.Discovered)
	}
}
