package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// shardOf is the documented rule (docs/cli.md), written again: the first
// eight bytes of the SHA-256 of the corpus path, big-endian, modulo the
// count, plus one.
func shardOf(rel string, n int) int {
	sum := sha256.Sum256([]byte(rel))
	return int(binary.BigEndian.Uint64(sum[:8])%uint64(n)) + 1
}

// shardedCorpus is the harness corpus and enough more fixtures that each
// of four shards runs some: passing streams, two fixtures of one name in
// different shards (a duplicate neither shard sees alone), a mismatch and
// a broken file.
func shardedCorpus(t *testing.T) map[string]string {
	files := testkit.Merge(testkit.HarnessCorpus, map[string]string{
		"fixtures/negative/wrong.json":  testkit.Fixture("wrong", testkit.Error("semantic_validation", "DRP2_ERR_INVALID_ID", 2), testkit.Hello, testkit.Reply),
		"fixtures/positive/broken.json": `{"name": "broken",`,
	})
	for i := range 12 {
		name := fmt.Sprintf("stream_%02d", i)
		files["fixtures/positive/"+name+".json"] = testkit.Fixture(name, testkit.Success, testkit.Hello, testkit.Reply)
	}
	// stream_00 again under another path: find one in another shard.
	for i := 0; ; i++ {
		rel := fmt.Sprintf("positive/twin_%d.json", i)
		if shardOf(rel, 4) != shardOf("positive/stream_00.json", 4) {
			files["fixtures/"+rel] = testkit.Fixture("stream_00", testkit.Success, testkit.Hello, testkit.Reply)
			break
		}
	}
	return files
}

// timeless is a JSON report with what differs between runs of one corpus
// aside: the timings and the run's metadata (none are in the report
// today; the keys are cleared should they come).
func timeless(t *testing.T, data []byte) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var clear func(v any)
	clear = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.Contains(k, "duration") || k == "started" || k == "restarts" {
					delete(v, k)
					continue
				}
				clear(x)
			}
		case []any:
			for _, x := range v {
				clear(x)
			}
		}
	}
	clear(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestFourShardsMergeIntoTheWholeRun: a corpus run whole, and run as four
// shards through the same implementations (the project's adapter and the
// Python example, which gets a fixture wrong on purpose), each shard's
// report saying which it is and the digest of the selection's paths;
// merged, the four equal the whole run's report, its corpus digest of the
// fixtures' content included.
func TestFourShardsMergeIntoTheWholeRun(t *testing.T) {
	py := testkit.PythonExample(t)
	dir := testkit.Corpus(t, shardedCorpus(t))
	impl := []string{"--implementation", selfAdapter(t), "--implementation", py, "--fail-on", "never"}
	if code, out, errs := run(t, dir, append([]string{"run", "--json-out", "whole.json"}, impl...)...); code != ExitOK {
		t.Fatalf("whole run: %d\n%s%s", code, out, errs)
	}
	whole, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
	var wholeDoc struct {
		Summary struct {
			Run    int    `json:"run"`
			Digest string `json:"corpus_sha256"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(whole, &wholeDoc); err != nil || len(wholeDoc.Summary.Digest) != 64 {
		t.Fatalf("whole report: %v, %+v", err, wholeDoc)
	}
	ran, shardDigest := 0, ""
	for k := 1; k <= 4; k++ {
		out := fmt.Sprintf("shards/%d.json", k)
		args := append([]string{"run", "--shard", fmt.Sprintf("%d/4", k), "--json-out", out, "--junit", out + ".xml"}, impl...)
		code, stdout, errs := run(t, dir, args...)
		if code != ExitOK || !strings.Contains(stdout, fmt.Sprintf("Shard: %d/4 (", k)) || !strings.Contains(stdout, "Corpus sha256: ") {
			t.Fatalf("shard %d: %d\n%s%s", k, code, stdout, errs)
		}
		data, _ := os.ReadFile(filepath.Join(dir, out))
		var doc struct {
			Summary struct {
				Run    int                        `json:"run"`
				Digest string                     `json:"corpus_sha256"`
				Shard  struct{ Index, Count int } `json:"shard"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		// Every shard names the selection alike (the list of its paths,
		// not the whole run's content, which no shard reads); the merge
		// has the whole run's digest again, compared below.
		if k == 1 {
			shardDigest = doc.Summary.Digest
		}
		if len(doc.Summary.Digest) != 64 || doc.Summary.Digest != shardDigest || doc.Summary.Digest == wholeDoc.Summary.Digest ||
			doc.Summary.Shard.Index != k || doc.Summary.Shard.Count != 4 || doc.Summary.Run == 0 {
			t.Errorf("shard %d's summary: %+v", k, doc.Summary)
		}
		ran += doc.Summary.Run
		xml, _ := os.ReadFile(filepath.Join(dir, out+".xml"))
		if !bytes.Contains(xml, []byte(fmt.Sprintf(`<property name="drp2.shard" value="%d/4">`, k))) {
			t.Errorf("shard %d's JUnit names no shard", k)
		}
	}
	if ran != wholeDoc.Summary.Run {
		t.Errorf("the shards ran %d fixtures, the whole run %d", ran, wholeDoc.Summary.Run)
	}
	code, _, errs := run(t, dir, "merge", "--fail-on", "never", "--json-out", "merged.json", "shards/*.json")
	if code != ExitOK {
		t.Fatalf("merge: %d %s", code, errs)
	}
	merged, _ := os.ReadFile(filepath.Join(dir, "merged.json"))
	if got, want := timeless(t, merged), timeless(t, whole); got != want {
		t.Errorf("four shards merged differ from the whole run:\n%s\n--- whole:\n%s", got, want)
	}
	if !bytes.Contains(merged, []byte(`"kind": "duplicate_name"`)) {
		t.Error("the duplicate name across two shards was lost")
	}
}

// TestMergeRefusesShardsThatAreNotAWhole: a shard missing, one twice,
// shards of two splits, shards of corpora whose paths differ, a shard's
// report that lost a result, and reports that disagree on a fixture's
// content are refused, each naming what is wrong; a fixture edited
// between the jobs of one split's shards, which no shard reads but its
// own, is not.
func TestMergeRefusesShardsThatAreNotAWhole(t *testing.T) {
	dir := testkit.Corpus(t, shardedCorpus(t))
	shard := func(k, n int, out string) {
		if code, o, e := run(t, dir, "run", "--shard", fmt.Sprintf("%d/%d", k, n), "--fail-on", "never", "--json-out", out); code != ExitOK {
			t.Fatalf("shard %d/%d: %d\n%s%s", k, n, code, o, e)
		}
	}
	for k := 1; k <= 4; k++ {
		shard(k, 4, fmt.Sprintf("a/%d.json", k))
	}
	// A shard compared with a report of the whole corpus is compared with
	// the same shard of it: nothing of the other shards reads as removed.
	if code, _, e := run(t, dir, "merge", "--fail-on", "never", "--json-out", "whole.json", "a/*.json"); code != ExitOK {
		t.Fatalf("merge: %d %s", code, e)
	}
	code, out, e := run(t, dir, "run", "--shard", "2/4", "--baseline", "whole.json", "--fail-on", "never", "--format", "json")
	if code != ExitOK || !strings.Contains(out, `"headline": "no change against base whole.json"`) {
		t.Errorf("shard 2/4 against the whole: exit %d, %s\n%s", code, e, out)
	}
	shard(1, 3, "b/1.json")
	// A fixture is added before another job's shard runs: its list of the
	// corpus's paths is another.
	added := filepath.Join(dir, "fixtures/positive/added.json")
	if err := os.WriteFile(added, []byte(testkit.Fixture("added", testkit.Success, testkit.Hello, testkit.Reply)), 0o644); err != nil {
		t.Fatal(err)
	}
	shard(2, 4, "c/2.json")
	if err := os.Remove(added); err != nil {
		t.Fatal(err)
	}
	// A fixture is edited before the job of the shard that holds it runs:
	// no other shard reads it, so the shards alone cannot tell, but a
	// report that ran it too (the whole run) disagrees on its content.
	edited := shardOf("positive/stream_03.json", 4)
	p := filepath.Join(dir, "fixtures/positive/stream_03.json")
	if err := os.WriteFile(p, []byte(testkit.Fixture("stream_03", testkit.Success, testkit.Hello, testkit.Reply)+" "), 0o644); err != nil {
		t.Fatal(err)
	}
	shard(edited, 4, fmt.Sprintf("e/%d.json", edited))
	mixed := []string{"a/1.json", "a/2.json", "a/3.json", "a/4.json"}
	mixed[edited-1] = fmt.Sprintf("e/%d.json", edited)
	// A shard's report that lost a result: the shards no longer hold the
	// selection their digest lists.
	dropFirstResult(t, filepath.Join(dir, "a/3.json"), filepath.Join(dir, "lost/3.json"))
	for _, c := range []struct {
		reports []string
		want    string
	}{
		{[]string{"a/1.json", "a/2.json", "a/4.json"}, "shard 3/4 is missing"},
		{[]string{"a/1.json", "a/4.json"}, "shards 2/4, 3/4 are missing"},
		{[]string{"a/1.json", "a/2.json", "a/2.json", "a/3.json", "a/4.json"}, ""},
		{[]string{"a/1.json", "a/*.json", "b/1.json"}, "a/1.json is shard 1/4 and b/1.json shard 1/3"},
		{[]string{"a/1.json", "c/2.json", "a/3.json", "a/4.json"}, "a/1.json and c/2.json are shards of different corpora"},
		{mixed, ""},
		{append(mixed, "whole.json"), "disagree on positive/stream_03.json (the fixture's content differs)"},
		{[]string{"a/1.json", "a/2.json", "lost/3.json", "a/4.json"}, "the shards (a/1.json, a/2.json, lost/3.json, a/4.json) hold "},
	} {
		args := append([]string{"merge", "--fail-on", "never"}, c.reports...)
		code, _, stderr := run(t, dir, args...)
		if c.want == "" {
			// The same file named twice is read once.
			if code != ExitOK {
				t.Errorf("%v: exit %d, %s", c.reports, code, stderr)
			}
			continue
		}
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q, want %q", c.reports, code, stderr, c.want)
		}
	}
	// One shard's report copied under another name: shard 2/4 twice.
	data, _ := os.ReadFile(filepath.Join(dir, "a/2.json"))
	if err := os.WriteFile(filepath.Join(dir, "again.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, dir, "merge", "a/*.json", "again.json"); code != ExitUsage || !strings.Contains(stderr, "a/2.json and again.json are both shard 2/4") {
		t.Errorf("a shard twice: exit %d, %q", code, stderr)
	}
	// A second split, of two, through an implementation: a whole of its
	// own beside the four shards of the validator alone.
	splitOfTwo := func() {
		for k := 1; k <= 2; k++ {
			out := fmt.Sprintf("d/%d.json", k)
			if code, o, e := run(t, dir, "run", "--shard", fmt.Sprintf("%d/2", k), "--implementation", selfAdapter(t), "--fail-on", "never", "--json-out", out); code != ExitOK {
				t.Fatalf("%s: %d\n%s%s", out, code, o, e)
			}
		}
	}
	splitOfTwo()
	if err := os.WriteFile(filepath.Join(dir, "fixtures/positive/stream_03.json"), []byte(testkit.Fixture("stream_03", testkit.Success, testkit.Hello, testkit.Reply)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, dir, "merge", "--fail-on", "never", "a/*.json", "d/*.json"); code != ExitUsage || !strings.Contains(stderr, "disagree on positive/stream_03.json (the fixture's content differs)") {
		t.Errorf("splits of a corpus that changed between them: exit %d, %q", code, stderr)
	}
	splitOfTwo()
	if code, _, stderr := run(t, dir, "merge", "--fail-on", "never", "a/*.json", "d/*.json"); code != ExitOK {
		t.Errorf("two splits: exit %d, %q", code, stderr)
	}
	if code, _, stderr := run(t, dir, "merge", "--fail-on", "never", "a/*.json", "d/1.json"); code != ExitUsage || !strings.Contains(stderr, "shard 2/2 of the run through drp2-fixtures") {
		t.Errorf("a split short of a shard: exit %d, %q", code, stderr)
	}
	for _, bad := range []string{"0/4", "5/4", "2", "x/y", "1/0"} {
		if code, _, stderr := run(t, dir, "run", "--shard", bad); code != ExitUsage || !strings.Contains(stderr, "shard") {
			t.Errorf("--shard %s: exit %d, %q", bad, code, stderr)
		}
	}
}

// dropFirstResult writes the JSON report from without its first result,
// as a report edited after its job wrote it.
func dropFirstResult(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	results := doc["results"].([]any)
	doc["results"] = results[1:]
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
