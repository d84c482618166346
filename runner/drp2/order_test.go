package drp2

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestErrorSelection pins the codes of issue 9: the identity codes of
// encoders and passes, ended passes, ids reserved last, the order of checks
// inside one command where the prose leaves it open (the upstream runner's
// order), and the prose rules kept or dropped against the upstream runner.
func TestErrorSelection(t *testing.T) { run(t, errorSelectionCases()) }

func errorSelectionCases() []tc {
	const (
		unknownID  = "ERRORS.md Identity And Type rule 1"
		endedPass  = "LIFETIMES.md Pass State Machine rule 5"
		drawScope  = "LIFETIMES.md Command Validity By Scope additional rule 1"
		stateScope = "ERRORS.md State Versus Usage rule 1"
		passScope  = "COMMANDS.md Common Field Semantics rule 4"
	)
	viewport := func(pass int) string {
		return cmd("SetViewport", "pass_id", pass, "x", 0, "y", 0, "width", 1, "height", 1, "min_depth", 0, "max_depth", 1)
	}
	scissor := func(pass int) string {
		return cmd("SetScissor", "pass_id", pass, "x", 0, "y", 0, "width", 1, "height", 1)
	}
	blend := func(pass int) string {
		return cmd("SetBlendConstant", "pass_id", pass, "color", `{"r":0,"g":0,"b":0,"a":0}`)
	}
	stencil := func(pass int) string { return cmd("SetStencilReference", "pass_id", pass, "reference", 1) }
	index := func(pass, buf int) string {
		return cmd("SetIndexBuffer", "pass_id", pass, "buffer_id", buf, "index_format", q("uint16"), "offset", 0)
	}
	barrier := func(enc, buf int, dst, access string) string {
		return cmd("ResourceBarrier", "encoder_id", enc, "buffer_id", buf, "src_stage", q("COMPUTE"), "src_access", q("STORAGE_WRITE"),
			"dst_stage", q(dst), "dst_access", q(access))
	}
	b2t := func(enc, buf, tex, mip int, origin, size string, bpr, rpi int) string {
		return cmd("CopyBufferToTexture", "encoder_id", enc, "src_buffer_id", buf, "src_offset", 0, "bytes_per_row", bpr, "rows_per_image", rpi,
			"dst_texture_id", tex, "dst_mip_level", mip, "dst_origin", origin, "size", size)
	}
	t2b := func(enc, tex, buf, mip int, origin, size string, bpr, rpi int) string {
		return cmd("CopyTextureToBuffer", "encoder_id", enc, "src_texture_id", tex, "src_mip_level", mip, "src_origin", origin,
			"size", size, "dst_buffer_id", buf, "dst_offset", 0, "bytes_per_row", bpr, "rows_per_image", rpi)
	}
	t2t := func(enc, src, srcMip, dst int, srcOrigin, size string) string {
		return cmd("CopyTextureToTexture", "encoder_id", enc, "src_texture_id", src, "src_mip_level", srcMip, "src_origin", srcOrigin,
			"dst_texture_id", dst, "dst_mip_level", 0, "dst_origin", org(0, 0, 0), "size", size)
	}
	tex := texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST","COPY_SRC","TEXTURE_BINDING"]`)
	rp := renderPipeline(10, 0, "")
	cp := computePipeline(20, "")
	lay := layout(14, `[{"binding":0,"binding_type":"uniform_buffer"},{"binding":1,"binding_type":"uniform_buffer"}]`)
	ubo := buffer(5, 64, `["UNIFORM"]`)
	vtx := buffer(6, 64, `["VERTEX","INDEX"]`)
	endedRender := cat(target(1), encoder(3), renderPass(4, 3, 1), endRender(4))
	endedCompute := cat(encoder(3), computePass(4, 3), endCompute(4))
	openRender := cat(target(1), encoder(3), renderPass(4, 3, 1))

	cases := []tc{
		// Item 1: unknown encoder and pass ids.
		bad("begin render pass in an unknown encoder", codeInvalidID, target(1), renderPass(4, 3, 1)).at(unknownID),
		bad("begin compute pass in an unknown encoder", codeInvalidID, computePass(4, 3)).at(unknownID),
		bad("barrier in an unknown encoder", codeInvalidID, buffer(1, 16, `["STORAGE","COPY_SRC"]`), barrier(3, 1, "COPY", "COPY_READ")).at(unknownID),
		bad("buffer copy in an unknown encoder", codeInvalidID, buffer(1, 16, `["COPY_SRC"]`), buffer(2, 16, `["COPY_DST"]`), copyB2B(3, 1, 2, 4)).at(unknownID),
		bad("buffer to texture copy in an unknown encoder", codeInvalidID, tex, buffer(2, 64, `["COPY_SRC"]`), b2t(3, 2, 1, 0, org(0, 0, 0), ext(1, 1, 1), 4, 1)).at(unknownID),
		bad("texture to buffer copy in an unknown encoder", codeInvalidID, tex, buffer(2, 64, `["COPY_DST"]`), t2b(3, 1, 2, 0, org(0, 0, 0), ext(1, 1, 1), 4, 1)).at(unknownID),
		bad("texture copy in an unknown encoder", codeInvalidID, tex, t2t(3, 1, 0, 1, org(0, 0, 0), ext(1, 1, 1))).at(unknownID),
		bad("set pipeline on an unknown pass", codeInvalidID, cat(rp, setPipeline(4, 10))...).at(unknownID),
		bad("set bind group on an unknown pass", codeInvalidID, setGroup(4, 0, 13, "")).at(unknownID),
		bad("end an unknown render pass", codeInvalidID, endRender(4)).at(unknownID),
		bad("end an unknown compute pass", codeInvalidID, endCompute(4)).at(unknownID),
		bad("vertex buffer outside any pass", codeInvalidState, vtx, setVertex(4, 0, 6)).at("COMMANDS.md SetVertexBuffer rule 1"),
		bad("index buffer outside any pass", codeInvalidState, vtx, index(4, 6)).at("COMMANDS.md SetIndexBuffer rule 1"),
		bad("viewport outside any pass", codeInvalidState, viewport(4)).at(stateScope),
		bad("scissor outside any pass", codeInvalidState, scissor(4)).at(stateScope),
		bad("blend constant outside any pass", codeInvalidState, blend(4)).at(stateScope),
		bad("stencil reference outside any pass", codeInvalidState, stencil(4)).at(stateScope),
		bad("draw outside any pass", codeInvalidState, draw(4)).at(drawScope),
		bad("indexed draw outside any pass", codeInvalidState, drawIndexed(4)).at(drawScope),
		bad("dispatch outside any pass", codeInvalidState, dispatch(4)).at("LIFETIMES.md Command Validity By Scope additional rule 2"),

		// Item 2: a pass that ended.
		bad("set pipeline on an ended pass", codeDestroyedObject, cat(rp, endedRender, setPipeline(4, 10))...).at(endedPass),
		bad("set bind group on an ended pass", codeDestroyedObject, cat(endedCompute, setGroup(4, 0, 13, ""))...).at(endedPass),
		bad("end an ended render pass", codeDestroyedObject, cat(endedRender, endRender(4))...).at(endedPass),
		bad("end an ended compute pass", codeDestroyedObject, cat(endedCompute, endCompute(4))...).at(endedPass),
		bad("vertex buffer on an ended pass", codeInvalidState, cat(vtx, endedRender, setVertex(4, 0, 6))...).at("COMMANDS.md SetVertexBuffer rule 1"),
		bad("index buffer on an ended pass", codeInvalidState, cat(vtx, endedRender, index(4, 6))...).at("COMMANDS.md SetIndexBuffer rule 1"),
		bad("viewport on an ended pass", codeInvalidState, cat(endedRender, viewport(4))...).at(stateScope),
		bad("draw on an ended pass", codeInvalidState, cat(endedRender, draw(4))...).at(drawScope),
		bad("indexed draw on an ended pass", codeInvalidState, cat(endedRender, drawIndexed(4))...).at(drawScope),
		bad("pass kind is checked before ended", codePassMismatch, cat(endedCompute, draw(4))...),

		// Item 3: a create command reserves its id after every other check.
		bad("reused bind group id with a usage failure", codeUsage, cat(lay, buffer(7, 64, `["STORAGE"]`),
			group(7, 14, "["+uniformEntry(0, 7, 0, 16)+","+uniformEntry(1, 7, 0, 16)+"]"))...),
		bad("reused view id with a mip range failure", codeOutOfRange, tex,
			cmd("CreateTextureView", "id", 1, "texture_id", 1, "format", q("rgba8unorm"), "dimension", q("2d"), "aspect", q("all"), "mip_range", `{"base":1,"count":1}`)),
		bad("reused pass id with an attachment failure", codeUsage, texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`), encoder(3), renderPass(1, 3, 1)),
		bad("reused command buffer id with an open pass", codeInvalidState, encoder(3), computePass(4, 3), finish(3, 4)),
		bad("reused pipeline id with a stage failure", codeInvalidArgument, cat(shader(11, "FRAGMENT"), shader(12, "FRAGMENT"),
			cmd("CreateRenderPipeline", "id", 11, "vertex_shader_module_id", 11, "fragment_shader_module_id", 12, "vertex_buffer_slots", 0))...),
		bad("reused layout id with a repeated binding", codeInvalidArgument, buffer(14, 16, `["UNIFORM"]`),
			layout(14, `[{"binding":0,"binding_type":"uniform_buffer"},{"binding":0,"binding_type":"uniform_buffer"}]`)),

		// Item 4: the order inside one command.
		bad("bind group: layout before entries", codeInvalidID, group(13, 99, "["+uniformEntry(5, 98, 0, 16)+"]")),
		bad("bind group: entries against the layout before resources", codeInvalidArgument, cat(lay, group(13, 14, "["+uniformEntry(0, 98, 0, 16)+"]"))...).
			at("LIFETIMES.md Bind-Group Lifetime consequence 3"),
		bad("bind group: dynamic range before the resource", codeInvalidArgument,
			layout(14, `[{"binding":0,"binding_type":"uniform_buffer","has_dynamic_offset":true}]`),
			group(13, 14, `[{"binding":0,"binding_type":"uniform_buffer","resource_kind":"buffer","resource_id":98}]`)).
			at("LIFETIMES.md Bind-Group Lifetime consequence 4"),
		bad("bind group: resource kind before the resource", codeWrongObjectType, layout(14, `[{"binding":0,"binding_type":"uniform_buffer"}]`),
			group(13, 14, `[{"binding":0,"binding_type":"uniform_buffer","resource_kind":"sampler","resource_id":98}]`)).
			at("ERRORS.md Identity And Type rule 5"),
		bad("bind group: entry by entry, usage of the first", codeUsage, cat(lay, buffer(7, 64, `["STORAGE"]`),
			group(13, 14, "["+uniformEntry(0, 7, 0, 16)+","+uniformEntry(1, 98, 0, 16)+"]"))...),
		bad("bind group: entry by entry, resource of the first", codeInvalidID, cat(lay, buffer(7, 64, `["STORAGE"]`),
			group(13, 14, "["+uniformEntry(0, 98, 0, 16)+","+uniformEntry(1, 7, 0, 16)+"]"))...),
		bad("bind group: usage before range", codeUsage, cat(layout(14, `[{"binding":0,"binding_type":"uniform_buffer"}]`), buffer(7, 8, `["STORAGE"]`),
			group(13, 14, "["+uniformEntry(0, 7, 0, 16)+"]"))...),
		bad("bind group: repeated binding after the entries", codeInvalidArgument, cat(layout(14, `[{"binding":0,"binding_type":"uniform_buffer"}]`), ubo,
			group(13, 14, "["+uniformEntry(0, 5, 0, 16)+","+uniformEntry(0, 5, 0, 16)+"]"))...).at("COMMANDS.md CreateBindGroupLayout rule 6"),
		bad("render pipeline: vertex stage before the fragment module", codeInvalidArgument, cat(shader(11, "FRAGMENT"),
			cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 98, "vertex_buffer_slots", 0))...).
			at("COMMANDS.md CreateRenderPipeline rule 2"),
		bad("set bind group: pipeline before the bind group", codeInvalidState, cat(encoder(3), computePass(4, 3), setGroup(4, 0, 98, ""))...).
			at("COMMANDS.md SetBindGroup rule 2"),
		bad("texture copy: source usage before the destination", codeUsage, texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`), encoder(3),
			t2t(3, 1, 0, 98, org(0, 0, 0), ext(1, 1, 1))).at("COMMANDS.md CopyTextureToTexture rule 4"),
		bad("texture copy: source mip", codeOutOfRange, tex, encoder(3), t2t(3, 1, 3, 98, org(0, 0, 0), ext(1, 1, 1))).
			at("COMMANDS.md CopyTextureToTexture rule 1"),
		bad("texture copy: source box before the destination", codeOutOfRange, tex, encoder(3), t2t(3, 1, 0, 98, org(3, 0, 0), ext(2, 1, 1))).
			at("COMMANDS.md CopyTextureToTexture rule 2"),
		bad("write texture: mip before layout", codeOutOfRange, tex, writeTex(1, 2, org(0, 0, 0), ext(1, 1, 1), 1, 0, b64(4))).
			at("LIFETIMES.md Range And Layout Invariants rule 7"),
		bad("write texture: box before layout", codeOutOfRange, tex, writeTex(1, 0, org(3, 0, 0), ext(2, 1, 1), 1, 0, b64(4))).
			at("LIFETIMES.md Range And Layout Invariants rule 5"),
		bad("write texture: layout before payload", codeLayout, tex, writeTex(1, 0, org(0, 0, 0), ext(2, 1, 1), 4, 1, b64(1))).
			at("LIFETIMES.md Range And Layout Invariants rule 8"),
		bad("buffer to texture: box before layout", codeOutOfRange, tex, buffer(2, 64, `["COPY_SRC"]`), encoder(3),
			b2t(3, 2, 1, 0, org(3, 0, 0), ext(2, 1, 1), 1, 0)).at("LIFETIMES.md Range And Layout Invariants rule 3"),
		bad("texture to buffer: box before the destination buffer", codeOutOfRange, tex, encoder(3),
			t2b(3, 1, 98, 0, org(0, 3, 0), ext(1, 2, 1), 4, 1)).at("LIFETIMES.md Range And Layout Invariants rule 4"),
		bad("texture to buffer: mip", codeOutOfRange, tex, buffer(2, 64, `["COPY_DST"]`), encoder(3),
			t2b(3, 1, 2, 1, org(0, 0, 0), ext(1, 1, 1), 4, 1)).at("LIFETIMES.md Range And Layout Invariants rule 7"),
		bad("write buffer: range before payload", codeOutOfRange, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 12, 8, "AAAA")).
			at("COMMANDS.md WriteBuffer rule 1"),

		// Item 5: prose the upstream runner does not check.
		bad("write buffer: size is the payload length", codeInvalidArgument, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 0, 4, "AAAA")).
			at("COMMANDS.md WriteBuffer rule 2"),
		bad("write buffer: unpadded base64", codeInvalidArgument, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 0, 1, "AA")).
			at("COMMANDS.md WriteBuffer field data"),
		bad("write buffer: base64 with a line break", codeInvalidArgument, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 0, 3, `AA\nAA`)).
			at("COMMANDS.md WriteBuffer field data"),
		bad("write texture: unpadded base64", codeInvalidArgument, tex, writeTex(1, 0, org(0, 0, 0), ext(1, 1, 1), 4, 1, "AAAAAA")).
			at("COMMANDS.md WriteTexture field data"),
		bad("destroy inside a pass", codeInvalidState, buffer(1, 16, `["COPY_DST"]`), encoder(3), computePass(4, 3), cmd("DestroyBuffer", "buffer_id", 1)).
			at(passScope),
		bad("vertex buffer offset past the end without a size", codeOutOfRange, cat(vtx, openRender,
			cmd("SetVertexBuffer", "pass_id", 4, "slot", 0, "buffer_id", 6, "offset", 65))...).at("ERRORS.md Range, Layout, And Alignment rule 4"),
		ok("vertex buffer offset at the end", cat(vtx, openRender, cmd("SetVertexBuffer", "pass_id", 4, "slot", 0, "buffer_id", 6, "offset", 64))...),
		bad("an object named 0 is an attachment like any other", codeUsage, texture(0, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`), encoder(3), renderPass(4, 3, 0)),
		bad("resolve target must be a live texture", codeInvalidID, cat(target(1), encoder(3),
			cmd("BeginRenderPass", "id", 4, "encoder_id", 3, "color_attachments", `[{"texture_id":1,"resolve_target_texture_id":77,"load_op":"clear","store_op":"store"}]`))...),

		// Item 6: checks the prose does not ask for.
		ok("layer range of a 2d view is not bounded", tex,
			cmd("CreateTextureView", "id", 2, "texture_id", 1, "format", q("rgba8unorm"), "dimension", q("2d"), "aspect", q("all"), "layer_range", `{"base":4,"count":4}`)),
		bad("layer range of an array view is bounded", codeOutOfRange, tex,
			cmd("CreateTextureView", "id", 2, "texture_id", 1, "format", q("rgba8unorm"), "dimension", q("2d-array"), "aspect", q("all"), "layer_range", `{"base":0,"count":2}`)).
			at("COMMANDS.md CreateTextureView rule 3"),

		// Where the prose is silent: the upstream runner's choices.
		bad("a 1d texture's height halves per mip level", codeOutOfRange, texture(1, "1d", 4, 2, 1, 2, "rgba8unorm", `["COPY_DST"]`),
			writeTex(1, 1, org(0, 0, 0), ext(1, 2, 1), 4, 2, b64(8))).at("LIFETIMES.md Range And Layout Invariants rule 5"),
		ok("a submission id reused while pending replaces the request", buffer(1, 16, `["MAP_READ"]`), encoder(2), finish(2, 3), encoder(4), finish(4, 5),
			submitReadback(3, 9, `[{"buffer_id":1,"offset":0,"size":16}]`), submitReadback(5, 9, `[{"buffer_id":1,"offset":0,"size":8}]`),
			replyTo(9, `[{"buffer_id":1,"offset":0,"size":8,"data":"AAAAAAAAAAA="}]`)),
		bad("a replaced request has no reply of its own", codeInvalidState, buffer(1, 16, `["MAP_READ"]`), encoder(2), finish(2, 3), encoder(4), finish(4, 5),
			submitReadback(3, 9, `[{"buffer_id":1,"offset":0,"size":16}]`), submitReadback(5, 9, `[{"buffer_id":1,"offset":0,"size":8}]`),
			replyTo(9, `[{"buffer_id":1,"offset":0,"size":8,"data":"AAAAAAAAAAA="}]`),
			replyTo(9, `[{"buffer_id":1,"offset":0,"size":16,"data":"AAAAAAAAAAAAAAAAAAAAAA=="}]`)).at("LIFETIMES.md Readback Lifetime consequence 3"),

		// Rules whose failures the other tables do not reach.
		bad("dynamic offset on a texture binding", codeInvalidArgument, layout(14, `[{"binding":0,"binding_type":"sampled_texture","has_dynamic_offset":true}]`)).
			at("COMMANDS.md CreateBindGroupLayout rule 3"),
		bad("indexed draw without pipeline", codeInvalidState, cat(openRender, drawIndexed(4))...).at("COMMANDS.md DrawIndexed rule 1"),
		bad("indexed draw missing a vertex slot", codeInvalidState, cat(renderPipeline(10, 1, ""), openRender, setPipeline(4, 10), drawIndexed(4))...).
			at("COMMANDS.md DrawIndexed rule 2"),
		bad("barrier without STORAGE", codeUsage, buffer(1, 16, `["COPY_SRC"]`), encoder(3), barrier(3, 1, "COPY", "COPY_READ")).
			at("COMMANDS.md ResourceBarrier rule 2"),
		bad("barrier to COPY without COPY_SRC", codeUsage, buffer(1, 16, `["STORAGE"]`), encoder(3), barrier(3, 1, "COPY", "COPY_READ")).
			at("COMMANDS.md ResourceBarrier rule 4"),
		bad("readbacks without submission_id", codeInvalidArgument, buffer(1, 16, `["MAP_READ"]`), encoder(2), finish(2, 3),
			cmd("QueueSubmit", "command_buffer_ids", "[3]", "readbacks", `[{"buffer_id":98,"offset":0,"size":4}]`)).at("LIFETIMES.md Readback Lifetime rule 4"),
		bad("submit lists a buffer twice", codeInvalidArgument, encoder(2), finish(2, 3), submit("[3,3]")).at("LIFETIMES.md Command Buffer Lifetime rule 6"),
		bad("a field the validator cannot read", codeInvalidArgument, `{"cmd":"CreateBuffer","id":1,"size":"big","usage":["COPY_DST"]}`).
			at("ERRORS.md Validation Phases rule 1"),
		bad("a negative id", codeInvalidArgument, writeBuf(-1, 0, 4, "AAAAAA==")).at("ERRORS.md Validation Phases rule 1"),
		bad("a pipeline of the wrong kind is a pass mismatch", codePassMismatch, cat(cp, openRender, setPipeline(4, 20))...).
			at("LIFETIMES.md Pipeline And Pass Compatibility rule 2"),
	}

	// Capability gates (item 7) and the upstream runner's pipeline gate.
	capability := func(c tc, caps string) tc {
		c.caps, c.phase = caps, model.PhaseCapability
		return c
	}
	fp64 := cmd("CreateShaderModule", "id", 1, "stage", q("COMPUTE"), "format", q("wgsl"), "entry_point", q("main"), "code", q("x"), "required_features", `["fp64"]`)
	msaa := cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 12, "vertex_buffer_slots", 0, "sample_count", 4)
	multisample := cmd("CreateRenderPipeline", "id", 10, "vertex_shader_module_id", 11, "fragment_shader_module_id", 12, "vertex_buffer_slots", 0,
		"multisample", `{"sample_count":4,"alpha_to_coverage_enabled":false}`)
	cases = append(cases,
		capability(bad("fp64 needs supports_fp64 set", codeFeatureRequired, fp64), `{"supported_shader_formats":["wgsl"]}`).
			at("CAPABILITIES.md Active 2.0 Command Gates rule 6"),
		capability(bad("pipeline sample count", codeUnsupportedCapability, shader(11, "VERTEX"), shader(12, "FRAGMENT"), msaa), `{"supported_sample_counts":[1]}`).
			at("CAPABILITIES.md Capability Categories rule 4"),
		capability(bad("pipeline multisample count", codeUnsupportedCapability, shader(11, "VERTEX"), shader(12, "FRAGMENT"), multisample), `{"supported_sample_counts":[1]}`),
		capability(bad("pipeline default sample count is 1", codeUnsupportedCapability, cat(rp)...), `{"supported_sample_counts":[4]}`),
		capability(ok("pipeline sample count supported", shader(11, "VERTEX"), shader(12, "FRAGMENT"), msaa), `{"supported_sample_counts":[1,4]}`),
		capability(rawCase("capabilities of the wrong shape", codeInvalidArgument, -1, hello, reply), `{"max_buffer_size":"big"}`).
			at("CAPABILITIES.md Fixture Capability Shape"),
	)
	return cases
}
