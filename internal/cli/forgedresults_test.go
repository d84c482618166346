package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A shard report from which one result of the implementation was dropped
// merges into a run in which the implementation did not report a fixture
// of the selection, which fails; an implementation --require-implementation
// names and no report holds fails too.
func TestMergeFailsAnImplementationThatDidNotReportTheSelection(t *testing.T) {
	dir := testkit.Corpus(t, streamsCorpus())
	shardReports(t, dir, "reports")
	report := filepath.Join(dir, "reports/shard-1/r.json")
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	im := doc["implementations"].([]any)[0].(map[string]any)
	results := im["results"].([]any)
	if len(results) == 0 {
		t.Fatal("shard 1 ran nothing")
	}
	im["results"] = results[1:]
	data, _ = json.Marshal(doc)
	if err := os.WriteFile(report, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "merge", "reports/*/*.json")
	if want := "did not report 1 of the 12 fixtures of the selection"; code != ExitMismatch || !strings.Contains(out+errs, want) {
		t.Fatalf("a shard without one result: exit %d, want %q\n%s%s", code, want, out, errs)
	}
	// The reports as the shards made them.
	shardReports(t, dir, "reports")
	if code, out, errs := run(t, dir, "merge", "--require-implementation", "drp2-fixtures", "reports/*/*.json"); code != ExitOK {
		t.Fatalf("the four shards: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, dir, "merge", "--require-implementation", "native-runtime", "reports/*/*.json")
	if want := "implementation native-runtime has no results"; code != ExitMismatch || !strings.Contains(out+errs, want) {
		t.Fatalf("a required implementation absent: exit %d, want %q\n%s%s", code, want, out, errs)
	}
}
