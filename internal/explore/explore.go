// Package explore hunts for streams on which DRP2 implementations disagree
// with the built-in validator: it generates streams deterministically from
// a seed (mutations of a corpus's streams, and streams aimed at each rule
// of the validator's catalogue), runs each through the validator and every
// implementation through the runtime harness, minimizes every disagreement
// it finds, and makes each one a candidate fixture whose expected block is
// the validator's verdict.
package explore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// Defaults of Config.
const (
	DefaultCount = 1000
	// DefaultMaxTests bounds the verdicts one minimization asks for.
	DefaultMaxTests = 400
)

// Config says what to explore and how far.
type Config struct {
	// Seed chooses the streams: one seed, one sequence of streams.
	Seed int64
	// Count is the number of streams to generate (0: DefaultCount); Time,
	// when positive, stops the exploration earlier. A disagreement found
	// before the time is up is still minimized.
	Count int
	Time  time.Duration
	// Seeds are the corpus's fixtures the mutations start from.
	Seeds []Seed
	// Validator is the built-in validator (all phases, as the adapter).
	Validator *runner.Validator
	// Tracer runs the semantic and capability phases over a stream that
	// passed the command schema and names each rule it evaluates, with the
	// index of the command it was evaluated at (-1: the stream as a whole);
	// aimed streams use it to know that a stream passes through a rule's
	// check, and where.
	Tracer func(s model.Stream, seen func(rule string, command int))
	// Rules are the rules streams are aimed at (ID and code).
	Rules []Rule
	// Implementations are the command lines of the implementations, run
	// through the harness with Harness's settings (Commands is ignored).
	Implementations []string
	Harness         harness.Config
	// MaxTests bounds one minimization (0: DefaultMaxTests).
	MaxTests int
	// Workers generate and validate streams at once (0: one per core).
	Workers int
	// Shard, when set, explores only its part of the Count streams: stream
	// i belongs to shard i mod Count + 1. Stream i is the same stream in
	// every shard, so the shards of one seed explore the unsharded
	// sequence between them, each stream once.
	Shard *model.Shard
	// Now is the clock; nil means time.Now. Progress, when set, is called
	// after every batch of streams.
	Now      func() time.Time
	Progress func(Progress)
}

// Seed is one fixture of the corpus: its corpus-relative path and bytes.
type Seed struct {
	Path string
	Data []byte
}

// Rule is a rule of the validator's catalogue that streams are aimed at.
type Rule struct {
	ID, Code, Summary string
}

// Progress is how far an exploration is.
type Progress struct {
	Streams, Count, Disagreements, Signatures int
	Elapsed                                   time.Duration
}

// Run explores. A Go error means the exploration could not start.
func Run(ctx context.Context, cfg Config) (*model.Exploration, error) {
	if cfg.Validator == nil {
		return nil, errors.New("explore: no validator")
	}
	if cfg.Count <= 0 {
		cfg.Count = DefaultCount
	}
	if cfg.MaxTests <= 0 {
		cfg.MaxTests = DefaultMaxTests
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	e := &explorer{cfg: cfg, byKey: map[string]int{}, kindIndex: map[string]int{}}
	// The time budget counts from here: reading the seeds is part of it
	// (a long seed costs a validation and a trace).
	started := cfg.Now()
	timeUp := func() bool { return cfg.Time > 0 && cfg.Now().Sub(started) >= cfg.Time }
	if err := e.load(func() bool { return ctx.Err() != nil || timeUp() }); err != nil {
		var short errShort
		if !errors.As(err, &short) {
			return nil, err
		}
		// Out of time before a stream could be made: an exploration of
		// nothing, said as such, not a failure to start.
		return &model.Exploration{Seed: cfg.Seed, Count: cfg.Count, StoppedBy: short.stoppedBy(ctx), Duration: cfg.Now().Sub(started),
			DurationSeconds: cfg.Now().Sub(started).Seconds()}, nil
	}
	e.open(ctx)
	defer e.close()
	rep := &model.Exploration{Seed: cfg.Seed, Count: cfg.Count, Seeds: len(e.pool.seeds), StoppedBy: "count"}
	for _, s := range e.sessions {
		rep.Implementations = append(rep.Implementations, model.ExploredImplementation{Command: s.Command, Executes: s.Executes()})
	}
	if sh := cfg.Shard; sh != nil {
		rep.Shard = &model.Shard{Index: sh.Index, Count: sh.Count}
	}
	e.explore(ctx, rep, started, timeUp)
	for i, s := range e.sessions {
		im := &rep.Implementations[i]
		im.Label, im.Restarts, im.Error = e.labels[i], s.Restarts(), s.Stopped()
	}
	sort.SliceStable(rep.Disagreements, func(i, j int) bool {
		a, b := rep.Disagreements[i], rep.Disagreements[j]
		if a.Streams != b.Streams {
			return a.Streams > b.Streams
		}
		return a.First < b.First
	})
	rep.Duration = cfg.Now().Sub(started)
	rep.DurationSeconds = rep.Duration.Seconds()
	return rep, nil
}

// indexes are the indexes of the streams to explore: all of the count, or
// the shard's part of them.
func (cfg *Config) indexes() []int {
	var out []int
	for i := range cfg.Count {
		if cfg.Shard == nil || cfg.Shard.Count <= 1 || i%cfg.Shard.Count == cfg.Shard.Index-1 {
			out = append(out, i)
		}
	}
	return out
}

// explore generates and judges the streams in batches, until the count,
// the time or the context ends it.
func (e *explorer) explore(ctx context.Context, rep *model.Exploration, started time.Time, timeUp func() bool) {
	cfg := &e.cfg
	batch := 512
	if len(e.sessions) > 0 {
		batch = 16
	}
	idx := cfg.indexes()
	for start := 0; start < len(idx); start += batch {
		if ctx.Err() != nil {
			rep.StoppedBy = "interrupted"
			break
		}
		if timeUp() {
			rep.StoppedBy = "time"
			break
		}
		n := min(batch, len(idx)-start)
		streams := make([]*stream, n)
		forEach(n, cfg.Workers, func(k int) { streams[k] = e.generate(idx[start+k]) })
		answers := e.askAll(streams)
		for k, st := range streams {
			e.classify(rep, st, answers[k])
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Streams: rep.Streams, Count: len(idx), Disagreements: e.differing,
				Signatures: len(rep.Disagreements), Elapsed: cfg.Now().Sub(started)})
		}
	}
}

// explorer is one exploration's state.
type explorer struct {
	cfg      Config
	pool     *pool
	targets  []target
	aims     []aim
	sessions []*harness.Session
	labels   []string
	// differing counts the streams on which some implementation differed.
	differing int
	// byKey indexes the report's disagreements by signature, kindIndex
	// its kinds by kind.
	byKey, kindIndex map[string]int
}

// open starts the implementations, all at once: each may take its time to
// start.
func (e *explorer) open(ctx context.Context) {
	e.sessions = make([]*harness.Session, len(e.cfg.Implementations))
	var wg sync.WaitGroup
	for i, command := range e.cfg.Implementations {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.sessions[i] = harness.Open(ctx, e.cfg.Harness, command)
		}()
	}
	wg.Wait()
	// Labels name implementations in signatures; two with one name and
	// version are told apart by their place.
	seen := map[string]int{}
	for _, s := range e.sessions {
		l := s.Label()
		seen[l]++
		if seen[l] > 1 {
			l = fmt.Sprintf("%s #%d", l, seen[l])
		}
		e.labels = append(e.labels, l)
	}
}

func (e *explorer) close() {
	var wg sync.WaitGroup
	for _, s := range e.sessions {
		wg.Add(1)
		go func() { defer wg.Done(); s.Close() }()
	}
	wg.Wait()
}

// askAll asks every implementation about every stream: the implementations
// at once, each one's streams in order.
func (e *explorer) askAll(streams []*stream) [][]model.StreamVerdict {
	out := make([][]model.StreamVerdict, len(streams))
	for k := range out {
		out[k] = make([]model.StreamVerdict, len(e.sessions))
	}
	var wg sync.WaitGroup
	for i, s := range e.sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k, st := range streams {
				out[k][i] = e.ask(s, st)
			}
		}()
	}
	wg.Wait()
	return out
}

// ask asks one implementation about one stream. A stream that the
// validator fails in a phase the implementation does not perform is not
// sent, as run does not send such a fixture.
func (e *explorer) ask(s *harness.Session, st *stream) model.StreamVerdict {
	if st.builtin.Outcome == string(model.Error) && !s.Claims(st.builtin.Phase) {
		return model.StreamVerdict{CommandIndex: -1, NotClaimed: true}
	}
	v, err := s.Ask(st.name, st.version, st.caps, st.array())
	var requests []harness.Request
	if err == nil && s.Executes() {
		requests = harness.Requests(st.raw)
	}
	return fromHarness(v, err, s.Executes(), st.builtin, requests)
}

// judge gives every verdict on a stream: the validator's and each
// implementation's.
func (e *explorer) judge(st *stream) []model.StreamVerdict {
	st.builtin = e.builtin(st)
	out := make([]model.StreamVerdict, len(e.sessions))
	var wg sync.WaitGroup
	for i, s := range e.sessions {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = e.ask(s, st) }()
	}
	wg.Wait()
	return out
}

// classify counts one generated stream and, at a new signature, minimizes
// it into a candidate.
func (e *explorer) classify(rep *model.Exploration, st *stream, answers []model.StreamVerdict) {
	rep.Streams++
	kind, _, _ := strings.Cut(st.kind, " ")
	k, ok := e.kindIndex[kind]
	if !ok {
		k = len(rep.Kinds)
		e.kindIndex[kind] = k
		rep.Kinds = append(rep.Kinds, model.StreamKindCount{Kind: kind})
	}
	rep.Kinds[k].Streams++
	for i, v := range answers {
		im := &rep.Implementations[i]
		im.Streams++
		switch {
		case v.NoVerdict != "":
			im.NoVerdict++
		case v.NotClaimed:
			im.NotClaimed++
		case len(differences(st.builtin, v)) > 0:
			im.Differed++
		default:
			im.Agreed++
		}
	}
	key, differ := signature(st.builtin, e.labels, answers)
	if !differ {
		return
	}
	e.differing++
	if i, ok := e.byKey[key]; ok {
		rep.Disagreements[i].Streams++
		return
	}
	e.byKey[key] = len(rep.Disagreements)
	rep.Disagreements = append(rep.Disagreements, e.disagreement(st, key, answers))
}

// disagreement minimizes a stream that showed a new signature and makes it
// a candidate.
func (e *explorer) disagreement(st *stream, key string, answers []model.StreamVerdict) model.Disagreement {
	original := len(st.cmds)
	small, verdicts, tests := e.minimize(st, key, answers)
	d := model.Disagreement{Signature: key, Rule: small.builtin.Rule, Streams: 1, First: st.index, Kind: st.kind,
		From: st.from, Builtin: small.builtin}
	if d.Rule == "" {
		d.Rule = "valid stream"
	}
	for i, v := range verdicts {
		d.Answers = append(d.Answers, model.DisagreementAnswer{Implementation: e.labels[i], Verdict: v, Differs: differences(small.builtin, v)})
	}
	d.Candidate = e.candidate(small, &d, original, tests)
	return d
}

// forEach calls fn(0..n-1) on workers goroutines; each index is one call.
func forEach(n, workers int, fn func(k int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for k := 0; k < n; k++ {
			fn(k)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				fn(k)
			}
		}()
	}
	for k := 0; k < n; k++ {
		next <- k
	}
	close(next)
	wg.Wait()
}

// builtin is the validator's verdict on a stream.
func (e *explorer) builtin(st *stream) model.StreamVerdict {
	f, err := e.cfg.Validator.Validate(st.version, st.caps, st.array())
	if err != nil {
		// Not reached: a generated stream is always an array of values.
		f = &model.Failure{Phase: model.PhaseSchema, Code: "DRP2_ERR_INVALID_ARGUMENT", CommandIndex: -1, Message: err.Error()}
	}
	return fromFailure(f, st.cmds)
}

// traced lists the rules the validator evaluates on a stream that passes
// the command schema.
func (e *explorer) traced(st *stream) map[string]bool {
	seen := map[string]bool{}
	e.trace(st, len(st.raw), func(r string, _ int) { seen[r] = true })
	return seen
}

// trace runs the tracer over the first n commands of a stream.
func (e *explorer) trace(st *stream, n int, seen func(rule string, command int)) {
	if e.cfg.Tracer == nil {
		return
	}
	// The fixture's version object, by FORMAT.md's names: the model's
	// Version has no JSON names of its own.
	var ver struct {
		Major json.Number  `json:"major"`
		Minor json.Number  `json:"minor"`
		Patch *json.Number `json:"patch"`
	}
	if json.Unmarshal(st.version, &ver) != nil {
		return
	}
	ms := model.Stream{Version: model.Version(ver), Commands: st.raw[:n]}
	if len(st.caps) > 0 {
		ms.Capabilities = st.caps
	}
	e.cfg.Tracer(ms, seen)
}
