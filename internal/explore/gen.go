package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unsafe"

	"github.com/drp2/drp2-fixtures/internal/jsontree"
	"github.com/drp2/drp2-fixtures/model"
)

// stream is one generated stream.
type stream struct {
	index int
	name  string
	// kind says how it was made; from names the corpus fixture it came
	// from.
	kind, from    string
	version, caps json.RawMessage
	cmds          []any
	raw           []json.RawMessage
	builtin       model.StreamVerdict
}

func (p *pool) newStream(base *seed, cmds []any) *stream {
	st := &stream{version: base.version, caps: base.caps, from: base.path}
	st.set(cmds, p.raw)
	return st
}

// set replaces the commands. Commands found in known (the corpus's own,
// shared unchanged by the mutations) keep their bytes; the others are
// encoded.
func (st *stream) set(cmds []any, known map[unsafe.Pointer]json.RawMessage) {
	st.cmds = cmds
	st.raw = make([]json.RawMessage, len(cmds))
	for i, c := range cmds {
		if m, ok := c.(map[string]any); ok && known != nil {
			if raw, ok := known[reflect.ValueOf(m).UnsafePointer()]; ok {
				st.raw[i] = raw
				continue
			}
		}
		st.raw[i] = encode(nil, c)
	}
}

// array is the commands as one JSON array.
func (st *stream) array() json.RawMessage {
	n := 2
	for _, c := range st.raw {
		n += len(c) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, c := range st.raw {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c...)
	}
	return append(b, ']')
}

// seed is one corpus stream, decoded, with the validator's verdict and
// the rules it evaluates.
type seed struct {
	path          string
	version, caps json.RawMessage
	cmds          []any
	verdict       model.StreamVerdict
	trace         map[string]bool
	// at lists, per rule, the commands whose check evaluates it.
	at map[string][]int
}

// pool is what the generator draws from.
type pool struct {
	seeds []*seed
	// valid are the seeds that pass the command schema, invalid those
	// that do not.
	valid, invalid []*seed
	// strings are the short strings seen under each member name, so that
	// an enum changes to a value the corpus uses.
	strings jsontree.Strings
	// raw holds the encoding of every command object of the seeds, by
	// address: read-only once loaded.
	raw map[unsafe.Pointer]json.RawMessage
}

// target is what an aimed stream is aimed at: a rule of the catalogue, or
// the command schema.
type target struct {
	rule   Rule
	schema bool
	// passes are seeds whose stream passes through the rule's check and
	// does not fail by it; fails those that fail by it.
	passes, fails []*seed
	// commands are the command names the rule's ID or summary mentions:
	// where a mutation is likely to break it.
	commands map[string]bool
}

func (t target) name() string {
	if t.schema {
		return "the command schema"
	}
	return t.rule.ID
}

// errShort is load's error when the exploration ran out of time (or was
// interrupted) before it had read every seed.
type errShort struct{}

func (errShort) Error() string { return "explore: stopped while reading the seeds" }

func (errShort) stoppedBy(ctx context.Context) string {
	if ctx.Err() != nil {
		return "interrupted"
	}
	return "time"
}

// load decodes the seeds and indexes them by rule. When stop says so
// before every seed is read it gives up (errShort): a pool of some seeds
// would make other streams, and a run stopped by time explores a prefix
// of the one sequence the seed and the corpus make, here the empty one.
func (e *explorer) load(stop func() bool) error {
	p := &pool{strings: jsontree.Strings{}, raw: map[unsafe.Pointer]json.RawMessage{}}
	for _, sd := range e.cfg.Seeds {
		if stop() {
			return errShort{}
		}
		if s := decodeSeed(sd); s != nil {
			e.addSeed(p, s)
		}
	}
	if len(p.valid) == 0 {
		return fmt.Errorf("explore: the corpus holds no stream that passes the command schema to start from")
	}
	p.strings.Sort()
	e.pool = p
	names := map[string]bool{}
	for _, s := range p.seeds {
		for _, c := range s.cmds {
			if n := cmdName(c); n != "" {
				names[n] = true
			}
		}
	}
	for _, r := range e.cfg.Rules {
		if r.Code == "" {
			// A rule reported only as a finding fails no stream.
			continue
		}
		e.targets = append(e.targets, ruleTarget(r, names, p.valid))
	}
	e.targets = append(e.targets, target{schema: true, passes: p.valid, fails: p.invalid})
	var err error
	e.aims, err = e.probe(stop)
	return err
}

// decodeSeed decodes a corpus fixture's stream; a fixture that is not
// JSON, has no commands, or a command that does not decode is no seed.
func decodeSeed(sd Seed) *seed {
	var doc struct {
		Version      json.RawMessage `json:"version"`
		Capabilities json.RawMessage `json:"capabilities"`
		Commands     []json.RawMessage
	}
	if json.Unmarshal(sd.Data, &doc) != nil || len(doc.Commands) == 0 {
		return nil
	}
	s := &seed{path: sd.Path, version: doc.Version, caps: doc.Capabilities}
	for _, raw := range doc.Commands {
		v, err := jsontree.DecodeTree(raw)
		if err != nil {
			return nil
		}
		s.cmds = append(s.cmds, v)
	}
	return s
}

// addSeed gives seed s its built-in verdict and puts it in the pool: its
// commands' bytes, and, when it passes the command schema, the rules it
// evaluates and the strings it uses.
func (e *explorer) addSeed(p *pool, s *seed) {
	st := p.newStream(s, s.cmds)
	for i, c := range s.cmds {
		if m, ok := c.(map[string]any); ok {
			p.raw[reflect.ValueOf(m).UnsafePointer()] = st.raw[i]
		}
	}
	s.verdict = e.builtin(st)
	p.seeds = append(p.seeds, s)
	if s.verdict.Phase == string(model.PhaseSchema) {
		p.invalid = append(p.invalid, s)
		return
	}
	p.valid = append(p.valid, s)
	s.trace, s.at = e.tracedAt(st, s.verdict)
	for _, c := range s.cmds {
		p.strings.Add(c)
	}
}

// ruleTarget is rule r as a target: the commands (of names, those the
// corpus uses) its ID or summary mentions, and the valid seeds that fail
// by it or pass through its check.
func ruleTarget(r Rule, names map[string]bool, valid []*seed) target {
	t := target{rule: r, commands: map[string]bool{}}
	for _, w := range strings.FieldsFunc(r.ID+" "+r.Summary, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	}) {
		if names[w] {
			t.commands[w] = true
		}
	}
	for _, s := range valid {
		switch {
		case s.verdict.Rule == r.ID:
			t.fails = append(t.fails, s)
		case s.trace[r.ID]:
			t.passes = append(t.passes, s)
		}
	}
	return t
}

// aim is one target and a way to aim at it: satisfy or break.
type aim struct {
	target  *target
	breakIt bool
}

// probe lists the aims a few mutations of the corpus reach, in catalogue
// order, satisfy before break: the streams aimed at the others would all
// fall back to plain mutations after trying in vain. The probe draws from
// its own numbers of the seed, so it is the same for every count. Each
// aim is probed on its own, so they are probed at once; a probe that finds
// stop set gives up, and so does the whole (errShort).
func (e *explorer) probe(stop func() bool) ([]aim, error) {
	reached := make([]bool, 2*len(e.targets))
	stopped := make([]bool, len(reached))
	forEach(len(reached), e.cfg.Workers, func(k int) {
		if stopped[k] = stop(); stopped[k] {
			return
		}
		i, breakIt := k/2, k%2 == 1
		r := newRNG(e.cfg.Seed, 1<<63|uint64(2*i)|boolBit(breakIt))
		reached[k] = e.aimed(&e.targets[i], breakIt, r) != nil
	})
	var live []aim
	for k, ok := range reached {
		if stopped[k] {
			return nil, errShort{}
		}
		if ok {
			live = append(live, aim{&e.targets[k/2], k%2 == 1})
		}
	}
	return live, nil
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// tracedAt is traced, and also where: the commands at which each rule is
// evaluated, as tracing every prefix of the stream would find them (a
// prefix is checked exactly as far as the stream is). One pass tells
// that for the semantic phase; a stream that fails in it is traced once
// more up to its failing command, since each prefix short of that
// failure also reaches the capability phase.
func (e *explorer) tracedAt(st *stream, v model.StreamVerdict) (map[string]bool, map[string][]int) {
	seen := map[string]bool{}
	where := map[string]map[int]bool{}
	record := func(r string, i int) {
		if i < 0 {
			i = 0 // the stream as a whole: its first prefix shows it
		}
		if where[r] == nil {
			where[r] = map[int]bool{}
		}
		where[r][i] = true
		seen[r] = true
	}
	if len(st.cmds) == 0 {
		return seen, map[string][]int{}
	}
	e.trace(st, len(st.cmds), record)
	if v.Phase == string(model.PhaseSemantic) && v.CommandIndex > 0 && v.CommandIndex < len(st.cmds) {
		e.trace(st, v.CommandIndex, record)
	}
	at := make(map[string][]int, len(where))
	for r, is := range where {
		for i := range is {
			at[r] = append(at[r], i)
		}
		sort.Ints(at[r])
	}
	return seen, at
}

// Stream kinds.
const (
	kindMutation = model.StreamMutation
	kindSatisfy  = model.StreamSatisfies
	kindBreak    = model.StreamBreaks
)

// aimEvery makes every aimEvery-th stream one aimed at a target.
const aimEvery = 4

// attempts bounds the mutations tried to make one mutated stream,
// aimAttempts one aimed stream.
const (
	attempts    = 16
	aimAttempts = 8
)

// focus chooses the command an aimed mutation changes: to satisfy a rule,
// the command that breaks it; to break it, one the rule names.
func (t *target) focus(base *seed, breakIt bool, r *rng) int {
	if !breakIt && base.verdict.CommandIndex >= 0 && base.verdict.CommandIndex < len(base.cmds) {
		return base.verdict.CommandIndex
	}
	named := base.at[t.rule.ID]
	if len(named) == 0 {
		for i, c := range base.cmds {
			if t.commands[cmdName(c)] {
				named = append(named, i)
			}
		}
	}
	if len(named) > 0 && r.intn(4) > 0 {
		return named[r.intn(len(named))]
	}
	return r.intn(len(base.cmds))
}

// generate makes stream i of the seed. It depends only on the seed, i and
// the corpus, so streams can be made in any order and at once.
func (e *explorer) generate(i int) *stream {
	r := newRNG(e.cfg.Seed, uint64(i))
	var st *stream
	if i%aimEvery == aimEvery-1 && len(e.aims) > 0 {
		a := e.aims[(i/aimEvery)%len(e.aims)]
		st = e.aimed(a.target, a.breakIt, r)
	}
	if st == nil {
		st = e.mutation(r)
	}
	st.index = i
	st.name = fmt.Sprintf("explore_%d_%d", e.cfg.Seed, i)
	return st
}

// mutation is a corpus stream changed by one to three mutations and still
// valid against the command schema. After attempts tries it is the corpus
// stream itself.
func (e *explorer) mutation(r *rng) *stream {
	valid := e.pool.valid
	for try := 0; try < attempts; try++ {
		base := valid[r.intn(len(valid))]
		cmds := base.cmds
		for n := 1 + r.intn(3); n > 0 && cmds != nil; n-- {
			cmds = e.pool.mutate(cmds, r)
		}
		if cmds == nil {
			continue
		}
		st := e.pool.newStream(base, cmds)
		st.kind = kindMutation
		if st.builtin = e.builtin(st); st.builtin.Phase != string(model.PhaseSchema) {
			return st
		}
	}
	base := valid[r.intn(len(valid))]
	st := e.pool.newStream(base, cloneList(base.cmds))
	st.kind, st.builtin = kindMutation, base.verdict
	return st
}

// aimed is a stream one mutation away from a corpus stream that just
// satisfies a target or just breaks it: a stream that fails by the rule
// made from one that passes through its check, or one that passes through
// the check made from one that fails by it. Nil when none was found
// within the attempts.
func (e *explorer) aimed(t *target, breakIt bool, r *rng) *stream {
	from := t.fails
	if breakIt {
		from = t.passes
	}
	if len(from) == 0 {
		return nil
	}
	for try := 0; try < aimAttempts; try++ {
		base := from[r.intn(len(from))]
		var cmds []any
		switch {
		case t.schema && breakIt:
			cmds = e.pool.mutateSchema(base.cmds, r)
		case t.schema:
			cmds = e.pool.mutate(base.cmds, r)
		default:
			cmds = e.pool.mutateAt(base.cmds, t.focus(base, breakIt, r), r)
		}
		if cmds == nil {
			continue
		}
		st := e.pool.newStream(base, cmds)
		st.builtin = e.builtin(st)
		schemaFailed := st.builtin.Phase == string(model.PhaseSchema)
		var hit bool
		switch {
		case t.schema:
			hit = schemaFailed == breakIt
		case breakIt:
			hit = st.builtin.Rule == t.rule.ID
		default:
			hit = !schemaFailed && st.builtin.Rule != t.rule.ID && e.traced(st)[t.rule.ID]
		}
		if hit {
			st.kind = kindSatisfy + " " + t.name()
			if breakIt {
				st.kind = kindBreak + " " + t.name()
			}
			return st
		}
	}
	return nil
}
