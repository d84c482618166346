package runner

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// shardCorpus holds n passing fixtures, a failing one and a broken file.
func shardCorpus(n int) map[string]string {
	files := map[string]string{
		"negative/bad.json":    fixtureJSON("bad", schemaError(0), `{"cmd": 7}`),
		"negative/broken.json": `{"name": "broken",`,
	}
	for i := range n {
		name := fmt.Sprintf("ok_%02d", i)
		files["positive/"+name+".json"] = fixtureJSON(name, success, hello, reply)
	}
	return files
}

func relPaths(run *model.Run) []string {
	var out []string
	for _, r := range run.Results {
		out = append(out, r.RelPath)
	}
	return out
}

// TestShardsPartitionTheSelection: the shards of a run are disjoint, cover
// the run's fixtures in its order, and each says which shard of how many
// it is and the digest of the whole selection; the summary's discovered
// count is the corpus's.
func TestShardsPartitionTheSelection(t *testing.T) {
	root := writeCorpus(t, shardCorpus(20))
	for _, name := range []string{"", "ok_1"} {
		whole := runCorpus(t, Config{Corpus: root, Name: name})
		if whole.Shard != nil || len(whole.CorpusDigest) != 64 {
			t.Fatalf("the whole run: shard %v, digest %q", whole.Shard, whole.CorpusDigest)
		}
		var union []string
		for k := 1; k <= 4; k++ {
			part := runCorpus(t, Config{Corpus: root, Name: name, Shard: &model.Shard{Index: k, Count: 4}})
			if *part.Shard != (model.Shard{Index: k, Count: 4}) || part.CorpusDigest != whole.CorpusDigest {
				t.Errorf("name %q, shard %d: %v, digest %s, the whole run's %s", name, k, part.Shard, part.CorpusDigest, whole.CorpusDigest)
			}
			if part.Summary.Discovered != whole.Summary.Discovered || part.Summary.Run != len(part.Results) {
				t.Errorf("name %q, shard %d: summary %+v", name, k, part.Summary)
			}
			for _, r := range part.Results {
				if ShardOf(r.RelPath, 4) != k {
					t.Errorf("shard %d ran %s, of shard %d", k, r.RelPath, ShardOf(r.RelPath, 4))
				}
			}
			union = append(union, relPaths(part)...)
		}
		slices.Sort(union)
		if want := relPaths(whole); !slices.Equal(union, want) {
			t.Errorf("name %q: the shards ran %v, the whole run %v", name, union, want)
		}
	}
	all := runCorpus(t, Config{Corpus: root})
	some := runCorpus(t, Config{Corpus: root, Name: "ok_1"})
	if all.CorpusDigest == some.CorpusDigest {
		t.Error("a name filter selects other fixtures, but the digest is the same")
	}
}

// TestShardStable: a fixture added to the corpus never moves another one
// to another shard.
func TestShardStable(t *testing.T) {
	files := shardCorpus(12)
	before := map[int][]string{}
	for k := 1; k <= 3; k++ {
		before[k] = relPaths(runCorpus(t, Config{Corpus: writeCorpus(t, files), Shard: &model.Shard{Index: k, Count: 3}}))
	}
	files["positive/aaa_new.json"] = fixtureJSON("aaa_new", success, hello, reply)
	root := writeCorpus(t, files)
	for k := 1; k <= 3; k++ {
		after := relPaths(runCorpus(t, Config{Corpus: root, Shard: &model.Shard{Index: k, Count: 3}}))
		after = slices.DeleteFunc(after, func(p string) bool { return p == "positive/aaa_new.json" })
		if !slices.Equal(after, before[k]) {
			t.Errorf("shard %d: %v before the new fixture, %v after", k, before[k], after)
		}
	}
}

// TestCorpusDigestIsSha256sum: the digest is what sha256sum prints for the
// fixture files listed in path order, hashed again.
func TestCorpusDigestIsSha256sum(t *testing.T) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("no sha256sum")
	}
	root := writeCorpus(t, shardCorpus(5))
	out, err := exec.Command("sh", "-c", "cd '"+root+"' && find positive negative -name '*.json' | LC_ALL=C sort | xargs sha256sum | sha256sum").Output()
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := strings.Cut(string(out), " ")
	if got := runCorpus(t, Config{Corpus: root}).CorpusDigest; got != want {
		t.Errorf("digest %s, sha256sum says %s", got, want)
	}
}
