package drp2

import (
	"encoding/json"
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

// targetEncoder resolves the encoder_id of a command that needs an open
// encoder. An id that names no open encoder is a recorder-scope failure,
// DRP2_ERR_INVALID_STATE (ERRORS.md, State Versus Usage rules 1 and 4);
// an id of a live persistent object of another kind keeps the identity code.
func (s *state) targetEncoder() (*object, *model.Failure) {
	const ptr = "/encoder_id"
	n, f := s.num(s.w.EncoderID, ptr)
	if f != nil {
		return nil, f
	}
	o := s.objects[n.id]
	switch {
	case o == nil:
		return nil, s.fail(codeInvalidState, ptr, "encoder_id %s names no open command encoder", n.id)
	case o.destroyed:
		return nil, s.fail(codeDestroyedObject, ptr, "encoder_id %s names %s, which was destroyed", n.id, o)
	case o.kind != kindEncoder:
		return nil, s.fail(codeWrongObjectType, ptr, "encoder_id %s names %s, not a command encoder", n.id, o)
	case !o.enc.open:
		return nil, s.fail(codeInvalidState, ptr, "%s was already finished; no later command may target it", o)
	}
	return o, nil
}

// encoderScope is targetEncoder plus "no pass open": the scope of copies,
// barriers, pass begins and finishing (LIFETIMES.md, Command Encoder State
// Machine rules 2-4, 7-8).
func (s *state) encoderScope() (*object, *model.Failure) {
	enc, f := s.targetEncoder()
	if f != nil {
		return nil, f
	}
	if p := enc.enc.openPass; p != nil {
		return nil, s.fail(codeInvalidState, "/encoder_id", "%s is open in %s; this command is valid only outside a pass", p, enc)
	}
	return enc, nil
}

// targetPass resolves the pass_id of a pass-scoped command. want is the pass
// kind the command needs, or 0 for either. Unknown and ended passes are
// scope failures (DRP2_ERR_INVALID_STATE, as for "draw outside a render
// pass"); a pass of the other kind is DRP2_ERR_PASS_MISMATCH (LIFETIMES.md,
// Submission And Destruction Safety, consequence 3).
func (s *state) targetPass(want kind) (*object, *model.Failure) {
	const ptr = "/pass_id"
	n, f := s.num(s.w.PassID, ptr)
	if f != nil {
		return nil, f
	}
	o := s.objects[n.id]
	need := "pass"
	if want != 0 {
		need = want.String()
	}
	switch {
	case o == nil:
		return nil, s.fail(codeInvalidState, ptr, "pass_id %s names no open %s; %s is valid only inside one", n.id, need, s.w.Cmd)
	case o.destroyed:
		return nil, s.fail(codeDestroyedObject, ptr, "pass_id %s names %s, which was destroyed", n.id, o)
	case o.kind != kindRenderPass && o.kind != kindComputePass:
		return nil, s.fail(codeWrongObjectType, ptr, "pass_id %s names %s, not a pass", n.id, o)
	case want != 0 && o.kind != want:
		return nil, s.fail(codePassMismatch, ptr, "%s is valid only in a %s, but %s is a %s", s.w.Cmd, want, o, o.kind)
	case !o.pass.open:
		return nil, s.fail(codeInvalidState, ptr, "%s already ended; no later command may target it", o)
	}
	return o, nil
}

func (s *state) beginEncoder() *model.Failure {
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	o := s.add(id, kindEncoder)
	o.enc = &encoderInfo{open: true}
	return nil
}

func (s *state) finishEncoder() *model.Failure {
	enc, f := s.encoderScope()
	if f != nil {
		return f
	}
	id, f := s.newID(s.w.CommandBufferID, "/command_buffer_id")
	if f != nil {
		return f
	}
	enc.enc.open = false
	cb := s.add(id, kindCommandBuffer)
	cb.cb = &commandBufferInfo{encoder: enc, submitMark: -1}
	enc.enc.buffer = cb
	return nil
}

func (s *state) beginPass(k kind) (*object, *object, *model.Failure) {
	enc, f := s.encoderScope()
	if f != nil {
		return nil, nil, f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return nil, nil, f
	}
	return enc, s.add(id, k), nil
}

func (s *state) openPass(enc, p *object) {
	p.pass.encoder = enc
	p.pass.open = true
	enc.enc.openPass = p
	s.openPasses++
}

// attachment resolves one attachment texture. Id 0 is the portable
// presentation target (color) or an implementation-owned transient depth
// attachment (COMMANDS.md, BeginRenderPass), so it names no object.
func (s *state) attachment(v json.Number, pointer string, out *[]attached) *model.Failure {
	if v == "" {
		return nil
	}
	n, f := s.num(v, pointer)
	if f != nil {
		return f
	}
	if !n.val.isBig() && n.val.u == 0 {
		return nil
	}
	t, f := s.resolve(v, pointer, kindTexture)
	if f != nil {
		return f
	}
	*out = append(*out, attached{t, pointer})
	return nil
}

type attached struct {
	texture *object
	pointer string
}

func (s *state) beginRenderPass() *model.Failure {
	// Resolve the attachments before the pass exists so that a failure
	// leaves no half-open pass behind.
	enc, f := s.encoderScope()
	if f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	var list []attached
	for i, a := range s.w.ColorAttachments {
		ptr := "/color_attachments/" + strconv.Itoa(i)
		if f := s.attachment(a.TextureID, ptr+"/texture_id", &list); f != nil {
			return f
		}
		if f := s.attachment(a.ResolveTargetTextureID, ptr+"/resolve_target_texture_id", &list); f != nil {
			return f
		}
	}
	if d := s.w.DepthStencilAttachment; d != nil {
		if f := s.attachment(d.TextureID, "/depth_stencil_attachment/texture_id", &list); f != nil {
			return f
		}
	}
	for _, a := range list {
		// ERRORS.md, State Versus Usage rule 5: a use forbidden by the
		// declared creation usage.
		if f := s.requireUsage(a.texture, a.texture.tex.usage, useRenderAttachment, a.pointer, "a render-pass attachment"); f != nil {
			return f
		}
	}
	p := s.add(id, kindRenderPass)
	p.pass = &passInfo{depth: s.w.DepthStencilAttachment != nil}
	s.openPass(enc, p)
	for _, a := range list {
		capture(enc, a.texture)
	}
	return nil
}

func (s *state) beginComputePass() *model.Failure {
	enc, p, f := s.beginPass(kindComputePass)
	if f != nil {
		return f
	}
	p.pass = &passInfo{}
	s.openPass(enc, p)
	return nil
}

// endPass closes the open pass of its encoder; EndRenderPass on a compute
// pass and the reverse are pass mismatches (LIFETIMES.md, Command Validity
// By Scope, additional rules 5-6).
func (s *state) endPass(k kind) *model.Failure {
	p, f := s.targetPass(k)
	if f != nil {
		return f
	}
	p.pass.open = false
	p.pass.encoder.enc.openPass = nil
	s.openPasses--
	return nil
}

func (s *state) setPipeline() *model.Failure {
	p, f := s.targetPass(0)
	if f != nil {
		return f
	}
	pipe, f := s.resolve(s.w.PipelineID, "/pipeline_id", kindRenderPipeline, kindComputePipeline)
	if f != nil {
		return f
	}
	if (p.kind == kindRenderPass) != (pipe.kind == kindRenderPipeline) {
		// LIFETIMES.md, Pipeline And Pass Compatibility rule 2; ERRORS.md
		// names "incompatible pipeline in a pass" DRP2_ERR_PIPELINE_MISMATCH.
		return s.fail(codePipelineMismatch, "/pipeline_id", "%s cannot be bound in %s: the pipeline kind must match the pass kind", pipe, p)
	}
	if p.pass.depth && !pipe.pipe.depthStencil {
		// COMMANDS.md, CreateRenderPipeline rule 8.
		return s.fail(codePipelineMismatch, "/pipeline_id", "%s declares no depth_stencil state but %s has a depth/stencil attachment", pipe, p)
	}
	p.pass.pipeline = pipe
	capture(p.pass.encoder, pipe)
	return nil
}

func (s *state) bufferBinding(use uint16, role string) (*object, *model.Failure) {
	buf, f := s.resolve(s.w.BufferID, "/buffer_id", kindBuffer)
	if f != nil {
		return nil, f
	}
	offset, f := s.num(s.w.Offset, "/offset")
	if f != nil {
		return nil, f
	}
	size, _, f := s.optNum(literal(s.w.Size), "/size")
	if f != nil {
		return nil, f
	}
	if f := s.requireUsage(buf, buf.buf.usage, use, "/buffer_id", role); f != nil {
		return nil, f
	}
	if f := s.checkRange(buf, offset.val, size.val, "/offset"); f != nil {
		return nil, f
	}
	return buf, nil
}

func (s *state) setVertexBuffer() *model.Failure {
	p, f := s.targetPass(kindRenderPass)
	if f != nil {
		return f
	}
	slot, f := s.num(s.w.Slot, "/slot")
	if f != nil {
		return f
	}
	// LIFETIMES.md, Pipeline And Pass Compatibility rule 5.
	buf, f := s.bufferBinding(useVertex, "a vertex buffer")
	if f != nil {
		return f
	}
	p.pass.bindSlot(slot.val)
	capture(p.pass.encoder, buf)
	return nil
}

func (s *state) setIndexBuffer() *model.Failure {
	p, f := s.targetPass(kindRenderPass)
	if f != nil {
		return f
	}
	// LIFETIMES.md, Pipeline And Pass Compatibility rule 6.
	buf, f := s.bufferBinding(useIndex, "an index buffer")
	if f != nil {
		return f
	}
	p.pass.indexBound = true
	capture(p.pass.encoder, buf)
	return nil
}

func (s *state) setBindGroup() *model.Failure {
	p, f := s.targetPass(0)
	if f != nil {
		return f
	}
	slot, f := s.num(s.w.Slot, "/slot")
	if f != nil {
		return f
	}
	bg, f := s.resolve(s.w.BindGroupID, "/bind_group_id", kindBindGroup)
	if f != nil {
		return f
	}
	pipe := p.pass.pipeline
	if pipe == nil {
		// COMMANDS.md, SetBindGroup rule 2; LIFETIMES.md rule 17.
		return s.fail(codeInvalidState, "", "no pipeline is bound in %s; SetBindGroup needs one bound earlier in the same pass", p)
	}
	g := bg.group
	if pipe.pipe.declaresLayouts {
		// COMMANDS.md, SetBindGroup rules 3-4 and 11.
		if slot.val.isBig() || slot.val.u >= uint64(len(pipe.pipe.layouts)) {
			return s.fail(codeInvalidState, "/slot", "%s declares %d bind-group layout(s) and none for slot %s", pipe, len(pipe.pipe.layouts), slot.id)
		}
		if want := pipe.pipe.layouts[slot.val.u]; want != g.layout {
			return s.fail(codeInvalidState, "/bind_group_id", "%s was created from %s but slot %s of %s expects %s", bg, g.layout, slot.id, pipe, want)
		}
	}
	if g.dead != nil {
		return s.fail(codeDestroyedObject, "/bind_group_id", "%s references %s, which was destroyed", bg, g.dead)
	}
	var offsets []json.Number
	if s.w.DynamicOffsets != nil {
		offsets = *s.w.DynamicOffsets
	}
	if len(offsets) != len(g.dynamic) {
		// LIFETIMES.md, Pipeline And Pass Compatibility rule 14.
		return s.fail(codeInvalidState, "/dynamic_offsets", "%s has %d dynamic binding(s) in %s but %d dynamic offset(s) were given",
			bg, len(g.dynamic), g.layout, len(offsets))
	}
	for k, idx := range g.dynamic {
		ptr := "/dynamic_offsets/" + strconv.Itoa(k)
		off, f := s.num(offsets[k], ptr)
		if f != nil {
			return f
		}
		e := &g.entries[idx]
		// Rule 15: the dynamic offset moves the entry's base offset before
		// the range check.
		start := add(e.offset, off.val)
		if end := add(start, e.size); cmp(end, e.resource.buf.size) > 0 {
			return s.fail(codeOutOfRange, ptr, "dynamic offset %s for binding %s moves its range to [%s, %s), beyond the %s bytes of %s",
				off.val, e.binding, start, end, e.resource.buf.size, e.resource)
		}
	}
	capture(p.pass.encoder, bg)
	return nil
}

func (s *state) draw(indexed bool) *model.Failure {
	p, f := s.targetPass(kindRenderPass)
	if f != nil {
		return f
	}
	pipe := p.pass.pipeline
	if pipe == nil {
		return s.fail(codeInvalidState, "", "no render pipeline is bound in %s", p)
	}
	// LIFETIMES.md, Pipeline And Pass Compatibility rules 7 and 16.
	if cmp(small(p.pass.mex), pipe.pipe.vertexSlots) < 0 {
		return s.fail(codeInvalidState, "", "vertex-buffer slot %d required by %s (vertex_buffer_slots %s) is not bound in %s",
			p.pass.mex, pipe, pipe.pipe.vertexSlots, p)
	}
	if indexed && !p.pass.indexBound {
		return s.fail(codeInvalidState, "", "no index buffer is bound in %s", p)
	}
	return nil
}

func (s *state) dispatch() *model.Failure {
	p, f := s.targetPass(kindComputePass)
	if f != nil {
		return f
	}
	if p.pass.pipeline == nil {
		return s.fail(codeInvalidState, "", "no compute pipeline is bound in %s", p)
	}
	return nil
}

func (s *state) resourceBarrier() *model.Failure {
	enc, f := s.encoderScope()
	if f != nil {
		return f
	}
	buf, f := s.resolve(s.w.BufferID, "/buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	offset, _, f := s.optNum(s.w.Offset, "/offset")
	if f != nil {
		return f
	}
	size, _, f := s.optNum(literal(s.w.Size), "/size")
	if f != nil {
		return f
	}
	// COMMANDS.md, ResourceBarrier rules 2-4.
	if f := s.requireUsage(buf, buf.buf.usage, useStorage, "/buffer_id", "a compute storage-write barrier source"); f != nil {
		return f
	}
	switch s.w.DstStage {
	case "VERTEX_INPUT":
		if f := s.requireUsage(buf, buf.buf.usage, useVertex, "/buffer_id", "a VERTEX_INPUT barrier target"); f != nil {
			return f
		}
	case "COPY":
		if f := s.requireUsage(buf, buf.buf.usage, useCopySrc, "/buffer_id", "a COPY barrier target"); f != nil {
			return f
		}
	}
	// Size 0 or absent covers the rest of the buffer.
	if f := s.checkRange(buf, offset.val, size.val, "/offset"); f != nil {
		return f
	}
	capture(enc, buf)
	return nil
}
