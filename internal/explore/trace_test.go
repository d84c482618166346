package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// tracedEveryPrefix is where rules are evaluated by definition: the
// commands at which a rule's count of evaluations grows from one prefix of
// the stream to the next. It costs a trace per prefix; tracedAt must find
// the same in one pass (two for a stream failing its semantic phase).
func (e *explorer) tracedEveryPrefix(st *stream) map[string][]int {
	at := map[string][]int{}
	before := map[string]int{}
	for n := 1; n <= len(st.cmds); n++ {
		counts := map[string]int{}
		e.trace(st, n, func(r string, _ int) { counts[r]++ })
		for r, c := range counts {
			if c > before[r] {
				at[r] = append(at[r], n-1)
			}
		}
		before = counts
	}
	for r := range at {
		sort.Ints(at[r])
	}
	return at
}

// TestTracedAtIsEveryPrefix holds the one-pass trace to the definition on
// every stream of the project's corpus and, when it is beside the
// checkout, the real DRP2 corpus: valid streams, streams failing in the
// semantic phase, and in the capability phase.
func TestTracedAtIsEveryPrefix(t *testing.T) {
	cfg := testConfig(t, 1)
	seeds := cfg.Seeds
	if real, _ := filepath.Glob("../../../shared/drp2/fixtures/*/*.json"); len(real) > 0 {
		for _, p := range real {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, Seed{Path: p, Data: data})
		}
	}
	e := &explorer{cfg: cfg}
	p := &pool{}
	phases := map[string]int{}
	for _, sd := range seeds {
		s := decodeSeed(sd)
		if s == nil {
			continue
		}
		st := p.newStream(s, s.cmds)
		v := e.builtin(st)
		if v.Phase == string(model.PhaseSchema) {
			continue
		}
		phases[v.Phase]++
		_, got := e.tracedAt(st, v)
		if want := e.tracedEveryPrefix(st); !reflect.DeepEqual(got, want) {
			t.Errorf("%s (%s): one pass places the rules\n%v\ntracing every prefix\n%v", sd.Path, explain.StreamVerdict(v), got, want)
		}
	}
	if phases[""] == 0 || phases[string(model.PhaseSemantic)] == 0 || phases[string(model.PhaseCapability)] == 0 {
		t.Errorf("the streams compared do not cover every case: %v", phases)
	}
}

// longSeed is a valid stream of n buffers created, written and destroyed.
func longSeed(n int) Seed {
	var b strings.Builder
	b.WriteString(`{"name":"long","version":{"major":2,"minor":0},"tags":["t"],"expected":{"outcome":"success"},"commands":[` +
		`{"cmd":"HelloRenderer","version":{"major":2,"minor":0},"client_name":"t"},` +
		`{"cmd":"RendererHelloReply","version":{"major":2,"minor":0},"status":"ok","renderer_name":"t"}`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `,{"cmd":"CreateBuffer","id":%d,"size":16,"usage":["COPY_DST"]}`+
			`,{"cmd":"WriteBuffer","buffer_id":%d,"offset":0,"size":16,"data":"AAAAAAAAAAAAAAAAAAAAAA=="}`+
			`,{"cmd":"DestroyBuffer","buffer_id":%d}`, i, i, i)
	}
	b.WriteString("]}")
	return Seed{Path: "positive/long.json", Data: []byte(b.String())}
}

// TestLongSeedIsTracedOnce: reading a seed traces its stream once (twice
// when it fails its semantic phase), not once per prefix, which made a
// seed of 10,000 commands cost a minute of CPU; counted in traces, so the
// test does not depend on the machine's speed.
func TestLongSeedIsTracedOnce(t *testing.T) {
	cfg := testConfig(t, 1)
	cfg.Seeds = []Seed{longSeed(3000)}
	cfg.Count = 4
	traces := 0
	tracer := cfg.Tracer
	cfg.Tracer = func(s model.Stream, seen func(string, int)) {
		if len(s.Commands) > 9000 {
			traces++ // the seed itself or a stream made from it
		}
		tracer(s, seen)
	}
	e := &explorer{cfg: cfg}
	if err := e.load(func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	if traces != 1 {
		t.Errorf("reading one seed of 9,002 commands traced it %d times", traces)
	}
	if rep, err := Run(t.Context(), cfg); err != nil || rep.Streams != 4 {
		t.Errorf("4 streams from the long seed: %v, %v", rep, err)
	}
}

// TestTimeBoundsReadingTheSeeds: the time budget covers reading the seeds;
// once it is spent there, nothing is explored (not streams from some
// seeds, which would be another sequence), and the report says why.
func TestTimeBoundsReadingTheSeeds(t *testing.T) {
	cfg := testConfig(t, 1)
	clock := time.Unix(0, 0)
	cfg.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	cfg.Time = 3 * time.Second
	rep, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Streams != 0 || rep.StoppedBy != "time" {
		t.Errorf("time spent on the seeds: %d streams, stopped by %q", rep.Streams, rep.StoppedBy)
	}
}
