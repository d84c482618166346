package drp2

import (
	"encoding/json"
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

// GenerateStream returns a valid DRP2 2.0 stream of exactly n commands (n >= 0)
// for benchmarks and scale tests. After the handshake and a setup block it
// repeats frames shaped like real work: uploads, a render pass with
// pipeline, vertex, index and bind-group state and several draws, a compute
// pass, a copy, a finish and a submit with a readback and its reply, plus
// buffer churn (create, write, destroy). Every prefix of a valid stream is
// valid, so the stream is simply cut at n.
func GenerateStream(n int) model.Stream {
	g := &generator{out: make([]json.RawMessage, 0, n), n: n, next: 1000}
	g.build()
	return model.Stream{Version: model.Version{Major: "2", Minor: "0"}, Commands: g.out}
}

type generator struct {
	out  []json.RawMessage
	n    int
	next int
}

func (g *generator) full() bool { return len(g.out) >= g.n }

func (g *generator) emit(parts ...any) {
	if g.full() {
		return
	}
	b := make([]byte, 0, 160)
	b = append(b, '{')
	for i := 0; i+1 < len(parts); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, parts[i].(string))
		b = append(b, ':')
		switch v := parts[i+1].(type) {
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case string:
			b = strconv.AppendQuote(b, v)
		case raw:
			b = append(b, v...)
		}
	}
	b = append(b, '}')
	g.out = append(g.out, b)
}

// raw is JSON text inserted as is.
type raw string

func (g *generator) id() int {
	g.next++
	return g.next
}

func ids(v ...int) raw {
	b := []byte{'['}
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return raw(append(b, ']'))
}

func (g *generator) build() {
	g.emit("cmd", "HelloRenderer", "version", raw(`{"major":2,"minor":0}`))
	g.emit("cmd", "RendererHelloReply", "version", raw(`{"major":2,"minor":0}`), "status", "ok")

	layout := g.id()
	g.emit("cmd", "CreateBindGroupLayout", "id", layout,
		"entries", raw(`[{"binding":0,"binding_type":"uniform_buffer","has_dynamic_offset":true},{"binding":1,"binding_type":"storage_buffer"}]`))
	vs, fs, cs := g.id(), g.id(), g.id()
	g.emit("cmd", "CreateShaderModule", "id", vs, "stage", "VERTEX", "format", "wgsl", "entry_point", "main", "code", "@vertex fn main() {}")
	g.emit("cmd", "CreateShaderModule", "id", fs, "stage", "FRAGMENT", "format", "wgsl", "entry_point", "main", "code", "@fragment fn main() {}")
	g.emit("cmd", "CreateShaderModule", "id", cs, "stage", "COMPUTE", "format", "wgsl", "entry_point", "main", "code", "@compute @workgroup_size(1) fn main() {}")
	render, compute := g.id(), g.id()
	g.emit("cmd", "CreateRenderPipeline", "id", render, "vertex_shader_module_id", vs, "fragment_shader_module_id", fs,
		"vertex_buffer_slots", 2, "bind_group_layout_ids", ids(layout))
	g.emit("cmd", "CreateComputePipeline", "id", compute, "compute_shader_module_id", cs, "bind_group_layout_ids", ids(layout))
	vertex, index, uniform, storage, staging := g.id(), g.id(), g.id(), g.id(), g.id()
	g.emit("cmd", "CreateBuffer", "id", vertex, "size", 4096, "usage", raw(`["VERTEX","COPY_DST","COPY_SRC"]`))
	g.emit("cmd", "CreateBuffer", "id", index, "size", 1024, "usage", raw(`["INDEX","COPY_DST"]`))
	g.emit("cmd", "CreateBuffer", "id", uniform, "size", 1024, "usage", raw(`["UNIFORM","COPY_DST"]`))
	g.emit("cmd", "CreateBuffer", "id", storage, "size", 4096, "usage", raw(`["STORAGE","COPY_DST"]`))
	g.emit("cmd", "CreateBuffer", "id", staging, "size", 4096, "usage", raw(`["COPY_DST","MAP_READ"]`))
	group := g.id()
	g.emit("cmd", "CreateBindGroup", "id", group, "bind_group_layout_id", layout, "entries", raw(`[{"binding":0,"binding_type":"uniform_buffer","resource_kind":"buffer","resource_id":`+
		strconv.Itoa(uniform)+`,"offset":0,"size":256},{"binding":1,"binding_type":"storage_buffer","resource_kind":"buffer","resource_id":`+strconv.Itoa(storage)+`}]`))
	target := g.id()
	g.emit("cmd", "CreateTexture", "id", target, "dimension", "2d", "width", 64, "height", 64, "depth", 1, "format", "rgba8unorm",
		"usage", raw(`["RENDER_ATTACHMENT","COPY_SRC"]`), "mip_level_count", 1, "sample_count", 1)

	payload := "AAAAAAAAAAAAAAAAAAAAAA==" // 16 bytes
	for frame := 0; !g.full(); frame++ {
		g.emit("cmd", "WriteBuffer", "buffer_id", vertex, "offset", (frame%200)*16, "size", 16, "data", payload)
		g.emit("cmd", "WriteBuffer", "buffer_id", uniform, "offset", 0, "size", 16, "data", payload)
		enc, pass := g.id(), g.id()
		g.emit("cmd", "BeginCommandEncoder", "id", enc)
		g.emit("cmd", "BeginRenderPass", "id", pass, "encoder_id", enc,
			"color_attachments", raw(`[{"texture_id":`+strconv.Itoa(target)+`,"load_op":"clear","store_op":"store"}]`))
		g.emit("cmd", "SetPipeline", "pass_id", pass, "pipeline_id", render)
		g.emit("cmd", "SetVertexBuffer", "pass_id", pass, "slot", 0, "buffer_id", vertex, "offset", 0)
		g.emit("cmd", "SetVertexBuffer", "pass_id", pass, "slot", 1, "buffer_id", vertex, "offset", 2048)
		g.emit("cmd", "SetIndexBuffer", "pass_id", pass, "buffer_id", index, "index_format", "uint16", "offset", 0)
		g.emit("cmd", "SetBindGroup", "pass_id", pass, "slot", 0, "bind_group_id", group, "dynamic_offsets", ids((frame%3)*256))
		g.emit("cmd", "SetViewport", "pass_id", pass, "x", 0, "y", 0, "width", 64, "height", 64, "min_depth", 0, "max_depth", 1)
		for d := 0; d < 4; d++ {
			g.emit("cmd", "Draw", "pass_id", pass, "vertex_count", 3, "instance_count", 1, "first_vertex", 0, "first_instance", 0)
		}
		g.emit("cmd", "DrawIndexed", "pass_id", pass, "index_count", 6, "instance_count", 1, "first_index", 0, "base_vertex", 0, "first_instance", 0)
		g.emit("cmd", "EndRenderPass", "pass_id", pass)
		cpass := g.id()
		g.emit("cmd", "BeginComputePass", "id", cpass, "encoder_id", enc)
		g.emit("cmd", "SetPipeline", "pass_id", cpass, "pipeline_id", compute)
		g.emit("cmd", "SetBindGroup", "pass_id", cpass, "slot", 0, "bind_group_id", group, "dynamic_offsets", ids(0))
		g.emit("cmd", "DispatchWorkgroups", "pass_id", cpass, "x", 8, "y", 1, "z", 1)
		g.emit("cmd", "EndComputePass", "pass_id", cpass)
		g.emit("cmd", "CopyBufferToBuffer", "encoder_id", enc, "src_buffer_id", vertex, "src_offset", 0,
			"dst_buffer_id", staging, "dst_offset", 0, "size", 256)
		cb, sub := g.id(), g.id()
		g.emit("cmd", "FinishCommandEncoder", "encoder_id", enc, "command_buffer_id", cb)
		g.emit("cmd", "QueueSubmit", "command_buffer_ids", ids(cb), "submission_id", sub,
			"readbacks", raw(`[{"buffer_id":`+strconv.Itoa(staging)+`,"offset":0,"size":16}]`))
		g.emit("cmd", "QueueSubmitReply", "submission_id", sub,
			"readbacks", raw(`[{"buffer_id":`+strconv.Itoa(staging)+`,"offset":0,"size":16,"data":"`+payload+`"}]`))
		tmp := g.id()
		g.emit("cmd", "CreateBuffer", "id", tmp, "size", 64, "usage", raw(`["COPY_DST"]`))
		g.emit("cmd", "WriteBuffer", "buffer_id", tmp, "offset", 48, "size", 16, "data", payload)
		g.emit("cmd", "DestroyBuffer", "buffer_id", tmp)
	}
}
