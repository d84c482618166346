package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// TestNumbersAreJudgedByValue: a number is judged by its value, whatever
// its spelling. 1e9999999 is a valid JSON number that the schema library
// cannot turn into a rational (it panicked, and in a stream of 4,096
// commands or more the panic killed the process); it reaches the library
// as a stand-in of the same sign, kind and bounds, and the semantic phase
// reads it exactly. So a size of 101 digits is as valid as 1e100, a
// negative or fractional huge number fails the schema as a small one does,
// and only the envelope, whose numbers the runner reads as machine
// integers, keeps a bound.
func TestNumbersAreJudgedByValue(t *testing.T) {
	long := []string{hello, reply}
	for len(long) < 5000 {
		long = append(long, fmt.Sprintf(`{"cmd": "CreateBuffer", "id": %d, "size": 16, "usage": ["COPY_DST"]}`, len(long)))
	}
	long = append(long, `{"cmd": "CreateBuffer", "id": 1, "size": 1e9999999, "usage": ["COPY_DST"]}`)
	create := func(id, size string) string {
		return `{"cmd": "CreateBuffer", "id": ` + id + `, "size": ` + size + `, "usage": ["COPY_DST"]}`
	}
	zeros := strings.Repeat("0", 100)
	root := writeCorpus(t, map[string]string{
		"positive/short.json":     fixtureJSON("short", success, hello, reply, create("1", "1e9999999")),
		"positive/digits101.json": fixtureJSON("digits101", success, hello, reply, create("1", "1"+zeros)),
		"positive/e100.json":      fixtureJSON("e100", success, hello, reply, create("1", "1e100")),
		"positive/one.json":       fixtureJSON("one", success, hello, reply, create("1", "1."+zeros+zeros)),
		"positive/digits.json":    fixtureJSON("digits", success, hello, reply, create("1"+strings.Repeat("0", 200000), "16")),
		"positive/long.json":      fixtureJSON("long", success, long...),
		"positive/negative.json":  fixtureJSON("negative", success, hello, reply, create("1", "-1e9999999")),
		"positive/fraction.json":  fixtureJSON("fraction", success, hello, reply, create("1", "1."+zeros+"1")),
		"positive/tiny.json":      fixtureJSON("tiny", success, hello, reply, create("1", "1e-99999999")),
		"positive/envelope.json": strings.Replace(fixtureJSON("envelope", success, hello, reply),
			`"version": {"major": 2, "minor": 0}`, `"version": {"major": 2e9999999, "minor": 0}`, 1),
		"negative_schema/cmd.json": fixtureJSON("cmd", schemaError(2), hello, reply, `{"cmd": 1e9999999}`),
		// Two spellings of one huge id name one object.
		"positive/same.json": fixtureJSON("same", success, hello, reply, create("1e30", "16"), create("1"+strings.Repeat("0", 30), "16")),
		// Exact arithmetic far past any machine integer: the range
		// [10^999999999, 10^999999999+8) does not fit a buffer of
		// 10^999999999 bytes, and [10^999999998, ...+8) does.
		"positive/range.json": fixtureJSON("range", success, hello, reply, create("1", "1e999999999"),
			`{"cmd": "WriteBuffer", "buffer_id": 1, "offset": 1e999999998, "size": 8, "data": "AAAAAAAAAAA="}`,
			`{"cmd": "WriteBuffer", "buffer_id": 1, "offset": 1e999999999, "size": 8, "data": "AAAAAAAAAAA="}`),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
	r := byPath(run)
	for _, p := range []string{"positive/short.json", "positive/digits101.json", "positive/e100.json", "positive/one.json",
		"positive/digits.json", "positive/long.json"} {
		if !r[p].Passed {
			t.Errorf("%s: %+v", p, r[p].Actual)
		}
	}
	for p, want := range map[string]struct {
		phase   model.Phase
		code    string
		index   int
		message string
	}{
		"positive/negative.json": {model.PhaseSchema, "DRP2_ERR_INVALID_ARGUMENT", 2, "the number is written -1e9999999"},
		"positive/fraction.json": {model.PhaseSchema, "DRP2_ERR_INVALID_ARGUMENT", 2, "/size"},
		"positive/tiny.json":     {model.PhaseSchema, "DRP2_ERR_INVALID_ARGUMENT", 2, "the number is written 1e-99999999"},
		"positive/same.json":     {model.PhaseSemantic, "DRP2_ERR_DUPLICATE_ID", 3, "already used"},
		"positive/range.json":    {model.PhaseSemantic, "DRP2_ERR_OUT_OF_RANGE", 4, "exceeds"},
	} {
		a := r[p].Actual
		if a.Phase != want.phase || a.Code != want.code || a.CommandIndex == nil || *a.CommandIndex != want.index ||
			!strings.Contains(a.Message, want.message) {
			t.Errorf("%s: %+v (index %v)", p, a, a.CommandIndex)
		}
		if r[p].Span == nil {
			t.Errorf("%s: no location", p)
		}
	}
	if got := r["positive/envelope.json"]; !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "/version/major: the number 2e9999999 is out of range") || got.Span == nil || got.Span.Line != 3 {
		t.Errorf("envelope: %+v %+v", got.Actual, got.Span)
	}
	if got := r["negative_schema/cmd.json"]; !got.Passed || !strings.Contains(got.Actual.Message, "the number is written 1e9999999") {
		t.Errorf("cmd: %+v", got.Actual)
	}
}

// blockingChecker does not return for a stream that creates object 4242
// until release is closed or its context ends; running counts the checks
// under way.
type blockingChecker struct {
	release chan struct{}
	running *atomic.Int64
}

func (c blockingChecker) Check(ctx context.Context, s model.Stream, _ func(string)) (*model.Failure, []model.Finding) {
	c.running.Add(1)
	defer c.running.Add(-1)
	for _, raw := range s.Commands {
		if strings.Contains(string(raw), `4242`) {
			select {
			case <-c.release:
			case <-ctx.Done():
				return &model.Failure{Unjudged: true, Message: "not judged: " + context.Cause(ctx).Error()}, nil
			}
		}
	}
	return nil, nil
}

// TestTimeBudget: a fixture that is still running at its wall-clock limit is
// stopped through its context and reported as such, and the run goes on.
func TestTimeBudget(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/a_stuck.json": fixtureJSON("a_stuck", success, hello, reply, `{"cmd": "CreateBuffer", "id": 4242, "size": 16, "usage": ["COPY_DST"]}`),
		"positive/b_ok.json":    fixtureJSON("b_ok", success, hello, reply),
	})
	c := blockingChecker{release: make(chan struct{}), running: new(atomic.Int64)}
	defer close(c.release)
	start := time.Now()
	run := runCorpus(t, Config{Corpus: root, Checker: c, FixtureTimeout: 100 * time.Millisecond, Workers: 1})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the run took %v", took)
	}
	if n := c.running.Load(); n != 0 {
		t.Errorf("%d checks still running after the run", n)
	}
	r := byPath(run)
	stuck := r["positive/a_stuck.json"]
	if !stuck.IsCorpusError() || !strings.Contains(stuck.Actual.Message, "wall-clock limit of 100ms") || stuck.Passed {
		t.Errorf("stuck fixture: %+v", stuck)
	}
	if !r["positive/b_ok.json"].Passed {
		t.Errorf("the next fixture: %+v", r["positive/b_ok.json"])
	}
	if run.Summary.CorpusErrors != 1 || run.Summary.Run != 2 {
		t.Errorf("summary %+v", run.Summary)
	}
}

// TestRunTimeLimit: past the run's time limit the fixture under way is
// stopped and the others are not run, each a corpus error that says so,
// and Run still returns every result, so that the reports are written.
func TestRunTimeLimit(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/a_stuck.json": fixtureJSON("a_stuck", success, hello, reply, `{"cmd": "CreateBuffer", "id": 4242, "size": 16, "usage": ["COPY_DST"]}`),
		"positive/b_ok.json":    fixtureJSON("b_ok", success, hello, reply),
		"positive/c_ok.json":    fixtureJSON("c_ok", success, hello, reply),
	})
	c := blockingChecker{release: make(chan struct{}), running: new(atomic.Int64)}
	defer close(c.release)
	run := runCorpus(t, Config{Corpus: root, Checker: c, RunTimeout: 200 * time.Millisecond, Workers: 1})
	r := byPath(run)
	if got := r["positive/a_stuck.json"]; !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "not judged: the run's time limit of 200ms was reached") {
		t.Errorf("stuck: %+v", got.Actual)
	}
	for _, p := range []string{"positive/b_ok.json", "positive/c_ok.json"} {
		if got := r[p]; !got.IsCorpusError() || got.Actual.Message != "not run: the run's time limit of 200ms was reached" {
			t.Errorf("%s: %+v", p, got.Actual)
		}
	}
	if run.Summary.Run != 3 || run.Summary.CorpusErrors != 3 || c.running.Load() != 0 {
		t.Errorf("summary %+v, %d checks running", run.Summary, c.running.Load())
	}
}

// TestUnjudgedIsNoVerdict: a checker that runs out of its work budget gives
// no verdict: the fixture is a corpus error with the checker's words, not
// a pass (for a negative fixture expecting that code) or a mismatch.
func TestUnjudgedIsNoVerdict(t *testing.T) {
	digits := strings.Repeat("7", 5000)
	root := writeCorpus(t, map[string]string{
		"positive/digits.json": fixtureJSON("digits", success, hello, reply, `{"cmd": "CreateBuffer", "id": 1, "size": `+digits+`, "usage": ["COPY_DST"]}`),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
	got := run.Results[0]
	if !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "significant digits") || got.Actual.CommandIndex == nil || *got.Actual.CommandIndex != 2 || got.Span == nil {
		t.Errorf("%+v %+v", got.Actual, got.Span)
	}
}

// TestPanicInAParallelPhaseCostsOneFixture: the schema phase of a long
// stream runs on several goroutines; a panic on any of them becomes the
// fixture's result instead of ending the process.
func TestPanicInAParallelPhaseCostsOneFixture(t *testing.T) {
	long := []string{hello, reply}
	for len(long) < 3*parallelCommands {
		long = append(long, buffer)
	}
	root := writeCorpus(t, map[string]string{
		"positive/long.json": fixtureJSON("long", success, long...),
		"positive/ok.json":   fixtureJSON("ok", success, hello, reply),
	})
	c, sch := corpusSchemas(t, root)
	phase := &commandPhase{schemas: sch, judged: func(i int) {
		if i == 2*parallelCommands+7 {
			panic("probe")
		}
	}}
	job := &fixtureJob{corpus: c, schemas: sch, commands: phase, now: fixedNow, limit: DefaultMaxFileSize}
	res, keep := job.run(context.Background(), "positive/long.json")
	if !keep || res.Actual.Code != "DRP2_ERR_INTERNAL" || !strings.Contains(res.Actual.Message, "probe") {
		t.Errorf("long: %+v", res.Actual)
	}
	if res, _ := job.run(context.Background(), "positive/ok.json"); !res.Passed {
		t.Errorf("ok: %+v", res.Actual)
	}
}

// TestSchemaVerdictIsStable: a command with two equally deep faults gets
// the same verdict on every run, although the schema library reports them
// in map order.
func TestSchemaVerdictIsStable(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"negative/x.json": fixtureJSON("x", schemaError(2), hello, reply,
			`{"cmd": "CreateBuffer", "id": "one", "size": "big", "usage": [], "mapped": 1}`),
	})
	first := runCorpus(t, Config{Corpus: root}).Results[0].Actual.Message
	for i := 0; i < 30; i++ {
		if got := runCorpus(t, Config{Corpus: root}).Results[0].Actual.Message; got != first {
			t.Fatalf("run %d: %q, first run: %q", i, got, first)
		}
	}
	if !strings.Contains(first, "/id") {
		t.Errorf("verdict %q: want the first field by location, /id", first)
	}
}

// TestLargeFixtureResultsOutliveTheirBytes: a large fixture is read into
// memory outside the Go heap and unmapped when its run ends; everything in
// its result (and what a Checker saw) is a copy, so reading the results
// afterwards is safe. A slice left pointing into the unmapped bytes would
// crash this test.
func TestLargeFixtureResultsOutliveTheirBytes(t *testing.T) {
	long := []string{hello, reply, buffer}
	for size := 0; size < 5<<20; size += len(buffer) + 6 { // over offHeapMin
		long = append(long, `{"cmd": "WriteBuffer", "buffer_id": 1, "offset": 0, "size": 4, "data": "AAAAAA=="}`)
	}
	long = append(long, `{"cmd": "DestroyBuffer", "buffer_id": 1}`, `{"cmd": "DestroyBuffer", "buffer_id": 1}`)
	name := "big_" + strings.Repeat("n", 40)
	root := writeCorpus(t, map[string]string{
		"negative/" + name + ".json": strings.Replace(fixtureJSON(name, semanticError("DRP2_ERR_LAYOUT", len(long)-1), long...),
			`"expected"`, `"description": "a long stream", "reason": "why", "fix": "how", "expected"`, 1),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
	runtime.GC()
	r := run.Results[0]
	if r.Passed || r.Actual.CommandIndex == nil || *r.Actual.CommandIndex != len(long)-1 || r.Span == nil {
		t.Fatalf("result %+v", r.Actual)
	}
	text := strings.Join(append([]string{r.Name, r.Description, r.Reason, r.Fix, r.Actual.Message, r.Actual.Code, r.Digest.File, r.Digest.Commands}, r.Tags...), "|")
	if !strings.Contains(text, name) || !strings.Contains(text, "a long stream") || !strings.Contains(text, "DRP2_ERR_") {
		t.Errorf("result text %q", text)
	}
}

// TestVerdictCacheIsBounded: a corpus of endlessly distinct commands fills
// the cache up to its byte budget and no further; what it holds still
// answers.
func TestVerdictCacheIsBounded(t *testing.T) {
	var c verdictCache
	for i := 0; i < 100000; i++ {
		c.store([]byte(fmt.Sprintf(`{"cmd": "CreateBuffer", "id": %d}`, i)), verdict{ok: true})
	}
	if used := c.used.Load(); used > maxCacheBytes || used < maxCacheBytes/2 {
		t.Errorf("cache holds %d bytes, budget %d", used, maxCacheBytes)
	}
	if vd, ok := c.load([]byte(`{"cmd": "CreateBuffer", "id": 0}`)); !ok || !vd.ok {
		t.Error("the first verdict stored is gone")
	}
	if _, ok := c.load([]byte(`{"cmd": "CreateBuffer", "id": 99999}`)); ok {
		t.Error("a verdict past the budget was stored")
	}
	big := []byte(`{"cmd": "X", "pad": "` + strings.Repeat("x", maxCachedCommandBytes) + `"}`)
	c.store(big, verdict{ok: true})
	if _, ok := c.load(big); ok {
		t.Error("a command over the size bound was cached")
	}
}

// TestFixtureLoopsEndWithTheRun: the goroutines that run fixtures one after
// another end with the run, the one left with a stuck fixture included once
// its checker returns.
func TestFixtureLoopsEndWithTheRun(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("positive/f%02d.json", i)] = fixtureJSON(fmt.Sprintf("f%02d", i), success, hello, reply)
	}
	root := writeCorpus(t, files)
	before := runtime.NumGoroutine()
	for _, workers := range []int{1, 2, 8} {
		run := runCorpus(t, Config{Corpus: root, Checker: drp2.New(), Workers: workers})
		if run.Summary.Passed != 20 {
			t.Fatalf("%d workers: %+v", workers, run.Summary)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the runs, %d before", n, before)
	}
}
