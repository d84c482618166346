// Package drp2 is the DRP2 2.0 semantic and capability validator: a state
// machine over a command stream that already passed the command schema.
//
// It implements the prose contract of COMMANDS.md, LIFETIMES.md, ERRORS.md,
// CAPABILITIES.md and VERSIONING.md: session handshake, one id space with
// kinds and liveness, encoder and pass scopes, resource usage and ranges,
// texture transfer layout, bind groups against layouts, pipelines,
// submission and readbacks, and then the active capability gates. Each
// command is decoded once and checked against incremental state, so a
// stream is checked in time linear in its length.
//
// Every verdict applies one catalogued rule (see Rules and rules.go) and
// names it. Where the prose decides a code the validator follows it; where
// the prose is silent, in particular on which of two failing checks of one
// command is reported, it follows the upstream DRP2 fixture runner.
// docs/conformance.md lists the rules and every deliberate difference.
package drp2

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/drp2/drp2-fixtures/model"
)

// Error codes of ERRORS.md used by this package.
const (
	codeUnknownCommand        = "DRP2_ERR_UNKNOWN_COMMAND"
	codeUnsupportedVersion    = "DRP2_ERR_UNSUPPORTED_VERSION"
	codeUnsupportedCapability = "DRP2_ERR_UNSUPPORTED_CAPABILITY"
	codeInvalidID             = "DRP2_ERR_INVALID_ID"
	codeDuplicateID           = "DRP2_ERR_DUPLICATE_ID"
	codeWrongObjectType       = "DRP2_ERR_WRONG_OBJECT_TYPE"
	codeDestroyedObject       = "DRP2_ERR_DESTROYED_OBJECT"
	codeInvalidState          = "DRP2_ERR_INVALID_STATE"
	codeInvalidArgument       = "DRP2_ERR_INVALID_ARGUMENT"
	codeOutOfRange            = "DRP2_ERR_OUT_OF_RANGE"
	codeLayout                = "DRP2_ERR_LAYOUT"
	codeUsage                 = "DRP2_ERR_USAGE"
	codePassMismatch          = "DRP2_ERR_PASS_MISMATCH"
	codePipelineMismatch      = "DRP2_ERR_PIPELINE_MISMATCH"
	codeFormatMismatch        = "DRP2_ERR_FORMAT_MISMATCH"
	codeFeatureRequired       = "DRP2_ERR_FEATURE_REQUIRED"
)

// supportedMajor is the protocol major version this validator implements.
const supportedMajor = 2

// Checker validates DRP2 2.0 command streams. It holds no state between
// calls, so one Checker may serve many goroutines.
type Checker struct {
	ahead aheadConfig // zero: defaultAhead
}

// New returns a Checker.
func New() *Checker { return &Checker{} }

// Check runs the semantic phase and, when it passes, the capability phase.
// It returns the first failure, or nil for a valid stream, and findings
// about the stream that never change its verdict (a QueueSubmitReply whose
// data is not size bytes of base64, LIFETIMES.md Readback Lifetime rule 9;
// their Path is left for the caller, who knows the fixture). trace, when
// not nil, is called with the ID of every rule (see Rules) whose check was
// evaluated, passed or failed, in the order evaluated.
//
// The work is bounded (see maxWork): a stream that needs more, or a check
// whose ctx is done, ends with a failure marked Unjudged, the same on
// every machine for the budget.
func (c *Checker) Check(ctx context.Context, s model.Stream, trace func(rule string)) (*model.Failure, []model.Finding) {
	var seen func(string, int)
	if trace != nil {
		seen = func(rule string, _ int) { trace(rule) }
	}
	return c.check(ctx, s, seen)
}

// CheckAt is Check with trace told where each rule was evaluated: the
// index of the command being checked, or, for a capability gate, of the
// command that declared what the gate checks; -1 for the checks of the
// stream as a whole (its version, the capabilities object). One pass
// tells what tracing every prefix of the stream would.
func (c *Checker) CheckAt(ctx context.Context, s model.Stream, trace func(rule string, command int)) (*model.Failure, []model.Finding) {
	return c.check(ctx, s, trace)
}

func (c *Checker) check(ctx context.Context, s model.Stream, trace func(rule string, command int)) (*model.Failure, []model.Finding) {
	st := newState()
	st.seen = trace
	st.ctx = ctx
	st.gated = literal(s.Capabilities) != ""
	st.maxWork = maxWork(s)
	st.ahead = c.ahead
	if st.ahead.min == 0 {
		st.ahead = defaultAhead
	}
	f := st.semantic(s)
	if f == nil {
		f = st.capability(s.Capabilities)
	}
	findings := st.findings
	st.release()
	if f != nil && f.Unjudged {
		return f, nil
	}
	return f, findings
}

// Work budget. One unit is one rule evaluated, or 16 bytes of a command
// read; loops that a command can make long (scans of pending submissions)
// are charged by their length. Honest streams use well under one unit per
// byte (the 1,000,000-command create/write/destroy stream: about 0.2); the
// budget is workPerByte units per byte of the stream, plus baseWork, so a
// stream that would make the validator work superlinearly is refused in
// time linear in its size, identically on every machine.
const (
	workPerByte = 4
	baseWork    = 1 << 20
	// maxCoefficientDigits bounds the significant digits of one number:
	// beyond it, exact arithmetic would cost more than the budget.
	// Trailing zeros do not count: 1e999999999 has one.
	maxCoefficientDigits = 4096
	// stopEvery is how many commands pass between looks at ctx.
	stopEvery = 4096
)

func maxWork(s model.Stream) int64 {
	n := int64(len(s.Capabilities))
	for _, c := range s.Commands {
		n += int64(len(c))
	}
	return workPerByte*n + baseWork
}

// charge counts n units of work and reports whether the budget still holds.
func (s *state) charge(n int) bool {
	s.work += int64(n)
	if s.work > s.maxWork {
		s.exhausted = true
	}
	return !s.exhausted
}

// unjudged is the failure of a check stopped by its budget or its context.
func (s *state) unjudged(format string, args ...any) *model.Failure {
	return &model.Failure{Phase: model.PhaseSemantic, CommandIndex: s.idx, Unjudged: true,
		Message: fmt.Sprintf(format, args...)}
}

func (s *state) overBudget() *model.Failure {
	return s.unjudged("not judged: the stream needs more than the validator's work budget of %d units (%d per byte of the stream, plus %d; a unit is one rule evaluated or 16 bytes read), exhausted at command %d",
		s.maxWork, workPerByte, baseWork, s.idx)
}

type session uint8

const (
	sessionFresh   session = iota // no HelloRenderer yet ("unnegotiated")
	sessionPending                // HelloRenderer seen, no reply yet
	sessionReady
	sessionFailed
)

// state is everything one Check call knows about the stream so far.
type state struct {
	idx     int
	session session
	objects objectTable
	// openPasses counts passes open anywhere in the stream: resource,
	// shader, pipeline and upload commands are invalid inside a pass scope
	// (COMMANDS.md, Common Field Semantics, rule 4; LAYER1.md, Pass Rules).
	openPasses int
	pending    []*submission
	pendingIDs idCounts
	gates      []gate
	gated      bool  // the stream declares capabilities: gates are kept
	w          *wire // the command being checked
	buf        wire  // where w is decoded, when it is not decoded ahead
	ahead      aheadConfig
	scratch    []byte
	seen       func(rule string, command int)
	findings   []model.Finding
	ctx        context.Context
	// work counts the units of work done, against maxWork; exhausted is
	// set once it passed.
	work, maxWork int64
	exhausted     bool
}

// states are kept from one stream to the next: a state is over a
// kilobyte, made for every fixture of a run. Nothing of a stream stays
// reachable from it once it is put back (release), but its scratch buffer
// when small.
var states = sync.Pool{New: func() any { return new(state) }}

func newState() *state {
	s := states.Get().(*state)
	s.w = &s.buf
	return s
}

// release clears s and keeps it for the next stream; nothing may use it
// after.
func (s *state) release() {
	scratch := s.scratch
	*s = state{}
	if cap(scratch) <= 64<<10 {
		s.scratch = scratch[:0]
	}
	states.Put(s)
}

func (s *state) semantic(st model.Stream) *model.Failure {
	s.idx = -1
	// Every stream declares its version, and an unknown major version
	// fails immediately; no single command is at fault. The major version
	// is a JSON number, judged by its value (2.0 is 2).
	major, ok := parseNumber(string(st.Version.Major))
	if s.broken(ruleVersionMajor, !ok || major.val.isBig() || major.val.u != supportedMajor) {
		if st.Version.Major == "" {
			return s.fail(ruleVersionMajor, "", "stream declares no protocol major version; this runtime accepts major version %d", supportedMajor)
		}
		return s.fail(ruleVersionMajor, "", "stream declares protocol major version %s; this runtime accepts major version %d",
			st.Version.Major, supportedMajor)
	}
	if s.broken(ruleHandshakeFirst, len(st.Commands) == 0) {
		return s.fail(ruleHandshakeFirst, "", "the stream has no commands; HelloRenderer must open every stream")
	}
	var ahead *decoder
	if s.ahead.applies(len(st.Commands)) {
		ahead = startDecoder(st.Commands, s.ahead)
		defer s.endAhead(ahead)
	}
	var in *interner
	if ahead == nil && len(st.Commands) >= internFrom {
		in = newInterner()
	}
	s.w = &s.buf
	for i, raw := range st.Commands {
		s.idx = i
		if i%stopEvery == 0 && s.ctx != nil && s.ctx.Err() != nil {
			return s.unjudged("not judged: the check was stopped at command %d (%v)", i, context.Cause(s.ctx))
		}
		if !s.charge(1 + len(raw)/16) {
			return s.overBudget()
		}
		var err error
		if ahead != nil {
			d := ahead.next(i)
			s.w, err = &d.w, d.err
		} else {
			s.buf = wire{}
			err = s.buf.decode(raw, in)
		}
		if s.broken(ruleDecode, err != nil) {
			return s.fail(ruleDecode, "", "command %d cannot be decoded: %v", i, err)
		}
		if f := s.step(); f != nil {
			return f
		}
		if s.exhausted {
			return s.overBudget()
		}
	}
	return nil
}

// endAhead stops decoding ahead and keeps the last command read (the
// capability phase's messages name it, as after the serial loop) out of
// the ring.
func (s *state) endAhead(d *decoder) {
	d.close()
	if s.w != &s.buf {
		s.buf = *s.w
		s.w = &s.buf
	}
}

// step checks one command and applies its effect. The handshake and
// diagnostic commands have session rules of their own; every other command
// is active and needs a ready session (LIFETIMES.md, Session State rule 7).
func (s *state) step() *model.Failure {
	switch s.w.Cmd {
	case "HelloRenderer":
		return s.hello()
	case "RendererHelloReply":
		return s.helloReply()
	case "Error":
		return s.errorCmd()
	}
	check, known := commands[s.w.Cmd]
	if s.broken(ruleUnknownCommand, !known) {
		return s.fail(ruleUnknownCommand, "/cmd", "command %q is not an active DRP2 2.0 command", s.w.Cmd)
	}
	if f := s.requireReady(); f != nil {
		return f
	}
	return check(s)
}

// commands maps each active command to its check. It is filled in init
// because the checks themselves read it (through fail), which a
// package-level initializer may not.
var commands map[string]func(*state) *model.Failure

func init() {
	destroyOf := func(k kind, pointer string, id func(*wire) json.Number) func(*state) *model.Failure {
		return func(s *state) *model.Failure { return s.destroy(id(s.w), pointer, k) }
	}
	renderState := func(s *state) *model.Failure {
		_, f := s.inPass(kindRenderPass, ruleRenderStateScope, ruleRenderStateKind)
		return f
	}
	commands = map[string]func(*state) *model.Failure{
		"CreateBuffer":           (*state).createBuffer,
		"DestroyBuffer":          destroyOf(kindBuffer, "/buffer_id", func(w *wire) json.Number { return w.BufferID }),
		"WriteBuffer":            (*state).writeBuffer,
		"CreateTexture":          (*state).createTexture,
		"DestroyTexture":         destroyOf(kindTexture, "/texture_id", func(w *wire) json.Number { return w.TextureID }),
		"WriteTexture":           (*state).writeTexture,
		"CreateSampler":          (*state).createSampler,
		"DestroySampler":         destroyOf(kindSampler, "/id", func(w *wire) json.Number { return w.ID }),
		"CreateTextureView":      (*state).createTextureView,
		"DestroyTextureView":     destroyOf(kindTextureView, "/id", func(w *wire) json.Number { return w.ID }),
		"CreateBindGroupLayout":  (*state).createBindGroupLayout,
		"DestroyBindGroupLayout": destroyOf(kindBindGroupLayout, "/bind_group_layout_id", func(w *wire) json.Number { return w.BindGroupLayoutID }),
		"CreateBindGroup":        (*state).createBindGroup,
		"DestroyBindGroup":       destroyOf(kindBindGroup, "/bind_group_id", func(w *wire) json.Number { return w.BindGroupID }),
		"CreateShaderModule":     (*state).createShaderModule,
		"DestroyShaderModule":    destroyOf(kindShaderModule, "/shader_module_id", func(w *wire) json.Number { return w.ShaderModuleID }),
		"CreateRenderPipeline":   (*state).createRenderPipeline,
		"DestroyRenderPipeline":  destroyOf(kindRenderPipeline, "/render_pipeline_id", func(w *wire) json.Number { return w.RenderPipelineID }),
		"CreateComputePipeline":  (*state).createComputePipeline,
		"DestroyComputePipeline": destroyOf(kindComputePipeline, "/compute_pipeline_id", func(w *wire) json.Number { return w.ComputePipelineID }),
		"BeginCommandEncoder":    (*state).beginEncoder,
		"FinishCommandEncoder":   (*state).finishEncoder,
		"BeginRenderPass":        (*state).beginRenderPass,
		"BeginComputePass":       (*state).beginComputePass,
		"EndRenderPass":          func(s *state) *model.Failure { return s.endPass(kindRenderPass, ruleEndRenderKind) },
		"EndComputePass":         func(s *state) *model.Failure { return s.endPass(kindComputePass, ruleEndComputeKind) },
		"SetPipeline":            (*state).setPipeline,
		"SetVertexBuffer":        (*state).setVertexBuffer,
		"SetIndexBuffer":         (*state).setIndexBuffer,
		"SetBindGroup":           (*state).setBindGroup,
		"SetViewport":            renderState,
		"SetScissor":             renderState,
		"SetBlendConstant":       renderState,
		"SetStencilReference":    renderState,
		"Draw":                   func(s *state) *model.Failure { return s.draw(false) },
		"DrawIndexed":            func(s *state) *model.Failure { return s.draw(true) },
		"DispatchWorkgroups":     (*state).dispatch,
		"ResourceBarrier":        (*state).resourceBarrier,
		"CopyBufferToBuffer":     copyCommand((*state).copyBufferToBuffer),
		"CopyBufferToTexture":    copyCommand((*state).copyBufferToTexture),
		"CopyTextureToBuffer":    copyCommand((*state).copyTextureToBuffer),
		"CopyTextureToTexture":   copyCommand((*state).copyTextureToTexture),
		"QueueSubmit":            (*state).queueSubmit,
		"QueueSubmitReply":       (*state).queueSubmitReply,
	}
}

// broken records that rule r was evaluated on the stream and reports bad,
// so that a check reads "if s.broken(r, condition) { return s.fail(r, ...) }".
//
// Each evaluation is a unit of work; past the budget every rule reads as
// broken, and fail turns that into the budget's unjudged failure, so the
// check stops at once.
func (s *state) broken(r *rule, bad bool) bool {
	if s.seen != nil {
		s.seen(r.id, s.idx)
	}
	if !s.charge(1) {
		return true
	}
	return bad
}

// fail builds the semantic failure of rule r at the current command. The
// message names the rule so that a reader can check the verdict.
func (s *state) fail(r *rule, pointer, format string, args ...any) *model.Failure {
	if s.exhausted {
		return s.overBudget()
	}
	return &model.Failure{
		Phase:        model.PhaseSemantic,
		Code:         r.code,
		CommandIndex: s.idx,
		Message:      s.prefix() + fmt.Sprintf(format, args...) + " (" + r.id + ")",
		Pointer:      pointer,
		Rule:         r.id,
	}
}

// prefix names the failing command in messages; an unknown command name is
// untrusted text and stays out of the prefix.
func (s *state) prefix() string {
	if s.idx < 0 {
		return ""
	}
	switch s.w.Cmd {
	case "HelloRenderer", "RendererHelloReply", "Error":
		return s.w.Cmd + ": "
	}
	if _, known := commands[s.w.Cmd]; known {
		return s.w.Cmd + ": "
	}
	return ""
}

// num reads a required non-negative integer field.
func (s *state) num(v json.Number, pointer string) (number, *model.Failure) {
	if s.broken(ruleDecode, v == "") {
		return number{}, s.fail(ruleDecode, pointer, "field %s is missing", field(pointer))
	}
	n, ok := parseNumber(string(v))
	if !ok {
		return number{}, s.fail(ruleDecode, pointer, "field %s is not a non-negative integer", field(pointer))
	}
	if d := n.val.coefficientDigits(); d > maxCoefficientDigits {
		s.exhausted = true
		return number{}, s.unjudged("not judged: field %s of command %d has %d significant digits; exact arithmetic on more than %d is beyond the validator's work budget",
			field(pointer), s.idx, d, maxCoefficientDigits)
	}
	return n, nil
}

// optNum reads an optional non-negative integer field.
func (s *state) optNum(v json.Number, pointer string) (number, bool, *model.Failure) {
	if v == "" {
		return number{}, false, nil
	}
	n, f := s.num(v, pointer)
	return n, f == nil, f
}

// field turns a JSON pointer into a readable field path.
func field(pointer string) string {
	if len(pointer) > 0 && pointer[0] == '/' {
		pointer = pointer[1:]
	}
	out := make([]byte, 0, len(pointer))
	for i := 0; i < len(pointer); i++ {
		if pointer[i] == '/' {
			out = append(out, '.')
			continue
		}
		out = append(out, pointer[i])
	}
	return string(out)
}

// newID reads the id of an object being created. Ids are never reused, not
// even after destruction or for another kind (LIFETIMES.md, Object Identity
// rules 6-7). Create commands call it after every other check, so that a
// reused id is reported only when nothing else in the command fails.
func (s *state) newID(v json.Number, pointer string) (ID, *model.Failure) {
	n, f := s.num(v, pointer)
	if f != nil {
		return ID{}, f
	}
	if old := s.objects.get(n.id); s.broken(ruleDuplicateID, old != nil) {
		state := "live"
		if old.destroyed {
			state = "destroyed"
		}
		return ID{}, s.fail(ruleDuplicateID, pointer, "%s %s is already used by %s (%s, created by command %d)",
			field(pointer), n.id, old, state, old.createdAt)
	}
	return n.id, nil
}

// create ends a create command whose own checks passed: the new id, which
// is checked after every other check of the command (ERRORS.md, Identity And
// Type rule 3), then the pass scope, which the upstream runner does not
// check (see outsidePass). Then the object exists, of kind k.
func (s *state) create(k kind) (*object, *model.Failure) {
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return nil, f
	}
	if f := s.outsidePass(); f != nil {
		return nil, f
	}
	return s.add(id, k), nil
}

func (s *state) add(id ID, k kind) *object {
	o := &object{id: id, kind: k, createdAt: s.idx}
	s.objects.set(id, o)
	return o
}

// lookup resolves an id to any object, with the first two identity codes of
// ERRORS.md (Identity And Type): never created, then destroyed. A pass that
// ended is still found; callers decide what an ended pass means to them.
func (s *state) lookup(v json.Number, pointer string) (*object, *model.Failure) {
	n, f := s.num(v, pointer)
	if f != nil {
		return nil, f
	}
	o := s.objects.get(n.id)
	if s.broken(ruleUnknownID, o == nil) {
		return nil, s.fail(ruleUnknownID, pointer, "%s %s names no object: it was never created", field(pointer), n.id)
	}
	if s.broken(ruleDestroyedID, o.destroyed) {
		return nil, s.fail(ruleDestroyedID, pointer, "%s %s names %s, which was destroyed", field(pointer), n.id, o)
	}
	return o, nil
}

// resolve looks up a reference to an object of one of the given kinds:
// never created, destroyed, then wrong kind. A destroyed object of another
// kind is reported as destroyed: the wrong-type code is for live ids
// (ERRORS.md, Identity And Type rule 4).
func (s *state) resolve(v json.Number, pointer string, kinds ...kind) (*object, *model.Failure) {
	o, f := s.lookup(v, pointer)
	if f != nil {
		return nil, f
	}
	if s.broken(ruleWrongKind, !o.isA(kinds)) {
		return nil, s.fail(ruleWrongKind, pointer, "%s %s names %s, not a %s", field(pointer), o.id, o, kindList(kinds))
	}
	return o, nil
}

func (o *object) isA(kinds []kind) bool {
	for _, k := range kinds {
		if o.kind == k {
			return true
		}
	}
	return false
}

func kindList(kinds []kind) string {
	out := ""
	for i, k := range kinds {
		if i > 0 {
			out += " or "
		}
		out += k.String()
	}
	return out
}

// outsidePass rejects resource, shader, pipeline, upload and destroy
// commands while a pass is open (COMMANDS.md, Common Field Semantics, rule
// 4). The upstream runner has no such check, so commands run it after their
// own checks: a command that breaks both reports its own failure.
func (s *state) outsidePass() *model.Failure {
	if s.broken(ruleOutsidePass, s.openPasses > 0) {
		return s.fail(ruleOutsidePass, "", "resource, binding, shader, pipeline, upload and destroy commands are invalid while a render or compute pass is open")
	}
	return nil
}

// capture records that the current encoder's work references o, and with it
// everything o keeps in use: a bind group its layout and resources, a view
// its texture, a pipeline its shader modules and layouts.
func capture(enc *object, o *object) {
	if o == nil || o.capturedBy != nil {
		return
	}
	o.capturedBy = enc
	switch info := o.info.(type) {
	case *groupInfo:
		capture(enc, info.layout)
		for i := range info.entries {
			capture(enc, info.entries[i].resource)
			capture(enc, info.entries[i].texture)
		}
	case *viewInfo:
		capture(enc, info.texture)
	case *pipelineInfo:
		for _, r := range info.refs {
			capture(enc, r)
		}
	}
}

// work describes the recorded work that captured an object, for messages.
func work(enc *object) string {
	if enc.enc().buffer == nil {
		return fmt.Sprintf("recorded work of open %s", enc)
	}
	cb := enc.enc().buffer
	if cb.cb().submitted {
		return fmt.Sprintf("submitted work (%s from %s)", cb, enc)
	}
	return fmt.Sprintf("recorded work (%s from %s, not yet submitted)", cb, enc)
}

// ChecksAnyCommands reports that Check judges any stream of valid JSON
// commands, whether or not they passed the command schema: decoding takes
// any JSON, the work is within the budget, and ctx stops it. The runner
// may then run it beside the command schema (runner.AnyCommandsChecker).
func (c *Checker) ChecksAnyCommands() bool { return true }
