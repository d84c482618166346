package drp2

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestSession(t *testing.T) { run(t, sessionCases()) }

func sessionCases() []tc {
	errorCmd := `{"cmd":"Error","code":"DRP2_ERR_INTERNAL","message":"diagnostic"}`
	failed := `{"cmd":"RendererHelloReply","version":{"major":2,"minor":0},"status":"error"}`
	cases := []tc{
		ok("handshake only"),
		rawCase("hello alone is valid", "", 0, hello),
		rawCase("error before hello", codeInvalidState, 0, errorCmd),
		rawCase("active command before hello", codeInvalidState, 0, buffer(1, 16, `["COPY_DST"]`)),
		rawCase("reply before hello", codeInvalidState, 0, reply),
		rawCase("duplicate hello", codeInvalidState, 1, hello, hello),
		rawCase("hello after ready", codeInvalidState, 2, hello, reply, hello),
		rawCase("duplicate reply", codeInvalidState, 2, hello, reply, reply),
		rawCase("reply after failed reply", codeInvalidState, 2, hello, failed, reply),
		rawCase("active command while pending", codeInvalidState, 1, hello, buffer(1, 16, `["COPY_DST"]`)),
		rawCase("active command after failed handshake", codeInvalidState, 2, hello, failed, cmd("BeginCommandEncoder", "id", 1)),
		rawCase("error while pending", "", 0, hello, errorCmd, reply),
		rawCase("error after failed handshake", "", 0, hello, failed, errorCmd, errorCmd),
		ok("error does not poison a ready session", errorCmd, buffer(1, 16, `["COPY_DST"]`)),
		rawCase("unsupported major in hello", codeUnsupportedVersion, 0, `{"cmd":"HelloRenderer","version":{"major":3,"minor":0}}`),
		rawCase("huge major in hello", codeUnsupportedVersion, 0, `{"cmd":"HelloRenderer","version":{"major":1e400,"minor":0}}`),
		rawCase("unsupported major in reply", codeUnsupportedVersion, 1, hello, `{"cmd":"RendererHelloReply","version":{"major":1,"minor":0},"status":"ok"}`),
		rawCase("failed reply still needs a supported version", codeUnsupportedVersion, 1, hello, `{"cmd":"RendererHelloReply","version":{"major":9,"minor":0},"status":"error"}`),
		rawCase("newer minor version is accepted", "", 0, `{"cmd":"HelloRenderer","version":{"major":2,"minor":7}}`, reply),
		rawCase("unknown command", codeUnknownCommand, 2, hello, reply, `{"cmd":"DrawIndirect","pass_id":1}`),
		rawCase("empty stream", codeInvalidState, -1),
	}
	return cases
}

// TestStreamVersion judges the stream's declared major version by its
// value, whatever its spelling, and names a wrong one as written.
func TestStreamVersion(t *testing.T) {
	cmds := tc{cmds: []string{hello, reply}}.stream().Commands
	for _, major := range []string{"2", "2.0", "2e0", "0.2e1", "20E-1"} {
		if f := verdictOf(New(), model.Stream{Version: model.Version{Major: json.Number(major)}, Commands: cmds}); f != nil {
			t.Errorf("stream major version %s: got %+v, want success", major, f)
		}
	}
	for major, says := range map[string]string{
		"3":                    "major version 3;",
		"2.5":                  "major version 2.5;",
		"18446744073709551618": "major version 18446744073709551618;",
		"1e19":                 "major version 1e19;",
		"":                     "no protocol major version",
	} {
		f := verdictOf(New(), model.Stream{Version: model.Version{Major: json.Number(major)}, Commands: cmds})
		if f == nil || f.Code != codeUnsupportedVersion || f.CommandIndex != -1 || !strings.Contains(f.Message, says) {
			t.Errorf("stream major version %q: got %+v, want %s at the stream saying %q", major, f, codeUnsupportedVersion, says)
		}
	}
	// HelloRenderer's version is named as written too.
	hugeHello := tc{cmds: []string{`{"cmd":"HelloRenderer","version":{"major":18446744073709551618,"minor":0}}`}}.stream()
	if f := verdictOf(New(), hugeHello); f == nil || !strings.Contains(f.Message, "major version 18446744073709551618 is not") {
		t.Errorf("HelloRenderer major version 18446744073709551618: got %+v, want it named as written", f)
	}
}

func TestIdentity(t *testing.T) { run(t, identityCases()) }

func identityCases() []tc {
	tex7 := texture(7, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`)
	cases := []tc{
		bad("duplicate live id", codeDuplicateID, buffer(1, 16, `["COPY_DST"]`), buffer(1, 16, `["COPY_DST"]`)),
		bad("id reused by another kind", codeDuplicateID, tex7, cmd("CreateSampler", "id", 7)),
		bad("id reused after destruction", codeDuplicateID, buffer(1, 16, `["COPY_DST"]`), cmd("DestroyBuffer", "buffer_id", 1), buffer(1, 16, `["COPY_DST"]`)),
		bad("encoder id reused by a buffer", codeDuplicateID, encoder(3), buffer(3, 16, `["COPY_DST"]`)),
		bad("command buffer id reused", codeDuplicateID, encoder(3), buffer(4, 16, `["COPY_DST"]`), finish(3, 4)),
		bad("pass id reused after the pass ended", codeDuplicateID, encoder(3), computePass(4, 3), endCompute(4), computePass(4, 3)),
		bad("unknown id", codeInvalidID, cmd("WriteBuffer", "buffer_id", 99, "offset", 0, "size", 4, "data", q("AAAAAA=="))),
		bad("destroyed id", codeDestroyedObject, buffer(1, 16, `["COPY_DST"]`), cmd("DestroyBuffer", "buffer_id", 1),
			cmd("WriteBuffer", "buffer_id", 1, "offset", 0, "size", 4, "data", q("AAAAAA=="))),
		bad("destroy twice", codeDestroyedObject, buffer(1, 16, `["COPY_DST"]`), cmd("DestroyBuffer", "buffer_id", 1), cmd("DestroyBuffer", "buffer_id", 1)),
		bad("wrong kind", codeWrongObjectType, tex7, cmd("DestroyBuffer", "buffer_id", 7)),
		bad("render pipeline destroyed as compute pipeline", codeWrongObjectType,
			cat(renderPipeline(10, 0, ""), cmd("DestroyComputePipeline", "compute_pipeline_id", 10))...),
		bad("destroyed wins over wrong kind", codeDestroyedObject, tex7, cmd("DestroyTexture", "texture_id", 7), cmd("DestroyBuffer", "buffer_id", 7)),
		bad("two spellings of one huge id", codeDuplicateID,
			buffer(0, 16, `["COPY_DST"]`), `{"cmd":"CreateBuffer","id":1e20,"size":16,"usage":["COPY_DST"]}`,
			`{"cmd":"CreateBuffer","id":100000000000000000000,"size":16,"usage":["COPY_DST"]}`),
		ok("huge ids stay distinct", `{"cmd":"CreateBuffer","id":18446744073709551616,"size":16,"usage":["COPY_DST"]}`,
			`{"cmd":"CreateBuffer","id":18446744073709551617,"size":16,"usage":["COPY_DST"]}`,
			`{"cmd":"CreateBuffer","id":1e400,"size":16,"usage":["COPY_DST"]}`,
			`{"cmd":"CreateBuffer","id":0,"size":16,"usage":["COPY_DST"]}`,
			`{"cmd":"WriteBuffer","buffer_id":1e400,"offset":0,"size":4,"data":"AAAAAA=="}`),
		ok("integral spellings of one id", `{"cmd":"CreateBuffer","id":12.0,"size":16,"usage":["COPY_DST"]}`,
			`{"cmd":"WriteBuffer","buffer_id":1.2e1,"offset":0,"size":4,"data":"AAAAAA=="}`),
	}
	return cases
}

func TestRecordingAndPasses(t *testing.T) { run(t, recordingAndPassesCases()) }

func recordingAndPassesCases() []tc {
	rp := renderPipeline(10, 0, "")
	cp := computePipeline(20, "")
	cases := []tc{
		ok("render and compute passes", cat(target(1), rp, cp, encoder(3), renderPass(4, 3, 1), setPipeline(4, 10), draw(4), endRender(4),
			computePass(5, 3), setPipeline(5, 20), dispatch(5), endCompute(5), finish(3, 6), submit("[6]"))...),
		bad("draw outside any pass", codeInvalidState, encoder(3), draw(99)),
		bad("draw without pipeline", codeInvalidState, cat(target(1), encoder(3), renderPass(4, 3, 1), draw(4))...),
		bad("dispatch without pipeline", codeInvalidState, encoder(3), computePass(4, 3), dispatch(4)),
		bad("draw in a compute pass", codePassMismatch, cat(cp, encoder(3), computePass(4, 3), setPipeline(4, 20), draw(4))...),
		bad("dispatch in a render pass", codePassMismatch, cat(target(1), rp, encoder(3), renderPass(4, 3, 1), setPipeline(4, 10), dispatch(4))...),
		bad("viewport in a compute pass", codePassMismatch, encoder(3), computePass(4, 3),
			cmd("SetViewport", "pass_id", 4, "x", 0, "y", 0, "width", 1, "height", 1, "min_depth", 0, "max_depth", 1)),
		bad("stencil reference in a compute pass", codePassMismatch, encoder(3), computePass(4, 3), cmd("SetStencilReference", "pass_id", 4, "reference", 1)),
		bad("end render pass on a compute pass", codePassMismatch, encoder(3), computePass(4, 3), endRender(4)),
		bad("end compute pass on a render pass", codePassMismatch, cat(target(1), encoder(3), renderPass(4, 3, 1), endCompute(4))...),
		bad("end an ended pass", codeDestroyedObject, encoder(3), computePass(4, 3), endCompute(4), endCompute(4)),
		bad("dispatch after end", codeInvalidState, cat(cp, encoder(3), computePass(4, 3), setPipeline(4, 20), endCompute(4), dispatch(4))...),
		bad("second pass while one is open", codeInvalidState, encoder(3), computePass(4, 3), computePass(5, 3)),
		bad("finish with an open pass", codeInvalidState, encoder(3), computePass(4, 3), finish(3, 5)),
		bad("finish twice", codeInvalidState, encoder(3), finish(3, 5), finish(3, 6)),
		bad("finish an unknown encoder", codeInvalidID, finish(3, 5)),
		bad("encoder id names a buffer", codeWrongObjectType, buffer(3, 16, `["COPY_DST"]`), computePass(4, 3)),
		bad("pass id names a buffer", codeWrongObjectType, buffer(3, 16, `["COPY_DST"]`), dispatch(3)),
		bad("copy inside a pass", codeInvalidState, buffer(1, 16, `["COPY_SRC"]`), buffer(2, 16, `["COPY_DST"]`), encoder(3), computePass(4, 3), copyB2B(3, 1, 2, 4)),
		bad("copy after finish", codeInvalidState, buffer(1, 16, `["COPY_SRC"]`), buffer(2, 16, `["COPY_DST"]`), encoder(3), finish(3, 4), copyB2B(3, 1, 2, 4)),
		bad("resource creation inside a pass", codeInvalidState, encoder(3), computePass(4, 3), buffer(1, 16, `["COPY_DST"]`)),
		ok("resource creation while an encoder is open", encoder(3), buffer(1, 16, `["COPY_DST"]`)),
		bad("compute pipeline in a render pass", codePassMismatch, cat(target(1), cp, encoder(3), renderPass(4, 3, 1), setPipeline(4, 20))...),
		bad("render pipeline in a compute pass", codePassMismatch, cat(rp, encoder(3), computePass(4, 3), setPipeline(4, 10))...),
		bad("pipeline id names a buffer", codeWrongObjectType, cat(buffer(9, 16, `["COPY_DST"]`), encoder(3), computePass(4, 3), setPipeline(4, 9))...),
		bad("pipeline without depth state in a depth-writing pass", codePipelineMismatch, cat(target(1),
			texture(2, "2d", 4, 4, 1, 1, "depth32float", `["RENDER_ATTACHMENT"]`), rp, encoder(3),
			cmd("BeginRenderPass", "id", 4, "encoder_id", 3, "color_attachments", `[{"texture_id":1,"load_op":"clear","store_op":"store"}]`,
				"depth_stencil_attachment", `{"texture_id":2,"access":"write"}`), setPipeline(4, 10))...),
		ok("pipeline without depth state in a pass whose depth attachment declares no access", cat(target(1),
			texture(2, "2d", 4, 4, 1, 1, "depth32float", `["RENDER_ATTACHMENT"]`), rp, encoder(3),
			cmd("BeginRenderPass", "id", 4, "encoder_id", 3, "color_attachments", `[{"texture_id":1,"load_op":"clear","store_op":"store"}]`,
				"depth_stencil_attachment", `{"texture_id":2,"depth_load_op":"clear","depth_store_op":"store"}`), setPipeline(4, 10))...),
		bad("attachment without RENDER_ATTACHMENT", codeUsage, texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`), encoder(3), renderPass(4, 3, 1)),
		bad("unknown attachment", codeInvalidID, encoder(3), renderPass(4, 3, 77)),
		ok("presentation target 0", encoder(3), renderPass(4, 3, 0), endRender(4)),
		bad("draw missing a vertex slot", codeInvalidState, cat(target(1), buffer(5, 64, `["VERTEX"]`), renderPipeline(10, 2, ""),
			encoder(3), renderPass(4, 3, 1), setPipeline(4, 10), setVertex(4, 0, 5), draw(4))...),
		ok("vertex slots bound in any order", cat(target(1), buffer(5, 64, `["VERTEX"]`), renderPipeline(10, 3, ""),
			encoder(3), renderPass(4, 3, 1), setVertex(4, 2, 5), setVertex(4, 0, 5), setPipeline(4, 10), setVertex(4, 1, 5), draw(4))...),
		bad("rebind checks the new pipeline's slots", codeInvalidState, cat(target(1), buffer(5, 64, `["VERTEX"]`), renderPipeline(10, 1, ""),
			renderPipeline(20, 2, ""), encoder(3), renderPass(4, 3, 1), setPipeline(4, 10), setVertex(4, 0, 5), draw(4), setPipeline(4, 20), draw(4))...),
		bad("vertex bindings do not leak into a later pass", codeInvalidState, cat(target(1), buffer(5, 64, `["VERTEX"]`), renderPipeline(10, 1, ""),
			encoder(3), renderPass(4, 3, 1), setVertex(4, 0, 5), endRender(4), renderPass(6, 3, 1), setPipeline(6, 10), draw(6))...),
		bad("indexed draw without index buffer", codeInvalidState, cat(target(1), rp, encoder(3), renderPass(4, 3, 1), setPipeline(4, 10), drawIndexed(4))...),
		ok("indexed draw", cat(target(1), rp, buffer(5, 64, `["INDEX"]`), encoder(3), renderPass(4, 3, 1), setPipeline(4, 10),
			cmd("SetIndexBuffer", "pass_id", 4, "buffer_id", 5, "index_format", q("uint32"), "offset", 0), drawIndexed(4))...),
		bad("vertex buffer without VERTEX usage", codeUsage, cat(target(1), buffer(5, 64, `["INDEX"]`), encoder(3), renderPass(4, 3, 1), setVertex(4, 0, 5))...),
		bad("index buffer without INDEX usage", codeUsage, cat(target(1), buffer(5, 64, `["VERTEX"]`), encoder(3), renderPass(4, 3, 1),
			cmd("SetIndexBuffer", "pass_id", 4, "buffer_id", 5, "index_format", q("uint16"), "offset", 0))...),
		bad("index buffer range", codeOutOfRange, cat(target(1), buffer(5, 64, `["INDEX"]`), encoder(3), renderPass(4, 3, 1),
			cmd("SetIndexBuffer", "pass_id", 4, "buffer_id", 5, "index_format", q("uint16"), "offset", 32, "size", 40))...),
		bad("vertex buffer in a compute pass", codePassMismatch, buffer(5, 64, `["VERTEX"]`), encoder(3), computePass(4, 3), setVertex(4, 0, 5)),
		bad("barrier inside a pass", codeInvalidState, buffer(1, 16, `["STORAGE","VERTEX"]`), encoder(3), computePass(4, 3),
			cmd("ResourceBarrier", "encoder_id", 3, "buffer_id", 1, "src_stage", q("COMPUTE"), "src_access", q("STORAGE_WRITE"), "dst_stage", q("VERTEX_INPUT"), "dst_access", q("VERTEX_READ"))),
		ok("barrier", buffer(1, 16, `["STORAGE","COPY_SRC"]`), encoder(3),
			cmd("ResourceBarrier", "encoder_id", 3, "buffer_id", 1, "src_stage", q("COMPUTE"), "src_access", q("STORAGE_WRITE"), "dst_stage", q("COPY"), "dst_access", q("COPY_READ"))),
		bad("barrier needs VERTEX for vertex input", codeUsage, buffer(1, 16, `["STORAGE"]`), encoder(3),
			cmd("ResourceBarrier", "encoder_id", 3, "buffer_id", 1, "src_stage", q("COMPUTE"), "src_access", q("STORAGE_WRITE"), "dst_stage", q("VERTEX_INPUT"), "dst_access", q("VERTEX_READ"))),
		bad("barrier range", codeOutOfRange, buffer(1, 16, `["STORAGE","COPY_SRC"]`), encoder(3),
			cmd("ResourceBarrier", "encoder_id", 3, "buffer_id", 1, "src_stage", q("COMPUTE"), "src_access", q("STORAGE_WRITE"), "dst_stage", q("COPY"), "dst_access", q("COPY_READ"), "offset", 8, "size", 16)),
	}
	return cases
}
