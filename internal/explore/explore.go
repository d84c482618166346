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

// Report is what an exploration found.
type Report struct {
	Seed int64 `json:"seed"`
	// Count is the number of streams asked for; Streams those generated
	// and judged, fewer when the time ran out (StoppedBy "time").
	Count     int    `json:"count"`
	Streams   int    `json:"streams"`
	StoppedBy string `json:"stopped_by"`
	// Seeds is the number of corpus streams the mutations start from.
	Seeds int `json:"seeds"`
	// Shard is the part of the streams explored; absent for all of them.
	Shard           *Shard           `json:"shard,omitempty"`
	Kinds           []KindCount      `json:"kinds"`
	Implementations []Implementation `json:"implementations"`
	Disagreements   []Disagreement   `json:"disagreements"`
	Duration        time.Duration    `json:"-"`
	DurationSeconds float64          `json:"duration_seconds"`
	byKey           map[string]int   // signature → index in Disagreements
	kindIndex       map[string]int   // kind → index in Kinds
}

// KindCount counts the streams of one kind: mutation, satisfies (aimed
// at a rule, satisfying it) or breaks (aimed at a rule, breaking it).
type KindCount struct {
	Kind    string `json:"kind"`
	Streams int    `json:"streams"`
}

// Implementation is one implementation's part in the exploration.
type Implementation struct {
	Command  string `json:"command"`
	Label    string `json:"label"`
	Executes bool   `json:"executes"`
	// Streams counts the generated streams; Agreed, Differed, NoVerdict
	// and NotClaimed (failing in a phase it does not perform, not sent)
	// split them.
	Streams    int    `json:"streams"`
	Agreed     int    `json:"agreed"`
	Differed   int    `json:"differed"`
	NoVerdict  int    `json:"no_verdict"`
	NotClaimed int    `json:"not_claimed"`
	Restarts   int    `json:"restarts"`
	Error      string `json:"error,omitempty"`
}

// Disagreement is one signature: the streams on which the same
// implementations differed from the validator in the same way.
type Disagreement struct {
	Signature string `json:"signature"`
	Rule      string `json:"rule"`
	// Streams counts the generated streams that showed it; First is the
	// first of them, of Kind, made from the corpus fixture From.
	Streams int    `json:"streams"`
	First   int    `json:"first_stream"`
	Kind    string `json:"kind"`
	From    string `json:"from"`
	// Builtin and Answers are the verdicts on the minimized stream.
	Builtin   Verdict   `json:"builtin"`
	Answers   []Answer  `json:"answers"`
	Candidate Candidate `json:"candidate"`
}

// Answer is one implementation's verdict on a disagreement's stream.
type Answer struct {
	Implementation string   `json:"implementation"`
	Verdict        Verdict  `json:"verdict"`
	Differs        []string `json:"differs,omitempty"`
}

// Candidate is a disagreement's minimized stream as a fixture.
type Candidate struct {
	// Path is the corpus-relative path it is written at (folder of its
	// class, file named after the disagreement); Name its fixture name.
	Path string `json:"path"`
	Name string `json:"name"`
	// Commands is its length; Original the first stream's; Tests the
	// verdicts the minimization asked for.
	Commands int `json:"commands"`
	Original int `json:"original_commands"`
	Tests    int `json:"minimization_tests"`
	// Data is the fixture file.
	Data []byte `json:"-"`
	// Written says what became of the file, set by whoever writes it.
	Written string `json:"written,omitempty"`
}

// Run explores. A Go error means the exploration could not start.
func Run(ctx context.Context, cfg Config) (*Report, error) {
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
	e := &explorer{cfg: cfg}
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
		return &Report{Seed: cfg.Seed, Count: cfg.Count, StoppedBy: short.stoppedBy(ctx), Duration: cfg.Now().Sub(started),
			DurationSeconds: cfg.Now().Sub(started).Seconds(), byKey: map[string]int{}, kindIndex: map[string]int{}}, nil
	}
	e.open(ctx)
	defer e.close()
	rep := &Report{Seed: cfg.Seed, Count: cfg.Count, Seeds: len(e.pool.seeds), StoppedBy: "count",
		byKey: map[string]int{}, kindIndex: map[string]int{}}
	for _, s := range e.sessions {
		rep.Implementations = append(rep.Implementations, Implementation{Command: s.Command, Executes: s.Executes()})
	}
	if sh := cfg.Shard; sh != nil {
		rep.Shard = &Shard{Index: sh.Index, Count: sh.Count}
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

// Shard is the part of the streams a sharded exploration explored: the
// index-th (from 1) of count.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
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
func (e *explorer) explore(ctx context.Context, rep *Report, started time.Time, timeUp func() bool) {
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
func (e *explorer) askAll(streams []*stream) [][]Verdict {
	out := make([][]Verdict, len(streams))
	for k := range out {
		out[k] = make([]Verdict, len(e.sessions))
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
func (e *explorer) ask(s *harness.Session, st *stream) Verdict {
	if st.builtin.Outcome == string(model.Error) && !s.Claims(st.builtin.Phase) {
		return Verdict{CommandIndex: -1, NotClaimed: true}
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
func (e *explorer) judge(st *stream) []Verdict {
	st.builtin = e.builtin(st)
	out := make([]Verdict, len(e.sessions))
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
func (e *explorer) classify(rep *Report, st *stream, answers []Verdict) {
	rep.Streams++
	kind, _, _ := strings.Cut(st.kind, " ")
	k, ok := rep.kindIndex[kind]
	if !ok {
		k = len(rep.Kinds)
		rep.kindIndex[kind] = k
		rep.Kinds = append(rep.Kinds, KindCount{Kind: kind})
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
	if i, ok := rep.byKey[key]; ok {
		rep.Disagreements[i].Streams++
		return
	}
	rep.byKey[key] = len(rep.Disagreements)
	rep.Disagreements = append(rep.Disagreements, e.disagreement(st, key, answers))
}

// disagreement minimizes a stream that showed a new signature and makes it
// a candidate.
func (e *explorer) disagreement(st *stream, key string, answers []Verdict) Disagreement {
	original := len(st.cmds)
	small, verdicts, tests := e.minimize(st, key, answers)
	d := Disagreement{Signature: key, Rule: small.builtin.Rule, Streams: 1, First: st.index, Kind: st.kind,
		From: st.from, Builtin: small.builtin}
	if d.Rule == "" {
		d.Rule = "valid stream"
	}
	for i, v := range verdicts {
		d.Answers = append(d.Answers, Answer{Implementation: e.labels[i], Verdict: v, Differs: differences(small.builtin, v)})
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
func (e *explorer) builtin(st *stream) Verdict {
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
