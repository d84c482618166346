package drp2

import (
	"encoding/json"

	"github.com/drp2/drp2-fixtures/model"
)

// targetEncoder resolves the encoder_id of a command that needs an open
// encoder: the identity codes first (an encoder that was never begun is
// DRP2_ERR_INVALID_ID), then "not finished" (LIFETIMES.md, Command Encoder
// State Machine rule 6).
func (s *state) targetEncoder() (*object, *model.Failure) {
	const ptr = "/encoder_id"
	enc, f := s.resolve(s.w.EncoderID, ptr, kindEncoder)
	if f != nil {
		return nil, f
	}
	if s.broken(ruleEncoderFinished, !enc.enc().open) {
		return nil, s.fail(ruleEncoderFinished, ptr, "%s was already finished; no later command may target it", enc)
	}
	return enc, nil
}

// encoderScope is targetEncoder plus "no pass open", the scope of copies,
// barriers, pass begins and finishing; r is the rule that forbids this
// command inside a pass.
func (s *state) encoderScope(r *rule) (*object, *model.Failure) {
	enc, f := s.targetEncoder()
	if f != nil {
		return nil, f
	}
	if p := enc.enc().openPass; s.broken(r, p != nil) {
		return nil, s.fail(r, "/encoder_id", "%s is open in %s; this command is valid only outside a pass", p, enc)
	}
	return enc, nil
}

// scopeAndNewID is encoderScope, then the new id (at pointer) of the
// object the command creates on that encoder.
func (s *state) scopeAndNewID(r *rule, v json.Number, pointer string) (*object, ID, *model.Failure) {
	enc, f := s.encoderScope(r)
	if f != nil {
		return nil, ID{}, f
	}
	id, f := s.newID(v, pointer)
	if f != nil {
		return nil, ID{}, f
	}
	return enc, id, nil
}

// targetPass resolves the pass_id of a command that acts on the pass
// object itself (SetPipeline, SetBindGroup, End*Pass): the identity codes,
// then an ended pass, which counts as destroyed (LIFETIMES.md, Pass State
// Machine rule 5).
func (s *state) targetPass() (*object, *model.Failure) {
	const ptr = "/pass_id"
	p, f := s.resolve(s.w.PassID, ptr, kindRenderPass, kindComputePass)
	if f != nil {
		return nil, f
	}
	if s.broken(ruleEndedPass, !p.pass().open) {
		return nil, s.fail(ruleEndedPass, ptr, "%s already ended; no later command may target it", p)
	}
	return p, nil
}

// inPass resolves the pass_id of a command that records inside a pass
// (draws, dispatches, vertex and index buffers, render state). A pass that
// does not exist or has ended is a scope failure, DRP2_ERR_INVALID_STATE
// (ERRORS.md, State Versus Usage rule 4: "draw outside a render pass"),
// under the command's scope rule; a live id of another kind keeps the
// identity code; a pass of the other kind is a pass mismatch, checked
// before "ended".
func (s *state) inPass(want kind, scope, mismatch *rule) (*object, *model.Failure) {
	const ptr = "/pass_id"
	n, f := s.num(s.w.PassID, ptr)
	if f != nil {
		return nil, f
	}
	o := s.objects.get(n.id)
	if s.broken(scope, o == nil) {
		return nil, s.fail(scope, ptr, "pass_id %s names no pass; %s is valid only inside an open %s", n.id, s.w.Cmd, want)
	}
	if s.broken(ruleDestroyedID, o.destroyed) {
		return nil, s.fail(ruleDestroyedID, ptr, "pass_id %s names %s, which was destroyed", n.id, o)
	}
	if s.broken(ruleWrongKind, o.kind != kindRenderPass && o.kind != kindComputePass) {
		return nil, s.fail(ruleWrongKind, ptr, "pass_id %s names %s, not a pass", n.id, o)
	}
	if s.broken(mismatch, o.kind != want) {
		return nil, s.fail(mismatch, ptr, "%s is valid only in a %s, but %s is a %s", s.w.Cmd, want, o, o.kind)
	}
	if s.broken(scope, !o.pass().open) {
		return nil, s.fail(scope, ptr, "%s already ended; %s is valid only inside an open %s", o, s.w.Cmd, want)
	}
	return o, nil
}

func (s *state) beginEncoder() *model.Failure {
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	o := s.add(id, kindEncoder)
	o.info = &encoderInfo{open: true}
	return nil
}

func (s *state) finishEncoder() *model.Failure {
	enc, id, f := s.scopeAndNewID(ruleFinishOpenPass, s.w.CommandBufferID, "/command_buffer_id")
	if f != nil {
		return f
	}
	enc.enc().open = false
	cb := s.add(id, kindCommandBuffer)
	cb.info = &commandBufferInfo{encoder: enc, submitMark: -1}
	enc.enc().buffer = cb
	return nil
}

func (s *state) openPass(enc, p *object) {
	p.pass().encoder = enc
	p.pass().open = true
	enc.enc().openPass = p
	s.openPasses++
}

// attachment resolves one attachment texture and checks its usage (ERRORS.md,
// State Versus Usage rule 5). COMMANDS.md, BeginRenderPass, attachment
// descriptor semantics: "Depth/stencil attachments may use `0` for an
// implementation-owned transient depth attachment", without condition, so
// a depth attachment 0 is never resolved (zeroIsTransient). For colour
// attachments and resolve targets the prose gives 0 to the presentation
// target; the validator accepts 0 when it names no object and otherwise
// resolves it as the upstream runner resolves every colour attachment.
func (s *state) attachment(v json.Number, pointer string, zeroIsTransient bool, out *[]*object) *model.Failure {
	if v == "" {
		return nil
	}
	n, f := s.num(v, pointer)
	if f != nil {
		return f
	}
	if !n.val.isBig() && n.val.u == 0 && (zeroIsTransient || s.objects.get(n.id) == nil) {
		return nil
	}
	t, f := s.resolve(v, pointer, kindTexture)
	if f != nil {
		return f
	}
	if f := s.requireUsage(ruleDeclaredUsage, t, t.tex().usage, useRenderAttachment, pointer, "a render-pass attachment"); f != nil {
		return f
	}
	*out = append(*out, t)
	return nil
}

func (s *state) beginRenderPass() *model.Failure {
	// Everything is checked before the pass exists, so that a failure
	// leaves no half-open pass behind: the attachments in order, the id,
	// then the resolve targets (which the upstream runner does not check).
	enc, f := s.encoderScope(ruleOnePass)
	if f != nil {
		return f
	}
	var used []*object
	for i, a := range s.w.ColorAttachments {
		if f := s.attachment(a.TextureID, attachmentPointers.at(i, "/texture_id"), false, &used); f != nil {
			return f
		}
	}
	d := s.w.DepthStencilAttachment
	if d != nil {
		if f := s.attachment(d.TextureID, "/depth_stencil_attachment/texture_id", true, &used); f != nil {
			return f
		}
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	for i, a := range s.w.ColorAttachments {
		if f := s.attachment(a.ResolveTargetTextureID, attachmentPointers.at(i, "/resolve_target_texture_id"), false, &used); f != nil {
			return f
		}
	}
	p := s.add(id, kindRenderPass)
	// COMMANDS.md, CreateRenderPipeline rule 8 constrains pipelines only in
	// passes whose depth attachment requires depth writes or comparison;
	// the attachment says so through its access (write, read or both).
	p.info = &passInfo{depthAccess: d != nil && d.Access != ""}
	s.openPass(enc, p)
	for _, t := range used {
		capture(enc, t)
	}
	return nil
}

func (s *state) beginComputePass() *model.Failure {
	enc, id, f := s.scopeAndNewID(ruleOnePass, s.w.ID, "/id")
	if f != nil {
		return f
	}
	p := s.add(id, kindComputePass)
	p.info = &passInfo{}
	s.openPass(enc, p)
	return nil
}

// endPass closes the open pass of its encoder; EndRenderPass on a compute
// pass and the reverse are pass mismatches (LIFETIMES.md, Command Validity
// By Scope, additional rules 5-6). An open pass is always the current pass
// of its encoder, since an encoder holds one open pass at a time.
func (s *state) endPass(k kind, mismatch *rule) *model.Failure {
	p, f := s.targetPass()
	if f != nil {
		return f
	}
	if s.broken(mismatch, p.kind != k) {
		return s.fail(mismatch, "/pass_id", "%s closes a %s, but %s is a %s", s.w.Cmd, k, p, p.kind)
	}
	p.pass().open = false
	p.pass().encoder.enc().openPass = nil
	s.openPasses--
	return nil
}

func (s *state) setPipeline() *model.Failure {
	p, f := s.targetPass()
	if f != nil {
		return f
	}
	pipe, f := s.resolve(s.w.PipelineID, "/pipeline_id", kindRenderPipeline, kindComputePipeline)
	if f != nil {
		return f
	}
	if s.broken(rulePipelineKind, (p.kind == kindRenderPass) != (pipe.kind == kindRenderPipeline)) {
		// LIFETIMES.md, Submission And Destruction Safety, consequence 3:
		// pass-kind mismatches are DRP2_ERR_PASS_MISMATCH.
		return s.fail(rulePipelineKind, "/pipeline_id", "%s cannot be bound in %s: the pipeline kind must match the pass kind", pipe, p)
	}
	if s.broken(ruleDepthPipeline, p.pass().depthAccess && !pipe.pipe().depthStencil) {
		return s.fail(ruleDepthPipeline, "/pipeline_id", "%s declares no depth_stencil state but the depth/stencil attachment of %s declares an access", pipe, p)
	}
	p.pass().pipeline = pipe
	capture(p.pass().encoder, pipe)
	return nil
}

// bufferBinding checks what SetVertexBuffer and SetIndexBuffer share: an
// open render pass (under the command's scope rule), the buffer and its
// usage, then its range. An offset past the end is out of range even
// without a size (ERRORS.md, Range, Layout, And Alignment rule 4), which
// the upstream runner checks only when a size is given.
func (s *state) bufferBinding(scope, usage *rule, use uint16, role string) (p, buf *object, f *model.Failure) {
	if p, f = s.inPass(kindRenderPass, scope, rulePassKind); f != nil {
		return nil, nil, f
	}
	if buf, f = s.resolve(s.w.BufferID, "/buffer_id", kindBuffer); f != nil {
		return nil, nil, f
	}
	if f := s.requireUsage(usage, buf, buf.buf().usage, use, "/buffer_id", role); f != nil {
		return nil, nil, f
	}
	offset, f := s.num(s.w.Offset, "/offset")
	if f != nil {
		return nil, nil, f
	}
	size, _, f := s.optNum(literal(s.w.Size), "/size")
	if f != nil {
		return nil, nil, f
	}
	if f := s.checkRange(ruleBufferBounds, buf, offset.val, size.val, "/offset"); f != nil {
		return nil, nil, f
	}
	return p, buf, nil
}

func (s *state) setVertexBuffer() *model.Failure {
	p, buf, f := s.bufferBinding(ruleVertexScope, ruleVertexUsage, useVertex, "a vertex buffer")
	if f != nil {
		return f
	}
	slot, f := s.num(s.w.Slot, "/slot")
	if f != nil {
		return f
	}
	p.pass().bindSlot(slot.val)
	capture(p.pass().encoder, buf)
	return nil
}

func (s *state) setIndexBuffer() *model.Failure {
	p, buf, f := s.bufferBinding(ruleIndexScope, ruleIndexUsage, useIndex, "an index buffer")
	if f != nil {
		return f
	}
	p.pass().indexBound = true
	capture(p.pass().encoder, buf)
	return nil
}

// setBindGroup checks, in order: the pass, a bound pipeline, the bind group,
// the slot and layout against the pipeline, the dynamic offset count, then
// entry by entry in layout order each dynamic entry's buffer still alive and
// its moved range (all of these as the upstream runner does), then every
// other resource of the group still alive, which the upstream runner does
// not check.
func (s *state) setBindGroup() *model.Failure {
	p, f := s.targetPass()
	if f != nil {
		return f
	}
	pipe := p.pass().pipeline
	if s.broken(ruleBindNeedsPipeline, pipe == nil) {
		return s.fail(ruleBindNeedsPipeline, "", "no pipeline is bound in %s; SetBindGroup needs one bound earlier in the same pass", p)
	}
	bg, f := s.resolve(s.w.BindGroupID, "/bind_group_id", kindBindGroup)
	if f != nil {
		return f
	}
	slot, f := s.num(s.w.Slot, "/slot")
	if f != nil {
		return f
	}
	g := bg.group()
	layouts := pipe.pipe().layouts
	if s.broken(ruleBindSlot, slot.val.isBig() || slot.val.u >= uint64(len(layouts))) {
		return s.fail(ruleBindSlot, "/slot", "%s declares %d bind-group layout(s) and none for slot %s", pipe, len(layouts), slot.id)
	}
	if want := layouts[slot.val.u]; s.broken(ruleBindLayout, want != g.layout) {
		return s.fail(ruleBindLayout, "/bind_group_id", "%s was created from %s but slot %s of %s expects %s", bg, g.layout, slot.id, pipe, want)
	}
	var offsets []json.Number
	if s.w.DynamicOffsets != nil {
		offsets = *s.w.DynamicOffsets
	}
	if s.broken(ruleDynamicCount, len(offsets) != len(g.dynamic)) {
		return s.fail(ruleDynamicCount, "/dynamic_offsets", "%s has %d dynamic binding(s) in %s but %d dynamic offset(s) were given",
			bg, len(g.dynamic), g.layout, len(offsets))
	}
	for k, idx := range g.dynamic {
		e := &g.entries[idx]
		if s.broken(ruleBindDead, e.resource.destroyed) {
			return s.fail(ruleBindDead, "/bind_group_id", "%s references %s for dynamic binding %s, which was destroyed", bg, e.resource, e.binding)
		}
		ptr := dynamicOffsetPoints.at(k, "")
		off, f := s.num(offsets[k], ptr)
		if f != nil {
			return f
		}
		// The dynamic offset moves the entry's base offset before the
		// range check.
		start := add(e.offset, off.val)
		if end := add(start, e.size); s.broken(ruleDynamicRange, cmp(end, e.resource.buf().size) > 0) {
			return s.fail(ruleDynamicRange, ptr, "dynamic offset %s for binding %s moves its range to [%s, %s), beyond the %s bytes of %s",
				off.val, e.binding, start, end, e.resource.buf().size, e.resource)
		}
	}
	if s.broken(ruleBindDead, g.dead != nil) {
		return s.fail(ruleBindDead, "/bind_group_id", "%s references %s, which was destroyed", bg, g.dead)
	}
	capture(p.pass().encoder, bg)
	return nil
}

func (s *state) draw(indexed bool) *model.Failure {
	p, f := s.inPass(kindRenderPass, ruleDrawScope, rulePassKind)
	if f != nil {
		return f
	}
	needPipe, needSlots := ruleDrawPipeline, ruleDrawSlots
	if indexed {
		needPipe, needSlots = ruleDrawIndexedPipeline, ruleDrawIndexedSlots
	}
	pipe := p.pass().pipeline
	if s.broken(needPipe, pipe == nil) {
		return s.fail(needPipe, "", "no render pipeline is bound in %s", p)
	}
	// LIFETIMES.md, Pipeline And Pass Compatibility rules 7 and 16.
	if s.broken(needSlots, cmp(small(p.pass().mex), pipe.pipe().vertexSlots) < 0) {
		return s.fail(needSlots, "", "vertex-buffer slot %d required by %s (vertex_buffer_slots %s) is not bound in %s",
			p.pass().mex, pipe, pipe.pipe().vertexSlots, p)
	}
	if indexed && s.broken(ruleDrawIndexedIndex, !p.pass().indexBound) {
		return s.fail(ruleDrawIndexedIndex, "", "no index buffer is bound in %s", p)
	}
	return nil
}

func (s *state) dispatch() *model.Failure {
	p, f := s.inPass(kindComputePass, ruleDispatchScope, rulePassKind)
	if f != nil {
		return f
	}
	if s.broken(ruleDispatchPipeline, p.pass().pipeline == nil) {
		return s.fail(ruleDispatchPipeline, "", "no compute pipeline is bound in %s", p)
	}
	return nil
}

func (s *state) resourceBarrier() *model.Failure {
	enc, f := s.encoderScope(ruleBarrierScope)
	if f != nil {
		return f
	}
	buf, f := s.resolve(s.w.BufferID, "/buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	if f := s.requireUsage(ruleBarrierStorage, buf, buf.buf().usage, useStorage, "/buffer_id", "a compute storage-write barrier source"); f != nil {
		return f
	}
	switch s.w.DstStage {
	case "VERTEX_INPUT":
		if f := s.requireUsage(ruleBarrierVertex, buf, buf.buf().usage, useVertex, "/buffer_id", "a VERTEX_INPUT barrier target"); f != nil {
			return f
		}
	case "COPY":
		if f := s.requireUsage(ruleBarrierCopy, buf, buf.buf().usage, useCopySrc, "/buffer_id", "a COPY barrier target"); f != nil {
			return f
		}
	}
	offset, _, f := s.optNum(s.w.Offset, "/offset")
	if f != nil {
		return f
	}
	size, _, f := s.optNum(literal(s.w.Size), "/size")
	if f != nil {
		return f
	}
	// Size 0 or absent covers the rest of the buffer: only the offset must
	// lie within it.
	if f := s.checkRange(ruleBufferBounds, buf, offset.val, size.val, "/offset"); f != nil {
		return f
	}
	capture(enc, buf)
	return nil
}
