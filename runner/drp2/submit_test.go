package drp2

import (
	"context"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func submitReadback(cb, sub int, readbacks string) string {
	return cmd("QueueSubmit", "command_buffer_ids", cmd2("[%d]", cb), "submission_id", sub, "readbacks", readbacks)
}

func replyTo(sub int, readbacks string) string {
	return cmd("QueueSubmitReply", "submission_id", sub, "readbacks", readbacks)
}

func TestSubmission(t *testing.T) { run(t, submissionCases()) }

func submissionCases() []tc {
	rb := buffer(1, 16, `["COPY_DST","MAP_READ"]`)
	cbA := cat(encoder(2), finish(2, 3))
	cbB := cat(encoder(4), finish(4, 5))
	req := `[{"buffer_id":1,"offset":0,"size":16}]`
	resp := `[{"buffer_id":1,"offset":0,"size":16,"data":"AAAAAAAAAAAAAAAAAAAAAA=="}]`
	cases := []tc{
		ok("submit", cat(cbA, submit("[3]"))...),
		ok("submit two in one", cat(cbA, cbB, submit("[3,5]"))...),
		bad("unknown command buffer", codeInvalidID, submit("[77]")),
		bad("encoder instead of command buffer", codeWrongObjectType, encoder(2), submit("[2]")),
		bad("same buffer twice in one submit", codeInvalidArgument, cat(cbA, submit("[3,3]"))...),
		bad("resubmission", codeInvalidState, cat(cbA, submit("[3]"), submit("[3]"))...),
		bad("resubmission inside a later batch", codeInvalidState, cat(cbA, cbB, submit("[3]"), submit("[5,3]"))...),
		ok("readback and reply", cat(rb, cbA, submitReadback(3, 9, req), replyTo(9, resp))...),
		ok("readback without reply", cat(rb, cbA, submitReadback(3, 9, req))...),
		bad("readback without MAP_READ", codeUsage, cat(buffer(1, 16, `["COPY_DST"]`), cbA, submitReadback(3, 9, req))...),
		bad("readback past the buffer", codeOutOfRange, cat(rb, cbA, submitReadback(3, 9, `[{"buffer_id":1,"offset":8,"size":12}]`))...),
		bad("readback of an unknown buffer", codeInvalidID, cat(cbA, submitReadback(3, 9, req))...),
		bad("reply without submission", codeInvalidState, replyTo(9, resp)),
		bad("reply to a submission without readbacks", codeInvalidState, cat(cbA, cmd("QueueSubmit", "command_buffer_ids", "[3]", "submission_id", 9), replyTo(9, resp))...),
		bad("second reply", codeInvalidState, cat(rb, cbA, submitReadback(3, 9, req), replyTo(9, resp), replyTo(9, resp))...),
		bad("reply out of order", codeInvalidState, cat(rb, cbA, cbB, submitReadback(3, 9, req), submitReadback(5, 10, req), replyTo(10, resp))...),
		ok("replies in order", cat(rb, cbA, cbB, submitReadback(3, 9, req), submitReadback(5, 10, req), replyTo(9, resp), replyTo(10, resp))...),
		bad("reply with another size", codeInvalidArgument, cat(rb, cbA, submitReadback(3, 9, req),
			replyTo(9, `[{"buffer_id":1,"offset":0,"size":8,"data":"AAAAAAAAAAA="}]`))...),
		bad("reply with fewer readbacks", codeInvalidArgument, cat(rb, cbA, submitReadback(3, 9, `[{"buffer_id":1,"offset":0,"size":8},{"buffer_id":1,"offset":8,"size":8}]`),
			replyTo(9, `[{"buffer_id":1,"offset":0,"size":8,"data":"AAAAAAAAAAA="}]`))...),
		ok("destroy a buffer with a pending readback", cat(rb, cbA, submitReadback(3, 9, req), cmd("DestroyBuffer", "buffer_id", 1))...),
		ok("destroy a buffer after its reply", cat(rb, cbA, submitReadback(3, 9, req), replyTo(9, resp), cmd("DestroyBuffer", "buffer_id", 1))...),
	}
	return cases
}

func TestDestructionSafety(t *testing.T) { run(t, destructionSafetyCases()) }

func destructionSafetyCases() []tc {
	src := buffer(1, 16, `["COPY_SRC"]`)
	dst := buffer(2, 16, `["COPY_DST"]`)
	lay := layout(14, `[{"binding":0,"binding_type":"uniform_buffer"}]`)
	ubo := buffer(5, 64, `["UNIFORM"]`)
	grp := group(13, 14, "["+uniformEntry(0, 5, 0, 16)+"]")
	drawn := cat(lay, ubo, grp, renderPipeline(10, 0, "[14]"), target(30), encoder(31), renderPass(32, 31, 30), setPipeline(32, 10),
		setGroup(32, 0, 13, ""), draw(32), endRender(32))
	samplerGroup := cat(texture(1, "2d", 2, 2, 1, 1, "rgba8unorm", `["TEXTURE_BINDING"]`), cmd("CreateSampler", "id", 2),
		cmd("CreateTextureView", "id", 3, "texture_id", 1, "format", q("rgba8unorm"), "dimension", q("2d"), "aspect", q("all")),
		layout(15, `[{"binding":0,"binding_type":"sampled_texture"},{"binding":1,"binding_type":"sampler"}]`),
		group(16, 15, `[{"binding":0,"binding_type":"sampled_texture","resource_kind":"texture_view","resource_id":3},{"binding":1,"binding_type":"sampler","resource_kind":"sampler","resource_id":2}]`))
	cases := []tc{
		ok("destroy unused resources", src, dst, cmd("DestroyBuffer", "buffer_id", 1), cmd("DestroyBuffer", "buffer_id", 2)),
		bad("buffer used by an open encoder", codeUsage, src, dst, encoder(3), copyB2B(3, 1, 2, 4), cmd("DestroyBuffer", "buffer_id", 1)),
		bad("buffer used by a finished command buffer", codeUsage, src, dst, encoder(3), copyB2B(3, 1, 2, 4), finish(3, 4), cmd("DestroyBuffer", "buffer_id", 2)),
		bad("buffer used by submitted work", codeUsage, src, dst, encoder(3), copyB2B(3, 1, 2, 4), finish(3, 4), submit("[4]"), cmd("DestroyBuffer", "buffer_id", 1)),
		ok("buffer of an unrecorded bind group may go", lay, ubo, grp, cmd("DestroyBuffer", "buffer_id", 5)),
		bad("attachment of recorded work", codeUsage, target(1), encoder(3), renderPass(4, 3, 1), endRender(4), finish(3, 5), cmd("DestroyTexture", "texture_id", 1)),
		bad("bind group of recorded work", codeUsage, cat(drawn, finish(31, 33), cmd("DestroyBindGroup", "bind_group_id", 13))...),
		bad("buffer behind a recorded bind group", codeUsage, cat(drawn, cmd("DestroyBuffer", "buffer_id", 5))...),
		bad("pipeline of recorded work", codeUsage, cat(drawn, finish(31, 33), submit("[33]"), cmd("DestroyRenderPipeline", "render_pipeline_id", 10))...),
		bad("shader module of a recorded pipeline", codeUsage, cat(drawn, finish(31, 33), cmd("DestroyRenderPipeline", "render_pipeline_id", 10))...),
		bad("shader module of a live pipeline", codeUsage, cat(renderPipeline(10, 0, ""), cmd("DestroyShaderModule", "shader_module_id", 11))...),
		ok("shader module after its pipeline", cat(renderPipeline(10, 0, ""), cmd("DestroyRenderPipeline", "render_pipeline_id", 10),
			cmd("DestroyShaderModule", "shader_module_id", 11), cmd("DestroyShaderModule", "shader_module_id", 12))...),
		bad("layout of a live bind group", codeUsage, lay, ubo, grp, cmd("DestroyBindGroupLayout", "bind_group_layout_id", 14)),
		bad("layout of a live pipeline", codeUsage, cat(lay, renderPipeline(10, 0, "[14]"), cmd("DestroyBindGroupLayout", "bind_group_layout_id", 14))...),
		ok("layout after its users", lay, ubo, grp, cmd("DestroyBindGroup", "bind_group_id", 13), cmd("DestroyBindGroupLayout", "bind_group_layout_id", 14)),
		bad("sampler of a live bind group", codeUsage, cat(samplerGroup, cmd("DestroySampler", "id", 2))...),
		bad("view of a live bind group", codeUsage, cat(samplerGroup, cmd("DestroyTextureView", "id", 3))...),
		ok("sampler and view after their bind group", cat(samplerGroup, cmd("DestroyBindGroup", "bind_group_id", 16),
			cmd("DestroySampler", "id", 2), cmd("DestroyTextureView", "id", 3), cmd("DestroyTexture", "texture_id", 1))...),
		bad("destroy inside a pass", codeInvalidState, src, encoder(3), computePass(4, 3), cmd("DestroyBuffer", "buffer_id", 1)),
	}
	return cases
}

func TestCapabilities(t *testing.T) { run(t, capabilitiesCases()) }

func capabilitiesCases() []tc {
	caps := func(c tc, caps string) tc {
		c.caps = caps
		if c.code != "" && c.code != codeInvalidID {
			c.phase = model.PhaseCapability
		}
		return c
	}
	tex := func(dim string, w, h, d int, format string) string {
		return texture(1, dim, w, h, d, 1, format, `["COPY_DST"]`)
	}
	ms := cmd("CreateTexture", "id", 1, "dimension", q("2d"), "width", 4, "height", 4, "depth", 1, "format", q("rgba8unorm"),
		"usage", `["RENDER_ATTACHMENT"]`, "mip_level_count", 1, "sample_count", 4)
	spirv := cmd("CreateShaderModule", "id", 1, "stage", q("COMPUTE"), "format", q("spirv"), "entry_point", q("main"), "code", q("AAAA"))
	fp64 := cmd("CreateShaderModule", "id", 1, "stage", q("COMPUTE"), "format", q("wgsl"), "entry_point", q("main"), "code", q("x"), "required_features", `["fp64"]`)
	cases := []tc{
		caps(ok("no capabilities, no gates", buffer(7, 1<<40, `["COPY_DST"]`), ms, strings.Replace(fp64, `"id":1`, `"id":8`, 1)), ""),
		caps(ok("undeclared fields gate nothing", buffer(7, 1<<40, `["COPY_DST"]`), ms, strings.Replace(spirv, `"id":1`, `"id":8`, 1)), `{"supports_fp64":true}`),
		caps(bad("buffer above max_buffer_size", codeUnsupportedCapability, buffer(1, 65, `["COPY_DST"]`)), `{"max_buffer_size":64}`),
		caps(ok("buffer at max_buffer_size", buffer(1, 64, `["COPY_DST"]`)), `{"max_buffer_size":64}`),
		caps(bad("huge buffer", codeUnsupportedCapability, `{"cmd":"CreateBuffer","id":1,"size":1e30,"usage":["COPY_DST"]}`), `{"max_buffer_size":18446744073709551615}`),
		caps(bad("unsupported format", codeUnsupportedCapability, tex("2d", 2, 2, 1, "rgba8unorm")), `{"supported_texture_formats":["bgra8unorm"]}`),
		caps(bad("empty format list", codeUnsupportedCapability, tex("2d", 2, 2, 1, "rgba8unorm")), `{"supported_texture_formats":[]}`),
		caps(bad("unsupported sample count", codeUnsupportedCapability, ms), `{"supported_sample_counts":[1]}`),
		caps(ok("supported sample count", ms), `{"supported_sample_counts":[1,4]}`),
		caps(bad("2d width", codeUnsupportedCapability, tex("2d", 8, 2, 1, "rgba8unorm")), `{"max_texture_dimension_2d":4}`),
		caps(bad("2d height", codeUnsupportedCapability, tex("2d", 2, 8, 1, "rgba8unorm")), `{"max_texture_dimension_2d":4}`),
		caps(ok("2d layers are not a dimension", tex("2d", 4, 4, 8, "rgba8unorm")), `{"max_texture_dimension_2d":4}`),
		caps(ok("2d limit ignores 1d textures", tex("1d", 8, 1, 1, "rgba8unorm")), `{"max_texture_dimension_2d":4}`),
		caps(bad("1d width", codeUnsupportedCapability, tex("1d", 8, 1, 1, "rgba8unorm")), `{"max_texture_dimension_1d":4}`),
		caps(bad("3d depth", codeUnsupportedCapability, tex("3d", 2, 2, 8, "rgba8unorm")), `{"max_texture_dimension_3d":4}`),
		caps(bad("shader format", codeUnsupportedCapability, spirv), `{"supported_shader_formats":["wgsl"]}`),
		caps(bad("fp64 unavailable", codeFeatureRequired, fp64), `{"supported_shader_formats":["wgsl"],"supports_fp64":false}`),
		caps(ok("fp64 available", fp64), `{"supports_fp64":true}`),
		caps(bad("first gate failure wins", codeUnsupportedCapability, buffer(1, 65, `["COPY_DST"]`)), `{"max_buffer_size":64,"supported_texture_formats":[]}`),
	}
	// A semantic failure anywhere wins over a capability failure before it.
	semanticFirst := bad("semantic before capability", codeInvalidID, buffer(1, 65, `["COPY_DST"]`), writeBuf(9, 0, 4, "AAAAAA=="))
	cases = append(cases, caps(semanticFirst, `{"max_buffer_size":64}`))
	return cases
}

// Reply data that is not size bytes of padded base64 is a finding
// (LIFETIMES.md Readback Lifetime rule 9), never a failure.
func TestReplyDataFindings(t *testing.T) {
	rb := buffer(1, 16, `["COPY_DST","MAP_READ"]`)
	cbA := cat(encoder(2), finish(2, 3))
	req := `[{"buffer_id":1,"offset":0,"size":16}]`
	reply := func(data string) tc {
		return ok("reply", cat(rb, cbA, submitReadback(3, 9, req), replyTo(9, `[{"buffer_id":1,"offset":0,"size":16,"data":`+data+`}]`))...)
	}
	for _, c := range []struct {
		data string
		want string // "" for no finding
	}{
		{`"AAAAAAAAAAAAAAAAAAAAAA=="`, ""},
		{`"AAAAAAAAAAAAAAAAAAAAAA"`, "not padded base64"},
		{`"AAAAAAAAAAAAAAAAAAAAAAAA"`, "decodes to 18 bytes"},
		{`"AAAAAAAAAAAAAAAAAAAAAAAAAA"`, "read without padding it decodes to 19 bytes"},
		{`"AA\nAAAAAAAAAAAAAAAAAAAA=="`, "line break"},
		{`null`, "missing"},
	} {
		f, found := New().Check(context.Background(), reply(c.data).stream(), nil)
		if f != nil {
			t.Fatalf("data %s: reply data must not fail the stream: %s", c.data, f.Message)
		}
		if c.want == "" {
			if len(found) != 0 {
				t.Fatalf("data %s: unexpected findings %+v", c.data, found)
			}
			continue
		}
		if len(found) != 1 || found[0].Kind != model.FindingReadbackData ||
			!strings.Contains(found[0].Message, c.want) || !strings.Contains(found[0].Message, "LIFETIMES.md Readback Lifetime rule 9") {
			t.Fatalf("data %s: findings %+v, want one naming %q and the rule", c.data, found, c.want)
		}
	}
}
