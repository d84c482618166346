package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// streamsCorpus is twelve passing streams: enough that each of four
// shards runs some.
func streamsCorpus() map[string]string {
	files := map[string]string{}
	for i := range 12 {
		name := fmt.Sprintf("stream_%02d", i)
		files["fixtures/positive/"+name+".json"] = testkit.Fixture(name, testkit.Success, testkit.Hello, testkit.Reply)
	}
	return files
}

// shardReports writes the reports of four shards of the corpus in dir
// run through the project's adapter, as four shard jobs would, at
// <folder>/shard-K/r.json.
func shardReports(t *testing.T, dir, folder string) {
	t.Helper()
	for k := 1; k <= 4; k++ {
		out := fmt.Sprintf("%s/shard-%d/r.json", folder, k)
		if code, o, e := run(t, dir, "run", "--shard", fmt.Sprintf("%d/4", k), "--fail-on", "never",
			"--implementation", selfAdapter(t), "--json-out", out); code != ExitOK {
			t.Fatalf("shard %d: exit %d\n%s%s", k, code, o, e)
		}
	}
}

// Four shard reports committed by a pull request where the shards
// workflow downloads its artifacts make a whole and say every fixture
// passed; merge refuses a report git tracks, naming it. The same reports
// downloaded (untracked) merge.
func TestMergeRefusesReportsTheRepositoryTracks(t *testing.T) {
	dir := testkit.Corpus(t, streamsCorpus())
	commitAll(t, dir, "base")
	shardReports(t, dir, "artifacts")
	commitAll(t, dir, "head: four reports")
	code, out, errs := run(t, dir, "merge", "artifacts/*/*.json")
	want := "results artifacts/shard-1/r.json: git tracks this file"
	if code != ExitUsage || !strings.Contains(errs, want) {
		t.Fatalf("exit %d, want %d and %q\n%s%s", code, ExitUsage, want, out, errs)
	}
	shardReports(t, dir, "drp2-artifacts")
	if code, out, errs := run(t, dir, "merge", "drp2-artifacts/*/*.json"); code != ExitOK {
		t.Fatalf("downloaded reports: exit %d\n%s%s", code, out, errs)
	}
}
