package drp2

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

const (
	hello = `{"cmd":"HelloRenderer","version":{"major":2,"minor":0}}`
	reply = `{"cmd":"RendererHelloReply","version":{"major":2,"minor":0},"status":"ok"}`
)

// fixtureVersion is a fixture's version object by FORMAT.md's names: the
// model's Version has no JSON names of its own.
type fixtureVersion struct {
	Major json.Number  `json:"major"`
	Minor json.Number  `json:"minor"`
	Patch *json.Number `json:"patch"`
}

// tc is one table case: a stream and the expected result. code "" means
// the stream is valid.
type tc struct {
	name  string
	caps  string
	cmds  []string
	phase model.Phase
	code  string
	index int
	// rule, when set, is the rule ID the failure must name.
	rule string
}

// at pins the rule a failing case must report.
func (c tc) at(rule string) tc {
	c.rule = rule
	return c
}

// ok is a valid stream after the handshake.
func ok(name string, cmds ...string) tc {
	return tc{name: name, cmds: append([]string{hello, reply}, cmds...)}
}

// bad is a stream after the handshake whose last command fails semantic
// validation with code.
func bad(name, code string, cmds ...string) tc {
	all := append([]string{hello, reply}, cmds...)
	return tc{name: name, cmds: all, phase: model.PhaseSemantic, code: code, index: len(all) - 1}
}

// raw is a stream without the implied handshake.
func rawCase(name, code string, index int, cmds ...string) tc {
	c := tc{name: name, cmds: cmds, code: code, index: index}
	if code != "" {
		c.phase = model.PhaseSemantic
	}
	return c
}

func (c tc) stream() model.Stream {
	s := model.Stream{Version: model.Version{Major: "2"}}
	if c.caps != "" {
		s.Capabilities = json.RawMessage(c.caps)
	}
	for _, cmd := range c.cmds {
		s.Commands = append(s.Commands, json.RawMessage(cmd))
	}
	return s
}

func run(t *testing.T, cases []tc) {
	t.Helper()
	checker := New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, cmd := range c.cmds {
				if !json.Valid([]byte(cmd)) {
					t.Fatalf("test bug: command %d is not JSON: %s", i, cmd)
				}
			}
			f := verdictOf(checker, c.stream())
			if c.code == "" {
				if f != nil {
					t.Fatalf("want success, got %s %s at %d: %s", f.Phase, f.Code, f.CommandIndex, f.Message)
				}
				return
			}
			if f == nil {
				t.Fatalf("want %s %s at %d, got success", c.phase, c.code, c.index)
			}
			if f.Phase != c.phase || f.Code != c.code || f.CommandIndex != c.index {
				t.Fatalf("want %s %s at %d, got %s %s at %d: %s", c.phase, c.code, c.index, f.Phase, f.Code, f.CommandIndex, f.Message)
			}
			if f.Message == "" {
				t.Fatal("failure without message")
			}
			checkRule(t, f)
			if c.rule != "" && f.Rule != c.rule {
				t.Fatalf("want rule %q, got %q: %s", c.rule, f.Rule, f.Message)
			}
		})
	}
}

// Command builders for the tables. Arguments are JSON fragments.

func cmd(name string, kv ...any) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"cmd":%q`, name)
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, `,%q:%v`, kv[i], kv[i+1])
	}
	b.WriteString("}")
	return b.String()
}

func buffer(id, size int, usage string) string {
	return cmd("CreateBuffer", "id", id, "size", size, "usage", usage)
}

func texture(id int, dim string, w, h, d, mips int, format, usage string) string {
	return cmd("CreateTexture", "id", id, "dimension", q(dim), "width", w, "height", h, "depth", d,
		"format", q(format), "usage", usage, "mip_level_count", mips, "sample_count", 1)
}

func target(id int) string {
	return texture(id, "2d", 4, 4, 1, 1, "rgba8unorm", `["RENDER_ATTACHMENT"]`)
}

func q(s string) string { return fmt.Sprintf("%q", s) }

func shader(id int, stage string) string {
	return cmd("CreateShaderModule", "id", id, "stage", q(stage), "format", q("wgsl"), "entry_point", q("main"), "code", q("fn main() {}"))
}

// renderPipeline creates shader modules id+1 and id+2 and the pipeline id.
func renderPipeline(id, slots int, layouts string) []string {
	p := cmd("CreateRenderPipeline", "id", id, "vertex_shader_module_id", id+1, "fragment_shader_module_id", id+2, "vertex_buffer_slots", slots)
	if layouts != "" {
		p = cmd("CreateRenderPipeline", "id", id, "vertex_shader_module_id", id+1, "fragment_shader_module_id", id+2,
			"vertex_buffer_slots", slots, "bind_group_layout_ids", layouts)
	}
	return []string{shader(id+1, "VERTEX"), shader(id+2, "FRAGMENT"), p}
}

// computePipeline creates shader module id+1 and the pipeline id.
func computePipeline(id int, layouts string) []string {
	p := cmd("CreateComputePipeline", "id", id, "compute_shader_module_id", id+1)
	if layouts != "" {
		p = cmd("CreateComputePipeline", "id", id, "compute_shader_module_id", id+1, "bind_group_layout_ids", layouts)
	}
	return []string{shader(id+1, "COMPUTE"), p}
}

func encoder(id int) string { return cmd("BeginCommandEncoder", "id", id) }

func renderPass(id, enc, tex int) string {
	return cmd("BeginRenderPass", "id", id, "encoder_id", enc,
		"color_attachments", fmt.Sprintf(`[{"texture_id":%d,"load_op":"clear","store_op":"store"}]`, tex))
}

func computePass(id, enc int) string { return cmd("BeginComputePass", "id", id, "encoder_id", enc) }

func endRender(p int) string  { return cmd("EndRenderPass", "pass_id", p) }
func endCompute(p int) string { return cmd("EndComputePass", "pass_id", p) }

func finish(enc, cb int) string {
	return cmd("FinishCommandEncoder", "encoder_id", enc, "command_buffer_id", cb)
}

func submit(cbs string) string { return cmd("QueueSubmit", "command_buffer_ids", cbs) }

func setPipeline(pass, pipe int) string {
	return cmd("SetPipeline", "pass_id", pass, "pipeline_id", pipe)
}

func setVertex(pass, slot, buf int) string {
	return cmd("SetVertexBuffer", "pass_id", pass, "slot", slot, "buffer_id", buf, "offset", 0)
}

func draw(pass int) string {
	return cmd("Draw", "pass_id", pass, "vertex_count", 3, "instance_count", 1, "first_vertex", 0, "first_instance", 0)
}

func drawIndexed(pass int) string {
	return cmd("DrawIndexed", "pass_id", pass, "index_count", 3, "instance_count", 1, "first_index", 0, "base_vertex", 0, "first_instance", 0)
}

func dispatch(pass int) string {
	return cmd("DispatchWorkgroups", "pass_id", pass, "x", 1, "y", 1, "z", 1)
}

func copyB2B(enc, src, dst, size int) string {
	return cmd("CopyBufferToBuffer", "encoder_id", enc, "src_buffer_id", src, "src_offset", 0, "dst_buffer_id", dst, "dst_offset", 0, "size", size)
}

func layout(id int, entries string) string {
	return cmd("CreateBindGroupLayout", "id", id, "entries", entries)
}

func group(id, lay int, entries string) string {
	return cmd("CreateBindGroup", "id", id, "bind_group_layout_id", lay, "entries", entries)
}

func setGroup(pass, slot, g int, offsets string) string {
	if offsets == "" {
		return cmd("SetBindGroup", "pass_id", pass, "slot", slot, "bind_group_id", g)
	}
	return cmd("SetBindGroup", "pass_id", pass, "slot", slot, "bind_group_id", g, "dynamic_offsets", offsets)
}

// uniformEntry is a uniform-buffer bind-group entry.
func uniformEntry(binding, buf, offset, size int) string {
	return fmt.Sprintf(`{"binding":%d,"binding_type":"uniform_buffer","resource_kind":"buffer","resource_id":%d,"offset":%d,"size":%d}`,
		binding, buf, offset, size)
}

func cat(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

func cmd2(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// seedCases is every table case, for the fuzz corpus.
func seedCases() []tc {
	var all []tc
	for _, family := range []func() []tc{sessionCases, errorSelectionCases, identityCases, recordingAndPassesCases, buffersAndRangesCases, textureTransfersCases, textureViewsCases, bindGroupsCases, pipelinesCases, submissionCases, destructionSafetyCases, capabilitiesCases, precedenceCases, aspectViewCases} {
		all = append(all, family()...)
	}
	return all
}

// checkRule asserts that a failure names a catalogued rule, in its Rule
// field and in its message, and carries that rule's code.
func checkRule(t *testing.T, f *model.Failure) {
	t.Helper()
	for _, r := range Rules() {
		if r.ID != f.Rule {
			continue
		}
		if r.Code != f.Code {
			t.Fatalf("failure code %s but rule %q yields %s", f.Code, f.Rule, r.Code)
		}
		if !strings.Contains(f.Message, f.Rule) {
			t.Fatalf("message does not name rule %q: %s", f.Rule, f.Message)
		}
		return
	}
	t.Fatalf("failure names rule %q, which is not in Rules(): %s", f.Rule, f.Message)
}

// verdictOf is the failure Check returns for s, without its findings.
func verdictOf(c *Checker, s model.Stream) *model.Failure {
	f, _ := c.Check(context.Background(), s, nil)
	return f
}
