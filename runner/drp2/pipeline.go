package drp2

import (
	"encoding/json"
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

func (s *state) createShaderModule() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	o := s.add(id, kindShaderModule)
	o.shad = &shaderInfo{stage: s.w.Stage}
	s.gates = append(s.gates, gate{index: s.idx, kind: gateShader, shaderFormat: s.w.Format, features: s.w.RequiredFeatures})
	return nil
}

// module resolves the shader module of a pipeline slot.
func (s *state) module(v json.Number, pointer string) (*object, *model.Failure) {
	return s.resolve(v, pointer, kindShaderModule)
}

// requireStage checks that a module's declared stage matches its pipeline
// slot: a create-time shape incompatible with a resolved object
// (LIFETIMES.md, Pipeline Lifetime rule 8; ERRORS.md, State Versus Usage
// rule 3).
func (s *state) requireStage(m *object, want, pointer string) *model.Failure {
	if m.shad.stage != want {
		return s.fail(codeInvalidArgument, pointer, "%s has stage %q but %s needs a %s module", m, m.shad.stage, field(pointer), want)
	}
	return nil
}

// layouts resolves bind_group_layout_ids.
func (s *state) layouts(p *pipelineInfo) *model.Failure {
	if s.w.BindGroupLayoutIDs == nil {
		return nil
	}
	p.declaresLayouts = true
	for i, v := range *s.w.BindGroupLayoutIDs {
		l, f := s.resolve(v, "/bind_group_layout_ids/"+strconv.Itoa(i), kindBindGroupLayout)
		if f != nil {
			return f
		}
		p.layouts = append(p.layouts, l)
	}
	return nil
}

func (s *state) createRenderPipeline() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	vs, f := s.module(s.w.VertexShaderModuleID, "/vertex_shader_module_id")
	if f != nil {
		return f
	}
	fs, f := s.module(s.w.FragmentShaderModuleID, "/fragment_shader_module_id")
	if f != nil {
		return f
	}
	p := &pipelineInfo{depthStencil: literal(s.w.DepthStencil) != ""}
	if f := s.layouts(p); f != nil {
		return f
	}
	slots, f := s.num(s.w.VertexBufferSlots, "/vertex_buffer_slots")
	if f != nil {
		return f
	}
	p.vertexSlots = slots.val
	if f := s.requireStage(vs, "VERTEX", "/vertex_shader_module_id"); f != nil {
		return f
	}
	if f := s.requireStage(fs, "FRAGMENT", "/fragment_shader_module_id"); f != nil {
		return f
	}
	if vb := s.w.VertexBuffers; vb != nil {
		// COMMANDS.md, CreateRenderPipeline rule 6.
		if n := small(uint64(len(*vb))); cmp(n, slots.val) != 0 {
			return s.fail(codeInvalidArgument, "/vertex_buffers", "vertex_buffers has %s entries but vertex_buffer_slots is %s", n, slots.val)
		}
	}
	p.refs = append(append(p.refs, vs, fs), p.layouts...)
	o := s.add(id, kindRenderPipeline)
	o.pipe = p
	for _, r := range p.refs {
		r.liveRefs++
	}
	return nil
}

func (s *state) createComputePipeline() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	cs, f := s.module(s.w.ComputeShaderModuleID, "/compute_shader_module_id")
	if f != nil {
		return f
	}
	p := &pipelineInfo{}
	if f := s.layouts(p); f != nil {
		return f
	}
	if f := s.requireStage(cs, "COMPUTE", "/compute_shader_module_id"); f != nil {
		return f
	}
	p.refs = append(append(p.refs, cs), p.layouts...)
	o := s.add(id, kindComputePipeline)
	o.pipe = p
	for _, r := range p.refs {
		r.liveRefs++
	}
	return nil
}
