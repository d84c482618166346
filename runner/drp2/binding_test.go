package drp2

import "testing"

func TestBindGroups(t *testing.T) { run(t, bindGroupsCases()) }

func bindGroupsCases() []tc {
	ubo := buffer(5, 64, `["UNIFORM"]`)
	lay := layout(14, `[{"binding":0,"binding_type":"uniform_buffer"}]`)
	dynLay := layout(14, `[{"binding":0,"binding_type":"uniform_buffer","has_dynamic_offset":true},{"binding":1,"binding_type":"uniform_buffer","has_dynamic_offset":true}]`)
	texLay := layout(15, `[{"binding":0,"binding_type":"sampled_texture"},{"binding":1,"binding_type":"sampler"}]`)
	sampled := texture(1, "2d", 2, 2, 1, 1, "rgba8unorm", `["TEXTURE_BINDING"]`)
	texEntries := `[{"binding":0,"binding_type":"sampled_texture","resource_kind":"texture","resource_id":1},{"binding":1,"binding_type":"sampler","resource_kind":"sampler","resource_id":2}]`
	pipe := renderPipeline(10, 0, "[14]")
	pass := cat(target(30), encoder(31), renderPass(32, 31, 30))
	cases := []tc{
		ok("uniform group", lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")),
		ok("texture and sampler", sampled, cmd("CreateSampler", "id", 2), texLay, group(13, 15, texEntries)),
		bad("unknown layout", codeInvalidID, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")),
		bad("layout id names a buffer", codeWrongObjectType, ubo, group(13, 5, "["+uniformEntry(0, 5, 0, 16)+"]")),
		bad("duplicate layout binding", codeInvalidArgument, layout(14, `[{"binding":0,"binding_type":"uniform_buffer"},{"binding":0,"binding_type":"sampler"}]`)),
		bad("binding not in layout", codeInvalidArgument, lay, ubo, group(13, 14, "["+uniformEntry(1, 5, 0, 16)+"]")),
		bad("binding type differs from layout", codeInvalidArgument, lay, buffer(5, 64, `["STORAGE"]`),
			group(13, 14, `[{"binding":0,"binding_type":"storage_buffer","resource_kind":"buffer","resource_id":5}]`)),
		bad("binding missing", codeInvalidArgument, layout(14, `[{"binding":0,"binding_type":"uniform_buffer"},{"binding":1,"binding_type":"uniform_buffer"}]`),
			ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")),
		bad("binding given twice", codeInvalidArgument, lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+","+uniformEntry(0, 5, 16, 16)+"]")),
		bad("unknown resource", codeInvalidID, lay, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")),
		bad("unknown sampler", codeInvalidID, sampled, texLay, group(13, 15, texEntries)),
		bad("resource of the wrong kind", codeWrongObjectType, lay, target(5), group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")),
		bad("buffer without UNIFORM", codeUsage, lay, buffer(5, 64, `["STORAGE"]`), group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")),
		bad("texture without TEXTURE_BINDING", codeUsage, texture(1, "2d", 2, 2, 1, 1, "rgba8unorm", `["COPY_DST"]`), cmd("CreateSampler", "id", 2), texLay, group(13, 15, texEntries)),
		bad("view judged by its parent's usage", codeUsage, texture(1, "2d", 2, 2, 1, 1, "rgba8unorm", `["TEXTURE_BINDING"]`),
			cmd("CreateTextureView", "id", 3, "texture_id", 1, "format", q("rgba8unorm"), "dimension", q("2d"), "aspect", q("all")),
			layout(15, `[{"binding":0,"binding_type":"storage_texture"}]`),
			group(13, 15, `[{"binding":0,"binding_type":"storage_texture","resource_kind":"texture_view","resource_id":3}]`)),
		bad("entry range past the buffer", codeOutOfRange, lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 48, 32)+"]")),
		// COMMANDS.md, CreateBindGroup rule 7 judges a range only when both
		// offset and size are given.
		ok("lone offset past the buffer states no range", lay, ubo,
			group(13, 14, `[{"binding":0,"binding_type":"uniform_buffer","resource_kind":"buffer","resource_id":5,"offset":128}]`)),
		ok("lone size past the buffer states no range", lay, ubo,
			group(13, 14, `[{"binding":0,"binding_type":"uniform_buffer","resource_kind":"buffer","resource_id":5,"size":128}]`)),
		bad("dynamic binding without a range", codeInvalidArgument, dynLay, ubo,
			group(13, 14, `[{"binding":0,"binding_type":"uniform_buffer","resource_kind":"buffer","resource_id":5},`+uniformEntry(1, 5, 0, 16)+`]`)),
		ok("dynamic offsets in layout order", cat(dynLay, ubo, buffer(6, 256, `["UNIFORM"]`),
			group(13, 14, "["+uniformEntry(1, 6, 0, 16)+","+uniformEntry(0, 5, 0, 16)+"]"), pipe, pass, setPipeline(32, 10),
			setGroup(32, 0, 13, "[48,200]"))...),
		bad("dynamic offsets swapped", codeOutOfRange, cat(dynLay, ubo, buffer(6, 256, `["UNIFORM"]`),
			group(13, 14, "["+uniformEntry(1, 6, 0, 16)+","+uniformEntry(0, 5, 0, 16)+"]"), pipe, pass, setPipeline(32, 10),
			setGroup(32, 0, 13, "[200,48]"))...),
		bad("dynamic offsets missing", codeInvalidState, cat(dynLay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+","+uniformEntry(1, 5, 0, 16)+"]"),
			pipe, pass, setPipeline(32, 10), setGroup(32, 0, 13, ""))...),
		bad("dynamic offsets short", codeInvalidState, cat(dynLay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+","+uniformEntry(1, 5, 0, 16)+"]"),
			pipe, pass, setPipeline(32, 10), setGroup(32, 0, 13, "[0]"))...),
		bad("dynamic offsets for a static layout", codeInvalidState, cat(lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"),
			pipe, pass, setPipeline(32, 10), setGroup(32, 0, 13, "[0]"))...),
		ok("empty dynamic offsets for a static layout", cat(lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"),
			pipe, pass, setPipeline(32, 10), setGroup(32, 0, 13, "[]"))...),
		bad("set bind group before a pipeline", codeInvalidState, cat(lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"),
			pass, setGroup(32, 0, 13, ""))...),
		bad("bind group from another layout", codeInvalidState, cat(lay, layout(15, `[{"binding":0,"binding_type":"uniform_buffer"}]`), ubo,
			group(13, 15, "["+uniformEntry(0, 5, 0, 16)+"]"), pipe, pass, setPipeline(32, 10), setGroup(32, 0, 13, ""))...),
		bad("slot beyond the pipeline's layouts", codeInvalidState, cat(lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"),
			pipe, pass, setPipeline(32, 10), setGroup(32, 1, 13, ""))...),
		bad("pipeline without declared layouts has no slot", codeInvalidState, cat(lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"),
			renderPipeline(10, 0, ""), pass, setPipeline(32, 10), setGroup(32, 0, 13, ""))...).at("COMMANDS.md SetBindGroup rule 3"),
		bad("rebind validates against the new pipeline", codeInvalidState, cat(lay, layout(15, `[{"binding":0,"binding_type":"uniform_buffer"}]`), ubo,
			group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"), pipe, renderPipeline(20, 0, "[15]"), pass, setPipeline(32, 10),
			setGroup(32, 0, 13, ""), setPipeline(32, 20), setGroup(32, 0, 13, ""))...),
		bad("bind group whose buffer was destroyed", codeDestroyedObject, cat(lay, ubo, group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]"),
			cmd("DestroyBuffer", "buffer_id", 5), pipe, pass, setPipeline(32, 10), setGroup(32, 0, 13, ""))...),
		bad("bind group in a compute pass checks the compute pipeline", codeInvalidState, cat(lay, layout(15, `[{"binding":0,"binding_type":"uniform_buffer"}]`), ubo,
			group(13, 15, "["+uniformEntry(0, 5, 0, 16)+"]"), computePipeline(10, "[14]"), encoder(31), computePass(32, 31), setPipeline(32, 10), setGroup(32, 0, 13, ""))...),
	}
	return cases
}

func TestPipelines(t *testing.T) { run(t, pipelinesCases()) }

func pipelinesCases() []tc {
	cases := []tc{
		ok("render pipeline", renderPipeline(10, 2, "")...),
		bad("vertex slot takes a compute module", codeInvalidArgument, shader(11, "COMPUTE"), shader(12, "FRAGMENT"),
			cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 12, "vertex_buffer_slots", 0)),
		bad("fragment slot takes a vertex module", codeInvalidArgument, shader(11, "VERTEX"),
			cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 11, "vertex_buffer_slots", 0)),
		bad("compute slot takes a fragment module", codeInvalidArgument, shader(11, "FRAGMENT"),
			cmd("CreateComputePipeline", "id", 10, "compute_shader_module_id", 11)),
		bad("unknown shader module", codeInvalidID, cmd("CreateComputePipeline", "id", 10, "compute_shader_module_id", 11)),
		bad("destroyed shader module", codeDestroyedObject, shader(11, "COMPUTE"), cmd("DestroyShaderModule", "shader_module_id", 11),
			cmd("CreateComputePipeline", "id", 10, "compute_shader_module_id", 11)),
		bad("shader module id names a buffer", codeWrongObjectType, buffer(11, 4, `["COPY_DST"]`), cmd("CreateComputePipeline", "id", 10, "compute_shader_module_id", 11)),
		bad("unknown bind-group layout", codeInvalidID, computePipeline(10, "[99]")...),
		bad("vertex_buffers shorter than the slots", codeInvalidArgument, shader(11, "VERTEX"), shader(12, "FRAGMENT"),
			cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 12, "vertex_buffer_slots", 2,
				"vertex_buffers", `[{"array_stride":12,"attributes":[{"format":"float32x3","offset":0,"shader_location":0}]}]`)),
		ok("vertex_buffers matching the slots", shader(11, "VERTEX"), shader(12, "FRAGMENT"),
			cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 12, "vertex_buffer_slots", 0, "vertex_buffers", `[]`)),
		bad("duplicate pipeline id", codeDuplicateID, cat(renderPipeline(10, 0, ""), shader(30, "COMPUTE"), cmd("CreateComputePipeline", "id", 10, "compute_shader_module_id", 30))...),
		bad("the pipeline id is checked after the stage", codeInvalidArgument, cat(renderPipeline(10, 0, ""), cmd("CreateComputePipeline", "id", 10, "compute_shader_module_id", 11))...),
	}
	return cases
}
