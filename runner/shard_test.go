package runner

import (
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

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
// it is and identifies the whole selection: every shard the same digest,
// of the list of the selection's paths, or with a name filter, which
// selects by content, the whole run's content digest; the summary's
// discovered count is the corpus's.
func TestShardsPartitionTheSelection(t *testing.T) {
	root := writeCorpus(t, shardCorpus(20))
	for _, name := range []string{"", "ok_1"} {
		whole := runCorpus(t, Config{Corpus: root, Name: name})
		if whole.Shard != nil || len(whole.CorpusDigest) != 64 {
			t.Fatalf("the whole run: shard %v, digest %q", whole.Shard, whole.CorpusDigest)
		}
		want := ListingDigest(relPaths(whole))
		if name != "" {
			want = whole.CorpusDigest
		}
		var union []string
		for k := 1; k <= 4; k++ {
			part := runCorpus(t, Config{Corpus: root, Name: name, Shard: &model.Shard{Index: k, Count: 4}})
			if *part.Shard != (model.Shard{Index: k, Count: 4}) || part.CorpusDigest != want {
				t.Errorf("name %q, shard %d: %v, digest %s, want %s", name, k, part.Shard, part.CorpusDigest, want)
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

// openCounter is a corpus that records every file opened.
type openCounter struct {
	fs.FS
	mu     sync.Mutex
	opened []string
}

func (o *openCounter) Open(name string) (fs.File, error) {
	o.mu.Lock()
	o.opened = append(o.opened, name)
	o.mu.Unlock()
	return o.FS.Open(name)
}

// TestShardReadsOnlyItsOwnFixtures: a shard opens the fixtures of its own
// part and no other, unless a name or tag filter, which selects by
// content, needs to read the others to know the selection.
func TestShardReadsOnlyItsOwnFixtures(t *testing.T) {
	corpus := fstest.MapFS{}
	for rel, body := range shardCorpus(40) {
		corpus[rel] = &fstest.MapFile{Data: []byte(body)}
	}
	for _, c := range []struct {
		name     string
		tags     []string
		readsAll bool
	}{{"", nil, false}, {"ok", nil, true}, {"", []string{"t"}, true}} {
		for k := 1; k <= 3; k++ {
			fsys := &openCounter{FS: corpus}
			run := runCorpus(t, Config{EmbeddedFS: fsys, Name: c.name, Tags: c.tags, Shard: &model.Shard{Index: k, Count: 3}})
			others := 0
			for _, rel := range fsys.opened {
				if strings.HasSuffix(rel, ".json") && ShardOf(rel, 3) != k {
					others++
				}
			}
			if readsAll := others > 0; readsAll != c.readsAll || len(run.CorpusDigest) != 64 {
				t.Errorf("name %q, tags %v, shard %d/3: opened %d fixtures of other shards (%v), digest %q", c.name, c.tags, k, others, fsys.opened, run.CorpusDigest)
			}
		}
	}
}

// TestListingDigestIsSortedPaths: a shard's digest is what sha256sum
// prints of the fixtures' paths in path order, one a line; a path holding
// a newline or a backslash cannot make another list's lines.
func TestListingDigestIsSortedPaths(t *testing.T) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("no sha256sum")
	}
	root := writeCorpus(t, shardCorpus(5))
	out, err := exec.Command("sh", "-c", "cd '"+root+"' && find positive negative -name '*.json' | LC_ALL=C sort | sha256sum").Output()
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := strings.Cut(string(out), " ")
	if got := runCorpus(t, Config{Corpus: root, Shard: &model.Shard{Index: 2, Count: 3}}).CorpusDigest; got != want {
		t.Errorf("digest %s, sha256sum of the sorted paths says %s", got, want)
	}
	for _, pair := range [][2][]string{
		{{"positive/a.json\npositive/b.json"}, {"positive/a.json", "positive/b.json"}},
		{{"positive/a.json\npositive/b.json"}, {"positive/a.json\\npositive/b.json"}},
		{{"\\x.json"}, {"\\\\x.json"}},
	} {
		if ListingDigest(pair[0]) == ListingDigest(pair[1]) {
			t.Errorf("%q and %q list alike", pair[0], pair[1])
		}
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
