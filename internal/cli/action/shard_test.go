package action_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shard input runs one part of the corpus, and every report of the
// step says which; a value that is not K/N stops the step (exit 2).
func TestActionShardInput(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "embedded"
	w.Env["INPUT_SHARD"] = "2/3"
	r := w.Run(t, inProcess)
	if r.Code != ExitOK || !strings.Contains(r.Summary, "- Shard: 2/3 (") || !strings.Contains(r.Summary, "- Corpus sha256: `") {
		t.Fatalf("shard 2/3: exit %d\n%s\n%s", r.Code, r.Summary, r.Log)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err != nil || !strings.Contains(string(data), "\"shard\": {\n      \"index\": 2,\n      \"count\": 3\n    }") {
		t.Errorf("the JSON report names no shard: %v\n%.600s", err, data)
	}
	// auto: the matrix's shard, passed on in the documented variables.
	w.Env["INPUT_SHARD"] = "auto"
	w.Env["DRP2_SHARD_INDEX"], w.Env["DRP2_SHARD_TOTAL"] = "3", "4"
	if r := w.Run(t, inProcess); r.Code != ExitOK || !strings.Contains(r.Summary, "- Shard: 3/4 (") {
		t.Errorf("shard auto: exit %d\n%s\n%s", r.Code, r.Summary, r.Log)
	}
	delete(w.Env, "DRP2_SHARD_INDEX")
	if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "no CI system says which shard this job runs") {
		t.Errorf("shard auto without an index: exit %d\n%s", r.Code, r.Log)
	}
	for _, bad := range []string{"3", "0/3", "4/3", "two/three"} {
		w.Env["INPUT_SHARD"] = bad
		if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "input shard") {
			t.Errorf("shard %s: exit %d\n%s", bad, r.Code, r.Log)
		}
	}
}
