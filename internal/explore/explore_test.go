package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/internal/jsontree"
	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// The test binary doubles as an implementation: with EXPLORE_TEST_ADAPTER
// set it serves the harness protocol with the project's validator, and
// crashes on or hangs at the streams the variable names
// ("crash:NAME,hang:NAME"); "phases:P" claims only phase P, "nophase:"
// leaves the phase out of its error verdicts (protocol 2); "shortdata:"
// executes streams and answers every readback with three bytes.
const adapterEnv = "EXPLORE_TEST_ADAPTER"

func TestMain(m *testing.M) {
	if spec, ok := os.LookupEnv(adapterEnv); ok {
		os.Exit(fakeAdapter(spec))
	}
	os.Exit(m.Run())
}

func fakeAdapter(spec string) int {
	faults := map[string]string{}
	me := protocol.Hello{Name: "fake", Version: "1"}
	nophase := false
	for _, f := range strings.Split(spec, ",") {
		kind, name, ok := strings.Cut(f, ":")
		switch {
		case kind == "phases":
			me.Phases = append(me.Phases, name)
		case kind == "nophase":
			nophase = true
		case kind == "shortdata":
			me.Executes = true
		case ok:
			faults[name] = kind
		}
	}
	v, err := runner.NewValidator(runner.Config{Checker: drp2.New()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	valid := harness.ValidatorJudge(v)
	judge := func(f *protocol.Fixture) protocol.Verdict {
		switch faults[f.Name] {
		case "crash":
			fmt.Fprintln(os.Stderr, "crashing on", f.Name)
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		}
		v := valid(f)
		if nophase {
			v.Phase = ""
		}
		if me.Executes && v.Outcome == "success" {
			var cmds []json.RawMessage
			_ = json.Unmarshal(f.Commands, &cmds)
			for _, req := range harness.Requests(cmds) {
				var rbs []map[string]any
				for _, rb := range req.Readbacks {
					rbs = append(rbs, map[string]any{"buffer_id": rb.BufferID, "offset": rb.Offset, "size": rb.Size, "data": "AAAA"})
				}
				reply, _ := json.Marshal(map[string]any{"cmd": "QueueSubmitReply", "submission_id": req.SubmissionID, "readbacks": rbs})
				v.Replies = append(v.Replies, reply)
			}
		}
		return v
	}
	if err := harness.Serve(os.Stdin, os.Stdout, me, judge, harness.DefaultMaxLine); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// self is the command line that runs this test binary as an adapter.
func self(t *testing.T, faults string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "env " + adapterEnv + "=" + faults + " '" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
}

// writeCandidates lays the candidates out as a corpus.
func writeCandidates(t *testing.T, rep *model.Exploration) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range rep.Disagreements {
		p := filepath.Join(dir, filepath.FromSlash(d.Candidate.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("two candidates at %s", d.Candidate.Path)
		}
		if err := os.WriteFile(p, d.Candidate.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Against the project's adapter and the Python example (two rules and a
// deliberate bug), exploration finds disagreements; every candidate is a
// valid fixture that the runner passes (its expected block is the
// validator's verdict), is small, and reproduces its disagreement when run
// through the harness, as `run --implementation` runs it: the
// implementations that differed fail it, those that agreed pass it.
func TestCandidatesReproduceTheirDisagreements(t *testing.T) {
	impls := []string{self(t, ""), testkit.PythonExample(t)}
	cfg := testConfig(t, 3, impls...)
	cfg.Count = 160
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Streams != cfg.Count {
		t.Fatalf("%d streams, want %d", rep.Streams, cfg.Count)
	}
	if len(rep.Disagreements) < 10 {
		t.Fatalf("only %d disagreements against the Python example", len(rep.Disagreements))
	}
	if im := rep.Implementations[0]; im.Differed != 0 || im.Agreed != cfg.Count {
		t.Fatalf("the project's adapter differs from its own validator: %+v", im)
	}
	if im := rep.Implementations[1]; im.Differed == 0 || im.Label != "python-example 0.1" {
		t.Fatalf("the Python example never differed: %+v", im)
	}
	total := 0
	var sizes []int
	kinds := map[string]bool{}
	for _, d := range rep.Disagreements {
		total += d.Streams
		kinds[d.Kind] = true
		sizes = append(sizes, d.Candidate.Commands)
		if d.Candidate.Commands > 20 {
			t.Errorf("%s: candidate of %d commands (from %d): not minimized", d.Candidate.Path, d.Candidate.Commands, d.Candidate.Original)
		}
		if !strings.Contains(string(d.Candidate.Data), d.Rule) && d.Rule != "valid stream" {
			t.Errorf("%s: the description does not name the rule %s", d.Candidate.Path, d.Rule)
		}
	}
	sort.Ints(sizes)
	if median := sizes[len(sizes)/2]; median > 8 {
		t.Errorf("candidates of %v commands: the median is %d", sizes, median)
	}
	if total != rep.Implementations[1].Differed {
		t.Errorf("signatures count %d streams, the Python example differed on %d", total, rep.Implementations[1].Differed)
	}

	dir := writeCandidates(t, rep)
	run, err := runner.Run(context.Background(), runner.Config{Corpus: dir, Checker: drp2.New(), WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if run.Summary.Run != len(rep.Disagreements) || run.Summary.Failed != 0 || len(run.Findings) != 0 {
		t.Fatalf("the candidates do not pass as fixtures: %+v, findings %+v", run.Summary, run.Findings)
	}
	got, err := harness.Run(context.Background(), harness.Config{Commands: impls, Dir: dir}, run,
		func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) })
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Disagreements {
		for i, a := range d.Answers {
			var res *model.Result
			for k := range got[i].Results {
				if got[i].Results[k].RelPath == d.Candidate.Path {
					res = &got[i].Results[k]
				}
			}
			if res == nil {
				t.Fatalf("%s: not run for %s", d.Candidate.Path, a.Implementation)
			}
			if differs := len(a.Differs) > 0; res.Passed == differs {
				t.Errorf("%s: %s differed %v in exploration, but passed=%v under run (%+v)", d.Candidate.Path, a.Implementation, a.Differs, res.Passed, res.Actual)
			}
		}
	}
	oneMinimal(t, cfg, rep)
}

// oneMinimal checks that no single command can leave a candidate with its
// disagreement kept: each candidate less any one command (the handshake
// of a valid stream stays) gives another signature, judged afresh by the
// validator and the implementations.
func oneMinimal(t *testing.T, cfg Config, rep *model.Exploration) {
	t.Helper()
	e := &explorer{cfg: cfg}
	if err := e.load(func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	e.open(context.Background())
	defer e.close()
	for _, d := range rep.Disagreements {
		var doc struct {
			Version      json.RawMessage
			Capabilities json.RawMessage
			Commands     []json.RawMessage
		}
		if err := json.Unmarshal(d.Candidate.Data, &doc); err != nil {
			t.Fatal(err)
		}
		var cmds []any
		for _, raw := range doc.Commands {
			v, err := jsontree.DecodeTree(raw)
			if err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, v)
		}
		from := 0
		if d.Builtin.Outcome == "success" {
			from = 2
		}
		for i := from; i < len(cmds); i++ {
			st := &stream{name: "minimal", version: doc.Version, caps: doc.Capabilities}
			st.set(append(append([]any{}, cmds[:i]...), cmds[i+1:]...), nil)
			key, _ := signature(st.builtin, e.labels, e.judge(st))
			if key == d.Signature {
				t.Errorf("%s: without command %d it still shows %s", d.Candidate.Path, i, key)
			}
		}
	}
}

// One seed, one exploration: the same candidates, byte for byte, and the
// same report; another seed explores other streams.
func TestSameSeedSameCandidates(t *testing.T) {
	impls := []string{testkit.PythonExample(t)}
	explore := func(seed int64) (*model.Exploration, []byte) {
		cfg := testConfig(t, seed, impls...)
		cfg.Count = 60
		cfg.Now = func() time.Time { return time.Unix(0, 0) }
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		// The report as the explore document carries it; its bytes are the
		// JSON renderer's (report), which writes these members as they are.
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		return rep, b
	}
	a, ja := explore(11)
	b, jb := explore(11)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("two reports of seed 11 differ:\n%s\n%s", ja, jb)
	}
	if len(a.Disagreements) == 0 {
		t.Fatal("no disagreement to compare")
	}
	for i := range a.Disagreements {
		if !bytes.Equal(a.Disagreements[i].Candidate.Data, b.Disagreements[i].Candidate.Data) {
			t.Fatalf("candidate %s differs between two runs of one seed", a.Disagreements[i].Candidate.Path)
		}
	}
	_, jc := explore(12)
	if bytes.Equal(ja, jc) {
		t.Fatal("seeds 11 and 12 explored the same streams")
	}
}

// A crash or a hang costs the implementation one stream: it is restarted
// and the exploration goes on to the end.
func TestCrashAndHangCostOneStream(t *testing.T) {
	cfg := testConfig(t, 5, self(t, "crash:explore_5_3,hang:explore_5_7,crash:explore_5_20"))
	cfg.Count = 40
	cfg.Harness.Timeout = 500 * time.Millisecond
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	im := rep.Implementations[0]
	if rep.Streams != 40 || im.NoVerdict != 3 || im.Restarts != 3 || im.Agreed != 37 || im.Error != "" {
		t.Fatalf("streams %d, implementation %+v", rep.Streams, im)
	}
	if len(rep.Disagreements) != 0 {
		t.Fatalf("a stream without a verdict was taken for a disagreement: %+v", rep.Disagreements)
	}
}

// An implementation that performs only some phases is not asked about
// streams failing in the others, and one that leaves the phase out of its
// errors is judged on the code and command index: neither differs from
// the validator it is.
func TestPhasesNotClaimedOrNotReported(t *testing.T) {
	cfg := testConfig(t, 6, self(t, "phases:schema_validation"), self(t, "nophase:"))
	cfg.Count = 60
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	part, unphased := rep.Implementations[0], rep.Implementations[1]
	if part.NotClaimed == 0 || part.Differed != 0 || part.Agreed+part.NotClaimed != 60 {
		t.Errorf("schema-only implementation: %+v", part)
	}
	if unphased.Differed != 0 || unphased.Agreed != 60 {
		t.Errorf("implementation without phases: %+v", unphased)
	}
	if len(rep.Disagreements) != 0 {
		t.Errorf("disagreements: %+v", rep.Disagreements)
	}
}

// An executing implementation whose readback replies have the wrong shape
// disagrees on valid streams with readbacks (Level 2), and its candidates
// fail under run as a Level 2 failure does.
func TestReplyShapeDisagreement(t *testing.T) {
	impls := []string{self(t, "shortdata:")}
	// A seed whose 120 streams reach a valid stream with readbacks from
	// the embedded corpus as it is; one that stops reaching it fails the
	// test, and another seed is chosen.
	cfg := testConfig(t, 10, impls...)
	cfg.Count = 120
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var shapes int
	for _, d := range rep.Disagreements {
		if d.Builtin.Outcome != "success" || len(d.Answers[0].Differs) != 1 || d.Answers[0].Differs[0] != "reply shape" {
			t.Errorf("unexpected disagreement %s", d.Signature)
		}
		shapes++
	}
	if shapes == 0 {
		t.Fatal("no reply-shape disagreement found")
	}
	dir := writeCandidates(t, rep)
	run, err := runner.Run(context.Background(), runner.Config{Corpus: dir, Checker: drp2.New(), WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got, err := harness.Run(context.Background(), harness.Config{Commands: impls, Dir: dir}, run,
		func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) })
	if err != nil {
		t.Fatal(err)
	}
	if checked, passed := got[0].Level2Counts(); got[0].Summary.Failed != len(rep.Disagreements) || checked != len(rep.Disagreements) || passed != 0 {
		t.Errorf("under run: %+v, Level 2 %d of %d right", got[0].Summary, passed, checked)
	}
}

// --time stops the exploration between batches; the clock here is fake,
// one second a reading once the seeds are read (the clock is read for
// each seed and each aim probed, at once: hence the atomic count).
func TestTimeBound(t *testing.T) {
	cfg := testConfig(t, 9)
	cfg.Count = 100000
	cfg.Time = 5 * time.Second
	var ticks atomic.Int64
	reading := len(cfg.Seeds) + 2*(len(cfg.Rules)+1) + 1 // at most, before the first batch
	cfg.Now = func() time.Time { return time.Unix(max(0, ticks.Add(1)-int64(reading)), 0) }
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.StoppedBy != "time" || rep.Streams == 0 || rep.Streams >= cfg.Count {
		t.Fatalf("stopped by %q after %d streams", rep.StoppedBy, rep.Streams)
	}
}

// Streams aimed at rules just satisfy or just break them, and every
// generated stream the schema is not the target of passes it.
func TestGeneratedStreams(t *testing.T) {
	cfg := testConfig(t, 2)
	e := &explorer{cfg: cfg}
	if err := e.load(func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	if len(e.aims) < 30 {
		t.Fatalf("only %d aims reached", len(e.aims))
	}
	seen := map[string]int{}
	for i := 0; i < 400; i++ {
		st := e.generate(i)
		kind, on, _ := strings.Cut(st.kind, " ")
		seen[kind]++
		schemaFailed := st.builtin.Phase == string(model.PhaseSchema)
		switch {
		case on == "the command schema":
			if schemaFailed != (kind == kindBreak) {
				t.Errorf("stream %d (%s): %s", i, st.kind, explain.StreamVerdict(st.builtin))
			}
		case schemaFailed:
			t.Errorf("stream %d (%s) fails the command schema: %s", i, st.kind, explain.StreamVerdict(st.builtin))
		case kind == kindBreak && st.builtin.Rule != on:
			t.Errorf("stream %d aimed to break %s fails by %q", i, on, st.builtin.Rule)
		case kind == kindSatisfy && (st.builtin.Rule == on || !e.traced(st)[on]):
			t.Errorf("stream %d aimed to satisfy %s: %s, rule evaluated %v", i, on, explain.StreamVerdict(st.builtin), e.traced(st)[on])
		}
		if again := e.generate(i); !bytes.Equal(again.array(), st.array()) {
			t.Fatalf("stream %d is not the same twice", i)
		}
	}
	if seen[kindMutation] < 250 || seen[kindSatisfy] < 20 || seen[kindBreak] < 10 {
		t.Fatalf("kinds: %v", seen)
	}
}

func TestDifferences(t *testing.T) {
	fail := func(phase, code string, i int) model.StreamVerdict {
		return model.StreamVerdict{Outcome: "error", Phase: phase, Code: code, CommandIndex: i}
	}
	ok := model.StreamVerdict{Outcome: "success", CommandIndex: -1}
	for _, c := range []struct {
		builtin, impl model.StreamVerdict
		want          string
	}{
		{ok, ok, ""},
		{ok, fail("semantic_validation", "DRP2_ERR_X", 2), "outcome"},
		{fail("semantic_validation", "A", 2), fail("semantic_validation", "A", 2), ""},
		{fail("semantic_validation", "A", 2), fail("capability_validation", "B", 3), "phase,code,command index"},
		{fail("semantic_validation", "A", 2), fail("semantic_validation", "A", -1), "command index"},
		{fail("semantic_validation", "A", -1), fail("semantic_validation", "A", 4), ""},
		{ok, model.StreamVerdict{Outcome: "success", Replies: "reply 1 is missing", CommandIndex: -1}, "reply shape"},
		{fail("semantic_validation", "A", 2), model.StreamVerdict{NoVerdict: "it exited", CommandIndex: -1}, ""},
		{fail("semantic_validation", "A", 2), model.StreamVerdict{NotClaimed: true, CommandIndex: -1}, ""},
		{fail("semantic_validation", "A", 2), fail("", "A", 2), ""},
		{fail("semantic_validation", "A", 2), fail("", "B", 2), "code"},
	} {
		if got := strings.Join(differences(c.builtin, c.impl), ","); got != c.want {
			t.Errorf("differences(%s, %s) = %q, want %q", explain.StreamVerdict(c.builtin), explain.StreamVerdict(c.impl), got, c.want)
		}
	}
}

// TestShardsExploreTheSequenceBetweenThem: three shards of one seed explore
// the streams of the unsharded exploration between them, each once: the
// same streams of each kind, the same disagreements by signature.
func TestShardsExploreTheSequenceBetweenThem(t *testing.T) {
	impls := []string{testkit.PythonExample(t)}
	explore := func(sh *model.Shard) *model.Exploration {
		cfg := testConfig(t, 11, impls...)
		cfg.Count, cfg.Shard = 60, sh
		cfg.Now = func() time.Time { return time.Unix(0, 0) }
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	tally := func(rep *model.Exploration, kinds, sigs map[string]int) {
		for _, k := range rep.Kinds {
			kinds[k.Kind] += k.Streams
		}
		for _, d := range rep.Disagreements {
			sigs[d.Signature] += d.Streams
		}
	}
	wholeKinds, wholeSigs := map[string]int{}, map[string]int{}
	whole := explore(nil)
	tally(whole, wholeKinds, wholeSigs)
	kinds, sigs := map[string]int{}, map[string]int{}
	streams := 0
	for k := 1; k <= 3; k++ {
		part := explore(&model.Shard{Index: k, Count: 3})
		if part.Shard == nil || part.Shard.Index != k || part.Shard.Count != 3 || part.Count != 60 {
			t.Errorf("shard %d's report: %+v, count %d", k, part.Shard, part.Count)
		}
		streams += part.Streams
		tally(part, kinds, sigs)
	}
	if streams != whole.Streams || len(wholeSigs) == 0 {
		t.Errorf("the shards explored %d streams, the whole %d (%d signatures)", streams, whole.Streams, len(wholeSigs))
	}
	if fmt.Sprint(kinds) != fmt.Sprint(wholeKinds) || fmt.Sprint(sigs) != fmt.Sprint(wholeSigs) {
		t.Errorf("kinds %v, signatures %v; the whole exploration's %v, %v", kinds, sigs, wholeKinds, wholeSigs)
	}
}
