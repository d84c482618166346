package drp2

import (
	"fmt"
	"testing"
)

// TestCheckPrecedence pins the one ordering rule of docs/conformance.md
// ("How a verdict is chosen"): inside one command, the checks the upstream
// runner makes come first, in its order, the reservation of a new id
// included; the checks only the prose asks for come after all of them. Each
// case breaks one check of each kind at the same command, so the upstream
// runner's failure must be the one reported.
func TestCheckPrecedence(t *testing.T) { run(t, precedenceCases()) }

func precedenceCases() []tc {
	const (
		dynamicRange = "LIFETIMES.md Pipeline And Pass Compatibility rule 15"
		bindDead     = "COMMANDS.md CreateBindGroup rule 5"
		duplicateID  = "ERRORS.md Identity And Type rule 3"
		replyMirror  = "LIFETIMES.md Readback Lifetime consequence 4"
		replyOrder   = "LIFETIMES.md Readback Lifetime rule 6"
		viewFormat   = "COMMANDS.md CreateTextureView field format"
		passScope    = "COMMANDS.md Common Field Semantics rule 4"
	)
	// A compute pipeline 20 with layout 14: binding 0 a dynamic uniform
	// buffer, binding 1 a sampled texture. Bind group 30 uses buffer 5 and
	// texture 6; offset 64 moves the 16-byte range past buffer 5's 64 bytes.
	dyn := cat(
		layout(14, `[{"binding":0,"binding_type":"uniform_buffer","has_dynamic_offset":true},{"binding":1,"binding_type":"sampled_texture"}]`),
		computePipeline(20, "[14]"),
		buffer(5, 64, `["UNIFORM"]`),
		texture(6, "2d", 4, 4, 1, 1, "rgba8unorm", `["TEXTURE_BINDING"]`),
		group(30, 14, `[`+uniformEntry(0, 5, 0, 16)+`,{"binding":1,"binding_type":"sampled_texture","resource_kind":"texture","resource_id":6}]`),
		encoder(40), computePass(41, 40), setPipeline(41, 20),
	)
	// A compute pipeline 21 with layout 15: bindings 0 and 1 dynamic
	// uniform buffers, binding 2 a plain one. Bind group 31 gives them
	// buffers 7, 8 and 9 of 64 bytes, 16 bytes each from offset 0.
	dyn2 := cat(
		layout(15, `[{"binding":0,"binding_type":"uniform_buffer","has_dynamic_offset":true},{"binding":1,"binding_type":"uniform_buffer","has_dynamic_offset":true},{"binding":2,"binding_type":"uniform_buffer"}]`),
		computePipeline(21, "[15]"),
		buffer(7, 64, `["UNIFORM"]`), buffer(8, 64, `["UNIFORM"]`), buffer(9, 64, `["UNIFORM"]`),
		group(31, 15, `[`+uniformEntry(0, 7, 0, 16)+`,`+uniformEntry(1, 8, 0, 16)+`,`+uniformEntry(2, 9, 0, 16)+`]`),
		encoder(42), computePass(43, 42), setPipeline(43, 21),
	)
	view := func(id, tex int, format, aspect string, extra ...any) string {
		kv := append([]any{"id", id, "texture_id", tex, "format", q(format), "dimension", q("2d"), "aspect", q(aspect)}, extra...)
		return cmd("CreateTextureView", kv...)
	}
	tex := texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["TEXTURE_BINDING","RENDER_ATTACHMENT"]`)
	rb := buffer(1, 16, `["COPY_DST","MAP_READ"]`)
	one := `[{"buffer_id":1,"offset":0,"size":8}]`
	two := `[{"buffer_id":1,"offset":0,"size":8},{"buffer_id":1,"offset":8,"size":8}]`
	data8 := `{"buffer_id":1,"offset":0,"size":8,"data":"AAAAAAAAAAA="}`
	return []tc{
		// SetBindGroup: a destroyed texture (not checked upstream) and a
		// dynamic range past the buffer (checked upstream).
		bad("set bind group: dynamic range before a destroyed texture", codeOutOfRange,
			cat(dyn[:len(dyn)-3], cmd("DestroyTexture", "texture_id", 6), dyn[len(dyn)-3:], setGroup(41, 0, 30, "[64]"))...).at(dynamicRange),
		bad("set bind group: a destroyed texture alone", codeDestroyedObject,
			cat(dyn[:len(dyn)-3], cmd("DestroyTexture", "texture_id", 6), dyn[len(dyn)-3:], setGroup(41, 0, 30, "[0]"))...).at(bindDead),
		// A dynamic entry's buffer is checked upstream before its range.
		bad("set bind group: a destroyed buffer before the dynamic range", codeDestroyedObject,
			cat(dyn[:len(dyn)-3], cmd("DestroyBuffer", "buffer_id", 5), dyn[len(dyn)-3:], setGroup(41, 0, 30, "[64]"))...).at(bindDead),
		// Upstream checks the dynamic entries one by one, buffer then
		// range, and no other entry's buffer: a later dynamic entry's
		// destroyed buffer and a non-dynamic entry's come after an earlier
		// entry's range.
		bad("set bind group: an earlier dynamic range before a later destroyed buffer", codeOutOfRange,
			cat(dyn2[:len(dyn2)-3], cmd("DestroyBuffer", "buffer_id", 8), dyn2[len(dyn2)-3:], setGroup(43, 0, 31, "[64,0]"))...).at(dynamicRange),
		bad("set bind group: an earlier destroyed buffer before a later dynamic range", codeDestroyedObject,
			cat(dyn2[:len(dyn2)-3], cmd("DestroyBuffer", "buffer_id", 7), dyn2[len(dyn2)-3:], setGroup(43, 0, 31, "[0,64]"))...).at(bindDead),
		bad("set bind group: dynamic range before a destroyed non-dynamic buffer", codeOutOfRange,
			cat(dyn2[:len(dyn2)-3], cmd("DestroyBuffer", "buffer_id", 9), dyn2[len(dyn2)-3:], setGroup(43, 0, 31, "[0,64]"))...).at(dynamicRange),
		bad("set bind group: a destroyed non-dynamic buffer alone", codeDestroyedObject,
			cat(dyn2[:len(dyn2)-3], cmd("DestroyBuffer", "buffer_id", 9), dyn2[len(dyn2)-3:], setGroup(43, 0, 31, "[0,0]"))...).at(bindDead),

		// CreateTextureView: an incompatible format or a layer range past
		// the texture (not checked upstream) and a reused id (checked).
		bad("texture view: reused id before an incompatible format", codeDuplicateID, tex, view(1, 1, "r32float", "all")).at(duplicateID),
		bad("texture view: reused id before a layer range", codeDuplicateID, tex,
			cmd("CreateTextureView", "id", 1, "texture_id", 1, "format", q("rgba8unorm"), "dimension", q("2d-array"), "aspect", q("all"),
				"layer_range", `{"base":0,"count":9}`)).at(duplicateID),
		bad("texture view: an incompatible format alone", codeFormatMismatch, tex, view(2, 1, "r32float", "all")).at(viewFormat),

		// Create commands inside a pass: the pass scope (not checked
		// upstream) comes after the reused id (checked).
		bad("create buffer in a pass: reused id before the pass scope", codeDuplicateID,
			cat(buffer(1, 16, `["COPY_DST"]`), encoder(3), computePass(4, 3), buffer(1, 16, `["COPY_DST"]`))...).at(duplicateID),
		bad("create sampler in a pass: reused id before the pass scope", codeDuplicateID,
			cat(encoder(3), computePass(4, 3), cmd("CreateSampler", "id", 4))...).at(duplicateID),
		bad("create buffer in a pass: the pass scope alone", codeInvalidState,
			cat(encoder(3), computePass(4, 3), buffer(1, 16, `["COPY_DST"]`))...).at(passScope),

		// CreateBindGroup: a binding given twice (not checked upstream,
		// whose map comparison hides it) and a reused id (checked).
		bad("bind group: reused id before a repeated binding", codeDuplicateID,
			layout(14, `[{"binding":0,"binding_type":"uniform_buffer"}]`), buffer(5, 64, `["UNIFORM"]`),
			group(5, 14, "["+uniformEntry(0, 5, 0, 16)+","+uniformEntry(0, 5, 0, 16)+"]")).at(duplicateID),

		// BeginRenderPass: a resolve target without RENDER_ATTACHMENT (not
		// checked upstream) and a reused pass id (checked).
		bad("render pass: reused id before a resolve target", codeDuplicateID, tex,
			texture(2, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`), encoder(3),
			cmd("BeginRenderPass", "id", 2, "encoder_id", 3,
				"color_attachments", `[{"texture_id":1,"resolve_target_texture_id":2,"load_op":"clear","store_op":"store"}]`)).at(duplicateID),

		// QueueSubmitReply: a reply out of submission order (not checked
		// upstream) that also mirrors its request wrongly (checked).
		bad("reply: wrong count before the order", codeInvalidArgument,
			cat(rb, encoder(2), finish(2, 3), encoder(4), finish(4, 5),
				submitReadback(3, 9, one), submitReadback(5, 10, two), replyTo(10, "["+data8+"]"))...).at(replyMirror),
		bad("reply: wrong entry before the order", codeInvalidArgument,
			cat(rb, encoder(2), finish(2, 3), encoder(4), finish(4, 5),
				submitReadback(3, 9, one), submitReadback(5, 10, one), replyTo(10, `[{"buffer_id":1,"offset":4,"size":8,"data":"AAAAAAAAAAA="}]`))...).at(replyMirror),
		bad("reply: out of order alone", codeInvalidState,
			cat(rb, encoder(2), finish(2, 3), encoder(4), finish(4, 5),
				submitReadback(3, 9, one), submitReadback(5, 10, one), replyTo(10, "["+data8+"]"))...).at(replyOrder),
	}
}

// TestAspectViews: a view of one aspect of a depth/stencil texture may use
// that aspect's format (WebGPU's view-format rule, which "compatible" in
// COMMANDS.md CreateTextureView is read as), and still the texture's own.
func TestAspectViews(t *testing.T) { run(t, aspectViewCases()) }

func aspectViewCases() []tc {
	depth := func(id int, format string) string {
		return texture(id, "2d", 4, 4, 1, 1, format, `["TEXTURE_BINDING","RENDER_ATTACHMENT"]`)
	}
	view := func(id, tex int, format, aspect string) string {
		return cmd("CreateTextureView", "id", id, "texture_id", tex, "format", q(format), "dimension", q("2d"), "aspect", q(aspect))
	}
	return []tc{
		ok("depth-only view of depth24plus-stencil8 as depth24plus", depth(1, "depth24plus-stencil8"), view(2, 1, "depth24plus", "depth-only")),
		ok("depth-only view of depth24plus-stencil8 in its own format", depth(1, "depth24plus-stencil8"), view(2, 1, "depth24plus-stencil8", "depth-only")),
		ok("stencil-only view of depth24plus-stencil8 in its own format", depth(1, "depth24plus-stencil8"), view(2, 1, "depth24plus-stencil8", "stencil-only")),
		ok("depth-only view of depth32float", depth(1, "depth32float"), view(2, 1, "depth32float", "depth-only")),
		bad("an aspect format needs its aspect", codeFormatMismatch, depth(1, "depth24plus-stencil8"), view(2, 1, "depth24plus", "all")),
		bad("the depth aspect has no other format", codeFormatMismatch, depth(1, "depth24plus-stencil8"), view(2, 1, "depth32float", "depth-only")),
		bad("stencil-only is not depth24plus", codeFormatMismatch, depth(1, "depth24plus-stencil8"), view(2, 1, "depth24plus", "stencil-only")),
		bad("a colour texture has no depth aspect format", codeFormatMismatch, depth(1, "rgba8unorm"), view(2, 1, "depth24plus", "depth-only")),
	}
}

// TestDepthAttachmentZero: COMMANDS.md lets a depth/stencil attachment use
// 0 for an implementation-owned transient attachment without condition,
// even when an object was created with id 0.
func TestDepthAttachmentZero(t *testing.T) {
	pass := func(depth int) string {
		return cmd("BeginRenderPass", "id", 5, "encoder_id", 4,
			"color_attachments", `[{"texture_id":1,"load_op":"clear","store_op":"store"}]`,
			"depth_stencil_attachment", fmt.Sprintf(`{"texture_id":%d,"depth_load_op":"clear","depth_store_op":"store"}`, depth))
	}
	run(t, []tc{
		ok("depth 0 naming nothing", target(1), encoder(4), pass(0)),
		ok("depth 0 while 0 names a buffer", buffer(0, 16, `["COPY_DST"]`), target(1), encoder(4), pass(0)),
		ok("depth 0 while 0 names a texture without RENDER_ATTACHMENT", texture(0, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`), target(1), encoder(4), pass(0)),
		bad("a depth attachment other than 0 is resolved", codeWrongObjectType, buffer(2, 16, `["COPY_DST"]`), target(1), encoder(4), pass(2)),
		bad("colour attachment 0 naming a buffer is still resolved", codeWrongObjectType, buffer(0, 16, `["COPY_DST"]`), encoder(4), renderPass(5, 4, 0)),
	})
}
