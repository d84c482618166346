package action_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// The shard-timings input balances the shards by an earlier report's
// durations, and the shard's report records which report by its SHA-256,
// for a merge to hold the matrix to; a report of no durations (one made
// under SOURCE_DATE_EPOCH) balances nothing and stops the step.
func TestActionShardTimingsInput(t *testing.T) {
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_CORPUS"] = "embedded"
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Fatalf("the whole run: exit %d\n%s", r.Code, r.Log)
	}
	whole, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "untimed.json"), whole, 0o644); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(whole, &doc); err != nil {
		t.Fatal(err)
	}
	for i, r := range doc["results"].([]any) {
		r.(map[string]any)["duration_ms"] = 1 + i%7
	}
	timed, _ := json.Marshal(doc)
	if err := os.WriteFile(filepath.Join(w.Dir, "timings.json"), timed, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env["INPUT_SHARD"] = "1/2"
	w.Env["INPUT_SHARD-TIMINGS"] = "timings.json"
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Fatalf("a timed shard: exit %d\n%s", r.Code, r.Log)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	sum := sha256.Sum256(timed)
	if want := `"timings": "` + hex.EncodeToString(sum[:]) + `"`; err != nil || !strings.Contains(string(data), want) {
		t.Errorf("the shard's report does not record the timings it was balanced by (%s): %v\n%.800s", want, err, data)
	}
	w.Env["INPUT_SHARD-TIMINGS"] = "untimed.json"
	if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "untimed.json") {
		t.Errorf("timings of no durations: exit %d\n%s", r.Code, r.Log)
	}
}
