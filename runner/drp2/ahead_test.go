package drp2

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"math/rand"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// serialChecker never decodes ahead.
var serialChecker = &Checker{ahead: aheadConfig{min: math.MaxInt}}

// tinyAhead are configurations that decode ahead on any stream, with
// chunks and rings small enough that every stream crosses many chunks and
// wraps the ring many times.
var tinyAhead = []aheadConfig{
	{min: 1, chunk: 1, ring: 1, workers: 1},
	{min: 1, chunk: 3, ring: 2, workers: 2},
	{min: 1, chunk: 7, ring: 5, workers: 3},
	{min: 2, chunk: 64, ring: 3},
}

// outcome is everything a check tells: the failure, the findings, and a
// hash of the trace of every rule evaluated and where.
type outcome struct {
	fail     *model.Failure
	findings []model.Finding
	trace    uint64
}

func outcomeOf(c *Checker, ctx context.Context, s model.Stream) outcome {
	h := fnv.New64a()
	f, found := c.CheckAt(ctx, s, func(rule string, cmd int) {
		h.Write([]byte(rule))
		h.Write([]byte(strconv.Itoa(cmd)))
	})
	untraced, _ := c.Check(ctx, s, nil)
	if !reflect.DeepEqual(f, untraced) {
		panic("a traced and an untraced check disagree")
	}
	return outcome{fail: f, findings: found, trace: h.Sum64()}
}

// sameAhead asserts that decoding ahead, in every tiny configuration,
// gives the serial outcome exactly.
func sameAhead(t *testing.T, name string, s model.Stream) {
	t.Helper()
	want := outcomeOf(serialChecker, context.Background(), s)
	for _, cfg := range tinyAhead {
		got := outcomeOf(&Checker{ahead: cfg}, context.Background(), s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decoding ahead (%+v) gives %+v, serially %+v", name, cfg, got.fail, want.fail)
		}
	}
}

// TestAheadMatchesSerialOnCorpora holds decoding ahead to the serial check
// on every fixture of both corpora and on mutations of them.
func TestAheadMatchesSerialOnCorpora(t *testing.T) {
	pl := loadPool(t)
	for _, sd := range pl.seeds {
		if s, ok := sd.stream(sd.commands); ok {
			sameAhead(t, sd.name, s)
		}
	}
	rng := rand.New(rand.NewSource(11))
	ops := make([]byte, 24)
	for i := 0; i < 1500; i++ {
		sd := pl.seeds[rng.Intn(len(pl.seeds))]
		rng.Read(ops)
		if s, ok := sd.stream(pl.mutate(sd.commands, &program{b: ops[:1+rng.Intn(len(ops))]})); ok {
			sameAhead(t, sd.name+" mutated", s)
		}
	}
}

// failingAt returns a generated stream of n commands whose command k is
// replaced by bad.
func failingAt(n, k int, bad string) model.Stream {
	s := GenerateStream(n)
	s.Commands[k] = json.RawMessage(bad)
	return s
}

// badCommands fail in each way a command can: decoding, an unknown
// command, an unknown id, a number beyond the budget's digits, a reused id.
var badCommands = []string{
	`{"cmd":"Draw","pass_id":{"not":"a number"}}`,
	`{"cmd":"NoSuchCommand"}`,
	`{"cmd":"DestroyBuffer","buffer_id":123456789}`,
	`{"cmd":"DestroyBuffer","buffer_id":1` + strings.Repeat("7", 5000) + `}`,
	`{"cmd":"CreateBuffer","id":1002,"size":16,"usage":["COPY_DST"]}`,
	`{"cmd":"CreateBuffer","id":1e30,"size":16,"usage":["COPY_DST"]}`,
}

// TestAheadMatchesSerialOnLongStreams holds decoding ahead to the serial
// check on generated streams, valid and failing at chunk edges and deep
// in the stream.
func TestAheadMatchesSerialOnLongStreams(t *testing.T) {
	const n = 20000
	sameAhead(t, "generated", GenerateStream(n))
	for _, k := range []int{0, 1, 2, 511, 512, 513, 4096, 12345, n - 1} {
		for b, bad := range badCommands {
			sameAhead(t, "generated, bad command "+strconv.Itoa(b)+" at "+strconv.Itoa(k), failingAt(n, k, bad))
		}
	}
	s := GenerateStream(n)
	s.Commands = append(s.Commands[:777:777], s.Commands[778:]...)
	sameAhead(t, "generated, a command dropped", s)
}

// TestAheadReportsFirstFailure decodes a whole stream before checking it:
// a failure at command i is the verdict even though a decode error after
// it was already met by the workers.
func TestAheadReportsFirstFailure(t *testing.T) {
	const n, first, later = 30000, 25000, 29000
	s := failingAt(n, first, badCommands[2])
	s.Commands[later] = json.RawMessage(badCommands[0])
	for _, cfg := range []aheadConfig{{min: 1, chunk: 16, ring: n/16 + 1, workers: 3, settle: true}, {min: 1, chunk: 1000, ring: 40, workers: 1, settle: true}} {
		f := verdictOf(&Checker{ahead: cfg}, s)
		if f == nil || f.CommandIndex != first || f.Rule != ruleUnknownID.id {
			t.Fatalf("%+v: got %+v, want %s at %d", cfg, f, ruleUnknownID.id, first)
		}
		if want := verdictOf(serialChecker, s); !reflect.DeepEqual(f, want) {
			t.Fatalf("%+v: got %+v, serially %+v", cfg, f, want)
		}
		f = verdictOf(&Checker{ahead: cfg}, failingAt(n, later, badCommands[0]))
		if f == nil || f.CommandIndex != later || f.Rule != ruleDecode.id {
			t.Fatalf("%+v: got %+v, want %s at %d", cfg, f, ruleDecode.id, later)
		}
	}
}

// TestAheadLeaksNoGoroutine stops checks early in every way (a failure, a
// cancelled context, the budget) and at the end, many times, and then
// counts goroutines.
func TestAheadLeaksNoGoroutine(t *testing.T) {
	const n = 50000
	valid := GenerateStream(n)
	early := failingAt(n, 3, badCommands[2])
	overBudget := failingAt(n, 5000, badCommands[3])
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	before := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		for _, cfg := range []aheadConfig{defaultAhead, tinyAhead[2], {min: 1, chunk: 100, ring: 2, workers: 3}} {
			c := &Checker{ahead: cfg}
			if f := verdictOf(c, early); f == nil || f.CommandIndex != 3 {
				t.Fatalf("early failure: %+v", f)
			}
			if f, _ := c.Check(cancelled, valid, nil); f == nil || !f.Unjudged || f.CommandIndex != 0 {
				t.Fatalf("cancelled: %+v", f)
			}
			if f := verdictOf(c, overBudget); f == nil || !f.Unjudged || f.CommandIndex != 5000 {
				t.Fatalf("over budget: %+v", f)
			}
			if i == 0 {
				if f := verdictOf(c, valid); f != nil {
					t.Fatalf("valid: %+v", f)
				}
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAheadNeedsCores: a long stream is decoded ahead only with the cores
// the configuration asks for; the tests' configurations ask for none.
func TestAheadNeedsCores(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	cases := []struct {
		cfg  aheadConfig
		n    int
		want bool
	}{
		{aheadConfig{min: 10, cores: procs}, 10, true},
		{aheadConfig{min: 10, cores: procs}, 9, false},
		{aheadConfig{min: 10, cores: procs + 1}, 1 << 20, false},
		{tinyAhead[0], 1 << 20, true},
		{defaultAhead, 1 << 20, procs >= 3},
	}
	for _, c := range cases {
		if got := c.cfg.applies(c.n); got != c.want {
			t.Errorf("%+v applies to %d commands: %v, want %v", c.cfg, c.n, got, c.want)
		}
	}
}
