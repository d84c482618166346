package drp2

import (
	"encoding/json"

	"github.com/drp2/drp2-fixtures/model"
)

func (s *state) createShaderModule() *model.Failure {
	o, f := s.create(kindShaderModule)
	if f != nil {
		return f
	}
	o.info = &shaderInfo{stage: s.w.Stage}
	s.addGate(gate{index: s.idx, kind: gateShader, shaderFormat: s.w.Format, features: s.w.RequiredFeatures})
	return nil
}

// stageModule resolves the shader module of a pipeline slot and checks its
// declared stage under rule r: a create-time shape incompatible with a
// resolved object (LIFETIMES.md, Pipeline Lifetime rule 8; ERRORS.md, State
// Versus Usage rule 3).
func (s *state) stageModule(r *rule, v json.Number, pointer, want string) (*object, *model.Failure) {
	m, f := s.resolve(v, pointer, kindShaderModule)
	if f != nil {
		return nil, f
	}
	if s.broken(r, m.shad().stage != want) {
		return nil, s.fail(r, pointer, "%s has stage %q but %s needs a %s module", m, m.shad().stage, field(pointer), want)
	}
	return m, nil
}

// layouts resolves bind_group_layout_ids.
func (s *state) layouts(p *pipelineInfo) *model.Failure {
	if s.w.BindGroupLayoutIDs == nil {
		return nil
	}
	for i, v := range *s.w.BindGroupLayoutIDs {
		l, f := s.resolve(v, layoutIDPointers.at(i, ""), kindBindGroupLayout)
		if f != nil {
			return f
		}
		p.layouts = append(p.layouts, l)
	}
	return nil
}

// createRenderPipeline checks each module right after resolving it (the
// vertex module and its stage before the fragment module), then the layouts,
// the vertex buffers, the pass scope and the id.
func (s *state) createRenderPipeline() *model.Failure {
	vs, f := s.stageModule(ruleVertexStage, s.w.VertexShaderModuleID, "/vertex_shader_module_id", "VERTEX")
	if f != nil {
		return f
	}
	fs, f := s.stageModule(ruleFragmentStage, s.w.FragmentShaderModuleID, "/fragment_shader_module_id", "FRAGMENT")
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
	if vb := s.w.VertexBuffers; vb != nil {
		n := small(uint64(len(*vb)))
		if s.broken(ruleVertexBuffers, cmp(n, slots.val) != 0) {
			return s.fail(ruleVertexBuffers, "/vertex_buffers", "vertex_buffers has %s entries but vertex_buffer_slots is %s", n, slots.val)
		}
	}
	samples, f := s.pipelineSamples()
	if f != nil {
		return f
	}
	if f := s.addPipeline(kindRenderPipeline, p, vs, fs); f != nil {
		return f
	}
	s.addGate(gate{index: s.idx, kind: gatePipeline, samples: samples})
	return nil
}

// pipelineSamples reads a render pipeline's sample count: sample_count,
// else multisample.sample_count, else 1.
func (s *state) pipelineSamples() (Num, *model.Failure) {
	if s.w.SampleCount != "" {
		n, f := s.num(s.w.SampleCount, "/sample_count")
		return n.val, f
	}
	if m := s.w.Multisample; m != nil && m.SampleCount != "" {
		n, f := s.num(m.SampleCount, "/multisample/sample_count")
		return n.val, f
	}
	return small(1), nil
}

func (s *state) createComputePipeline() *model.Failure {
	cs, f := s.stageModule(ruleComputeStage, s.w.ComputeShaderModuleID, "/compute_shader_module_id", "COMPUTE")
	if f != nil {
		return f
	}
	p := &pipelineInfo{}
	if f := s.layouts(p); f != nil {
		return f
	}
	return s.addPipeline(kindComputePipeline, p, cs)
}

// addPipeline creates a pipeline whose own checks passed (see create). The
// pipeline keeps its shader modules and layouts alive while it lives
// (COMMANDS.md, DestroyShaderModule rule 2 and DestroyBindGroupLayout rule
// 2).
func (s *state) addPipeline(k kind, p *pipelineInfo, modules ...*object) *model.Failure {
	o, f := s.create(k)
	if f != nil {
		return f
	}
	p.refs = append(modules, p.layouts...)
	o.info = p
	for _, r := range p.refs {
		r.liveRefs++
	}
	return nil
}
