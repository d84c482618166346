package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/drp2/drp2-fixtures/internal/jsoncompact"
	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// verdict is the command schema's judgement of one command object.
type verdict struct {
	ok      bool
	code    string
	pointer string
	message string
	// unjudged: the command is beyond the phase's work budget (see
	// maxCommandValues); message says so, and there is no verdict.
	unjudged bool
}

// maxCommandValues bounds the JSON values of one command the schema
// library is given. The library's work and memory grow with them (a
// command of 2.6 million keys took it over a minute and a third of a
// gigabyte); the largest honest command has a few hundred. A command with
// more is not judged, the same on every machine.
const maxCommandValues = 1 << 18

// verdictCache keeps command verdicts by the command's exact bytes: a
// schema verdict is a pure function of them, and corpora repeat commands a
// lot (every stream opens with the same handshake), while JSON Schema
// validation is the most expensive step of a run. One cache serves one run;
// it is safe for concurrent use.
type verdictCache struct {
	m sync.Map
	// used counts the bytes of the keys stored so far, with a fixed
	// charge per entry for the map's own bookkeeping.
	used atomic.Int64
}

// Bounds of the verdict cache: small commands only, and a fixed budget of
// bytes, so that its memory stays bounded on any corpus. A full cache
// still answers from what it holds.
const (
	maxCachedCommandBytes = 4 << 10
	maxCacheBytes         = 1 << 20
	cacheEntryOverhead    = 128
)

func (c *verdictCache) load(raw []byte) (verdict, bool) {
	if c == nil || len(raw) > maxCachedCommandBytes {
		return verdict{}, false
	}
	// A lookup keeps no key, so it needs no copy of the command (store
	// does copy: raw may lie in memory released after the fixture).
	v, ok := c.m.Load(unsafe.String(unsafe.SliceData(raw), len(raw)))
	if !ok {
		return verdict{}, false
	}
	return v.(verdict), true
}

func (c *verdictCache) store(raw []byte, vd verdict) {
	if c == nil || len(raw) > maxCachedCommandBytes {
		return
	}
	cost := int64(len(raw)+len(vd.message)+len(vd.pointer)) + cacheEntryOverhead
	if c.used.Add(cost) > maxCacheBytes {
		c.used.Add(-cost)
		return
	}
	c.m.Store(string(raw), vd)
}

// Long streams are checked in chunks on all cores: the schema phase of a
// single million-command fixture would otherwise leave every core but one
// idle.
const (
	parallelCommands = 4096
	commandChunk     = 1024
)

// commandPhase is the command-schema phase of one run: the compiled
// schemas and the run's verdict caches (nil for none).
type commandPhase struct {
	schemas *schemas
	cache   *verdictCache
	// shapes keeps the commands found valid by their shape (see shapeKey),
	// when the schemas allow it (shapeBounds non-nil).
	shapes      *verdictCache
	shapeBounds []int64
	// judged, when set, is called before each command is judged; tests use
	// it to make the phase fail in ways real input no longer can.
	judged func(index int)
}

// checkCommands runs the command-schema phase over the commands and
// returns the failure of the first failing command, or nil.
//
// stop, when closed, ends the phase early with nil: the fixture's time
// budget ran out and its result is no longer wanted.
func (p *commandPhase) checkCommands(commands []json.RawMessage, stop <-chan struct{}) *model.Failure {
	workers := 1
	if len(commands) >= parallelCommands {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		mu    sync.Mutex
		first *model.Failure // failure with the lowest index so far
	)
	// A chunk at or past the lowest failure so far is not needed: every
	// chunk that starts below the final first failure is checked in full,
	// so the lowest failing index is always found.
	skip := func(start int) bool {
		if stopped(stop) {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		return first != nil && start >= first.CommandIndex
	}
	forEach(len(commands), workers, commandChunk, skip, func(start, end int) {
		scratch := keyBuffers.Get().(*[]byte)
		defer putKeyBuffer(scratch)
		for i := start; i < end; i++ {
			if f := p.checkCommand(i, commands[i], scratch); f != nil {
				mu.Lock()
				if first == nil || f.CommandIndex < first.CommandIndex {
					first = f
				}
				mu.Unlock()
				return
			}
		}
	})
	return first
}

// stopped reports whether stop is closed; a nil stop never is.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// checkCommand validates one command from its bytes as written. It
// returns nil when the command is valid. scratch is the caller's buffer
// for the command's shape key.
func (p *commandPhase) checkCommand(index int, raw []byte, scratch *[]byte) *model.Failure {
	if p.judged != nil {
		p.judged(index)
	}
	key, shaped := []byte(nil), false
	if p.shapes != nil {
		key, shaped = shapeKey(raw, p.shapeBounds, (*scratch)[:0])
		*scratch = key
		if shaped {
			if _, ok := p.shapes.load(key); ok {
				return nil
			}
		}
	}
	vd, ok := p.cache.load(raw)
	if !ok {
		vd = p.schemas.judgeRaw(raw)
		switch {
		case vd.ok && shaped:
			p.shapes.store(key, vd)
		default:
			p.cache.store(raw, vd)
		}
	}
	if vd.ok {
		return nil
	}
	return &model.Failure{Phase: model.PhaseSchema, Code: vd.code, CommandIndex: index, Pointer: vd.pointer,
		Message: fmt.Sprintf("command %d: %s", index, vd.message), Unjudged: vd.unjudged}
}

// maxShapeNumbers bounds the numbers of a command that shapeKey keys; a
// command with more is cached by its bytes only.
const maxShapeNumbers = 32

// shapeKey is what the command schema's verdict on raw depends on, when
// the schema compares numbers only with the integer bounds (see
// schema.Set.NumberBounds): raw without white space, with each number
// replaced by its relation to the bounds and by which earlier number of
// the command it equals, if any. Two commands with one key get one verdict,
// so a stream that differs from command to command only in its ids is
// judged once per shape. It reports false, and the command is judged on
// its own, for a number that is not a plain integer of at most 18 digits,
// or a command of more than maxShapeNumbers numbers. The key is built in
// buf.
func shapeKey(raw []byte, bounds []int64, buf []byte) ([]byte, bool) {
	var seen [maxShapeNumbers]int64
	n := 0
	for piece, number := range jsoncompact.Compact(raw) {
		if !number {
			buf = append(buf, piece...)
			continue
		}
		v, ok := plainInteger(piece)
		if !ok || n == maxShapeNumbers {
			return buf, false
		}
		code := boundsCode(v, bounds)
		same := n
		for k := 0; k < n; k++ {
			if seen[k] == v {
				same = k
				break
			}
		}
		seen[n] = v
		n++
		buf = append(buf, 0, byte(code), byte(code>>8), byte(same))
	}
	return buf, true
}

// plainInteger reads a number token that is an integer of at most 18
// digits written without fraction or exponent.
func plainInteger(tok []byte) (int64, bool) {
	digits := tok
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if tok[0] == '-' {
		v = -v
	}
	return v, true
}

// boundsCode is the relation of v to the bounds: the index of the first
// bound at or above v, doubled, plus one when v equals it.
func boundsCode(v int64, bounds []int64) int {
	rel := 0
	for rel < len(bounds) && bounds[rel] < v {
		rel++
	}
	code := 2 * rel
	if rel < len(bounds) && bounds[rel] == v {
		code++
	}
	return code
}

// judgeRaw decodes one command and judges it. A number the schema library
// could not afford to read exactly (see numberLimits) reaches it as a
// stand-in with the same schema verdict, so that a number is judged by its
// value, never by how long it is written; the semantic phase reads the
// number as written.
func (s *schemas) judgeRaw(raw []byte) verdict {
	// A command of fewer bytes cannot hold more values.
	if len(raw) > 2*maxCommandValues {
		if n := jsonpos.CountValues(raw, maxCommandValues); n > maxCommandValues {
			return verdict{unjudged: true, message: fmt.Sprintf("not judged: the command holds more than %d JSON values, beyond the work budget of the command schema phase", maxCommandValues)}
		}
	}
	v, subs := jsonpos.DecodeStandIns(raw, numberLimits)
	vd := s.judge(v)
	if vd.ok {
		return vd
	}
	for _, sub := range subs {
		if sub.Pointer == vd.pointer {
			vd.message += fmt.Sprintf(" (the number is written %s; the schema judged %s, a number of the same sign, kind and bounds)", sub.Number, sub.StandIn)
			break
		}
	}
	return vd
}

// judge validates one decoded command object against the branch its cmd
// names, or against the whole schema when cmd names none.
func (s *schemas) judge(v any) verdict {
	fail := func(code, pointer, msg string) verdict {
		return verdict{code: code, pointer: pointer, message: msg}
	}
	obj, isObject := v.(map[string]any)
	cmdValue, hasCmd := obj["cmd"]
	cmd, cmdIsString := cmdValue.(string)
	if isObject && cmdIsString {
		if ok, err := s.ValidateBranch(cmd, v); ok {
			if err != nil {
				if vd, out := s.commandExhausted(err); out {
					return vd
				}
				pointer, msg := leafError(err)
				return fail(codeSchemaInvalid, pointer, fmt.Sprintf("%s: %s", cmd, msg))
			}
			return verdict{ok: true}
		}
	}
	err := s.ValidateCommand(v)
	if err == nil {
		return verdict{ok: true}
	}
	if vd, out := s.commandExhausted(err); out {
		return vd
	}
	switch {
	case !isObject:
		return fail(codeSchemaInvalid, "", "a command must be a JSON object")
	case !hasCmd:
		return fail(codeSchemaInvalid, "", `missing the "cmd" discriminator`)
	case !cmdIsString:
		return fail(codeSchemaInvalid, "/cmd", `"cmd" must be a string naming a command`)
	case s.Branches() > 0:
		return fail(codeUnknownCommand, "/cmd", fmt.Sprintf("unknown command %q: not one of the %d active commands", cmd, s.Branches()))
	}
	pointer, msg := leafError(err)
	return fail(codeSchemaInvalid, pointer, msg)
}

// commandExhausted turns a validation that ran out of its budget of steps
// into a command that is not judged, as one beyond maxCommandValues is:
// the schema, not the command, is what cannot be used, so the message
// names the schema file.
func (s *schemas) commandExhausted(err error) (verdict, bool) {
	var out *schema.ExhaustedError
	if !errors.As(err, &out) {
		return verdict{}, false
	}
	return verdict{unjudged: true, message: fmt.Sprintf("not judged: the command schema %s: %v", s.commandSource.Source, out)}, true
}
