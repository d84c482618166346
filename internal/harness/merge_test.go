package harness

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// viaJSON writes a run as a JSON report and reads it back, as merge sees
// the reports of other jobs.
func viaJSON(t *testing.T, run *model.Run) *model.Run {
	t.Helper()
	var b bytes.Buffer
	if err := jsonout.Write(&b, run); err != nil {
		t.Fatal(err)
	}
	back, err := jsonout.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func jsonText(t *testing.T, run *model.Run) string {
	t.Helper()
	var b bytes.Buffer
	if err := jsonout.Write(&b, run); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// shard keeps the results at indexes i with i%n == k, as a sharded job
// would run them.
func shard(base *model.Run, k, n int) *model.Run {
	s := *base
	s.Results = nil
	for i, r := range base.Results {
		if i%n == k {
			s.Results = append(s.Results, r)
		}
	}
	s.Summary = model.Summarize(base.Summary.Discovered, s.Results, s.Findings)
	return &s
}

// TestMergeShards: three shards, each run through two implementations in
// its own job, merge into exactly the report of one unsharded run.
func TestMergeShards(t *testing.T) {
	base, read := embeddedRun(t)
	cfg := Config{Commands: []string{self(t), "env " + adapterEnv + "=name:other,executes,wrong:invalid_identity_duplicate_buffer_id " + self(t)}, Env: env("")}
	// A clock that stands still, as under SOURCE_DATE_EPOCH: every
	// implementation's durations are 0 in the whole run and the shards.
	frozen := time.Unix(1700000000, 0)
	cfg.Now = func() time.Time { return frozen }
	impls := runHarness(t, cfg, base, read)
	whole := *base
	whole.Implementations = impls
	var reports []Report
	for k := 0; k < 3; k++ {
		part := shard(base, k, 3)
		part.Implementations = runHarness(t, cfg, part, read)
		reports = append(reports, Report{Source: "shard" + string(rune('0'+k)), Run: viaJSON(t, part)})
	}
	// The shards arrive in any order.
	reports[0], reports[2] = reports[2], reports[0]
	merged, err := Merge(reports)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonText(t, merged), jsonText(t, viaJSON(t, &whole)); got != want {
		t.Errorf("merged shards differ from the whole run:\n%s", firstDiff(got, want))
	}
	if len(merged.Implementations) != 2 || merged.Implementations[1].Summary.Failed != 1 {
		t.Errorf("%d implementations, the second failing %d", len(merged.Implementations), merged.Implementations[len(merged.Implementations)-1].Summary.Failed)
	}
	if checked, _ := merged.Implementations[1].Level2Counts(); checked == 0 {
		t.Error("Level 2 results were lost")
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + al[i] + "\nwant " + bl[i]
		}
	}
	return "lengths differ"
}

func TestMergeRefusesDisagreement(t *testing.T) {
	base, _ := embeddedRun(t, "session_handshake_ok", "upload_buffer_write")
	other := viaJSON(t, base)
	other.Results[0].Passed = false
	if _, err := Merge([]Report{{"a.json", base}, {"b.json", other}}); err == nil || !strings.Contains(err.Error(), "a.json and b.json disagree on positive/session_handshake_ok.json") {
		t.Errorf("%v", err)
	}
	other = viaJSON(t, base)
	other.CommandSchema.SHA256 = "ffff"
	if _, err := Merge([]Report{{"a.json", base}, {"b.json", other}}); err == nil || !strings.Contains(err.Error(), "b.json was made with other schemas") {
		t.Errorf("%v", err)
	}
	// The same schema file with another file of its closure changed.
	other = viaJSON(t, base)
	other.CommandSchema.Closure = "eeeeeeeeeeeeeeee"
	if _, err := Merge([]Report{{"a.json", base}, {"b.json", other}}); err == nil || !strings.Contains(err.Error(), "command schema closure eeeeeeeeeeee") {
		t.Errorf("a closure that differs: %v", err)
	}
	// The same report twice is the report once.
	merged, err := Merge([]Report{{"a.json", base}, {"a-again.json", viaJSON(t, base)}})
	if err != nil || merged.Summary.Run != 2 {
		t.Errorf("%v %+v", err, merged.Summary)
	}
}

// TestMergeKeepsDurations: each result keeps its duration, an
// implementation's durations add up over the reports, and the run took as
// long as its longest part.
func TestMergeKeepsDurations(t *testing.T) {
	part := func(path string, took time.Duration) *model.Run {
		r := model.Result{RelPath: path, Path: "fixtures/" + path, Passed: true, Duration: took}
		return &model.Run{Duration: took, Results: []model.Result{r},
			Implementations: []model.Implementation{{Name: "rt", Version: "1", Duration: 2 * took, Results: []model.Result{r}}}}
	}
	merged, err := Merge([]Report{{Source: "a", Run: viaJSON(t, part("positive/a.json", time.Second))},
		{Source: "b", Run: viaJSON(t, part("positive/b.json", 3*time.Millisecond))}})
	if err != nil {
		t.Fatal(err)
	}
	im := merged.Implementations[0]
	if merged.Duration != time.Second || im.Duration != 2*time.Second+6*time.Millisecond ||
		merged.Results[1].Duration != 3*time.Millisecond || im.Results[0].Duration != time.Second {
		t.Errorf("merged: run %v, implementation %v, results %v and %v", merged.Duration, im.Duration, merged.Results[1].Duration, im.Results[0].Duration)
	}
}

// TestInPathOrder: the runs merged are, result for result, all of them
// one after the other sorted stably by path, whether each run was in path
// order or not and whatever paths they share.
func TestInPathOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 500; round++ {
		var runs [][]placed
		var want []placed
		for k := range rng.IntN(6) {
			results := make([]model.Result, rng.IntN(30))
			for i := range results {
				results[i].RelPath = fmt.Sprintf("positive/%02d.json", rng.IntN(40))
			}
			if rng.IntN(2) == 0 {
				slices.SortFunc(results, func(a, b model.Result) int { return strings.Compare(a.RelPath, b.RelPath) })
			}
			run := placedRun(results, k)
			want = append(want, run...)
			runs = append(runs, slices.Clone(run))
		}
		slices.SortStableFunc(want, byPath)
		if got := inPathOrder(runs); !slices.Equal(got, want) {
			t.Fatalf("round %d: merged otherwise than a stable sort", round)
		}
	}
}
