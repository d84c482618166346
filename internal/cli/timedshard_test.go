package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// runWithEnv is run with the CI system's variables set.
func runWithEnv(t *testing.T, dir string, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	env := Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Getenv: func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1767225600"
		}
		return vars[k]
	}}
	code = Main(context.Background(), args, env)
	return code, out.String(), errb.String()
}

// TestShardAuto: --shard auto reads the shard from each CI system's
// variables, as docs/shards.md gives them, and says what it looked for
// when none is set; Bazel's status file is touched.
func TestShardAuto(t *testing.T) {
	dir := testkit.Corpus(t, shardedCorpus(t))
	status := filepath.Join(t.TempDir(), "shard-status")
	for _, c := range []struct {
		name  string
		shard string
		vars  map[string]string
		want  string
	}{
		{"GitHub matrix", "auto", map[string]string{"DRP2_SHARD_INDEX": "2", "DRP2_SHARD_TOTAL": "4"}, "Shard: 2/4 ("},
		{"GitLab", "auto", map[string]string{"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"}, "Shard: 3/3 ("},
		{"Buildkite", "auto", map[string]string{"BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "2"}, "Shard: 1/2 ("},
		{"Kubernetes", "auto/5", map[string]string{"JOB_COMPLETION_INDEX": "4"}, "Shard: 5/5 ("},
		{"Kubernetes, total in DRP2_SHARD_TOTAL", "auto", map[string]string{"JOB_COMPLETION_INDEX": "1", "DRP2_SHARD_TOTAL": "3"}, "pass it as --shard auto/N"},
		{"Bazel", "auto", map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "4", "TEST_SHARD_STATUS_FILE": status}, "Shard: 1/4 ("},
		{"Bazel, a total that disagrees", "auto/3", map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "4"}, "--shard auto/3: Bazel says TEST_TOTAL_SHARDS=4 shards"},
		{"GitLab, an index past the total", "auto", map[string]string{"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"}, `CI_NODE_INDEX="4" (GitLab) is not a shard of 3`},
		{"Buildkite, 1-based by mistake", "auto", map[string]string{"BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "2"}, `BUILDKITE_PARALLEL_JOB="2" (Buildkite) is not a shard of 2`},
		{"no CI system", "auto", nil, "--shard auto: no CI system says which shard this job runs: looked for DRP2_SHARD_INDEX/DRP2_SHARD_TOTAL (GitHub matrix), " +
			"TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel), JOB_COMPLETION_INDEX/--shard auto/N (Kubernetes indexed job), CI_NODE_INDEX/CI_NODE_TOTAL (GitLab), " +
			"BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT (Buildkite)"},
		{"a bad spelling", "auto/0", nil, `"auto/0" is not a shard: want auto, or auto/N`},
	} {
		code, out, errs := runWithEnv(t, dir, c.vars, "run", "--shard", c.shard, "--fail-on", "never")
		ok := strings.HasPrefix(c.want, "Shard: ")
		switch {
		case ok && (code != ExitOK || !strings.Contains(out, c.want)):
			t.Errorf("%s: exit %d, want %q in\n%s%s", c.name, code, c.want, out, errs)
		case !ok && (code != ExitUsage || !strings.Contains(errs, c.want)):
			t.Errorf("%s: exit %d, %q, want %q", c.name, code, errs, c.want)
		}
	}
	if _, err := os.Stat(status); err != nil {
		t.Errorf("Bazel's TEST_SHARD_STATUS_FILE was not touched: %v", err)
	}
}

// timingsReport is a report of the corpus run whole whose results took the
// durations given (milliseconds by corpus path; 1 ms for the others).
func timingsReport(t *testing.T, dir string, ms map[string]float64) string {
	t.Helper()
	if code, o, e := run(t, dir, "run", "--fail-on", "never", "--json-out", "whole.json"); code != ExitOK {
		t.Fatalf("whole run: %d\n%s%s", code, o, e)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc["results"].([]any) {
		r := r.(map[string]any)
		d, ok := ms[r["corpus_path"].(string)]
		if !ok {
			d = 1
		}
		r["duration_ms"] = d
	}
	out, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.MkdirAll(filepath.Join(dir, "timings"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "timings/report.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	return "timings/report.json"
}

// shardReport is what a timed shard's JSON report says of its split and
// which fixtures it ran.
type shardReport struct {
	Summary struct {
		Shard struct {
			Index, Count int
			Timings      string
		} `json:"shard"`
	} `json:"summary"`
	Results []struct {
		CorpusPath string `json:"corpus_path"`
	} `json:"results"`
}

// TestTimedShardsMerge: shards balanced by a timings report record its
// SHA-256, put the slowest fixtures apart (each of the four slowest alone
// in its shard's share of time), and merge into the whole run; merge
// refuses a missing shard, a split mixed with shards by path hash, and a
// fixture two shards hold.
func TestTimedShardsMerge(t *testing.T) {
	dir := testkit.Corpus(t, shardedCorpus(t))
	slow := []string{"positive/stream_00.json", "positive/stream_01.json", "positive/stream_02.json", "positive/stream_03.json"}
	timings := timingsReport(t, dir, map[string]float64{slow[0]: 900, slow[1]: 800, slow[2]: 700, slow[3]: 600})
	data, _ := os.ReadFile(filepath.Join(dir, timings))
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	holder := map[string]int{}
	for k := 1; k <= 4; k++ {
		out := fmt.Sprintf("timed/%d.json", k)
		if code, o, e := run(t, dir, "run", "--shard", fmt.Sprintf("%d/4", k), "--shard-timings", timings, "--fail-on", "never", "--json-out", out); code != ExitOK {
			t.Fatalf("shard %d: %d\n%s%s", k, code, o, e)
		}
		var rep shardReport
		b, _ := os.ReadFile(filepath.Join(dir, out))
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Summary.Shard.Timings != digest || rep.Summary.Shard.Index != k {
			t.Errorf("shard %d records %+v, want the timings %s", k, rep.Summary.Shard, digest)
		}
		for _, r := range rep.Results {
			holder[r.CorpusPath] = k
		}
	}
	seen := map[int]string{}
	for _, p := range slow {
		if other, ok := seen[holder[p]]; ok {
			t.Errorf("%s and %s, the slowest fixtures, are both in shard %d", other, p, holder[p])
		}
		seen[holder[p]] = p
	}
	if code, _, e := run(t, dir, "merge", "--fail-on", "never", "--json-out", "merged.json", "timed/*.json"); code != ExitOK {
		t.Fatalf("merge: %d %s", code, e)
	}
	merged, _ := os.ReadFile(filepath.Join(dir, "merged.json"))
	whole, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
	if got, want := timeless(t, merged), timeless(t, whole); got != want {
		t.Errorf("four timed shards merged differ from the whole run:\n%s\n--- whole:\n%s", got, want)
	}
	if code, o, e := run(t, dir, "run", "--shard", "2/4", "--fail-on", "never", "--json-out", "hashed/2.json"); code != ExitOK {
		t.Fatalf("hashed shard: %d\n%s%s", code, o, e)
	}
	// A fixture of shard 1 planted in shard 2's report.
	var doc map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "timed/2.json"))
	one, _ := os.ReadFile(filepath.Join(dir, "timed/1.json"))
	var first map[string]any
	if json.Unmarshal(b, &doc) != nil || json.Unmarshal(one, &first) != nil {
		t.Fatal("shard reports do not decode")
	}
	planted := first["results"].([]any)[0].(map[string]any)["corpus_path"]
	doc["results"] = append(doc["results"].([]any), first["results"].([]any)[0])
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(filepath.Join(dir, "planted.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reports []string
		want    string
	}{
		{[]string{"timed/1.json", "timed/2.json", "timed/4.json"}, "shard 3/4 is missing"},
		{[]string{"timed/1.json", "hashed/2.json", "timed/3.json", "timed/4.json"}, "timed/1.json was split by the timings report sha256 " + digest[:12] + " and hashed/2.json by path hash"},
		{[]string{"timed/1.json", "planted.json", "timed/3.json", "timed/4.json"}, fmt.Sprintf("timed/1.json, shard 1/4, and planted.json, shard 2/4, both hold %s", planted)},
	} {
		code, _, stderr := run(t, dir, append([]string{"merge", "--fail-on", "never"}, c.reports...)...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q, want %q", c.reports, code, stderr, c.want)
		}
	}
	for args, want := range map[string]string{
		"--shard-timings " + timings:                         "--shard-timings balances the shards of --shard K/N: give --shard too",
		"--shard 1/4 --shard-timings whole.json":             "no fixture took any time",
		"--shard 1/4 --shard-timings fixtures/manifest.json": "shard timings",
	} {
		code, _, stderr := run(t, dir, append([]string{"run", "--fail-on", "never"}, strings.Fields(args)...)...)
		if code != ExitUsage || !strings.Contains(stderr, want) {
			t.Errorf("run %s: exit %d, %q, want %q", args, code, stderr, want)
		}
	}
}
