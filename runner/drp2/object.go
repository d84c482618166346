package drp2

import "fmt"

// kind is the object kind an id was created as. All kinds share one id
// space (LIFETIMES.md, Object Identity).
type kind uint8

const (
	kindBuffer kind = iota + 1
	kindTexture
	kindTextureView
	kindSampler
	kindShaderModule
	kindBindGroupLayout
	kindBindGroup
	kindRenderPipeline
	kindComputePipeline
	kindEncoder
	kindRenderPass
	kindComputePass
	kindCommandBuffer
)

var kindNames = [...]string{
	kindBuffer:          "buffer",
	kindTexture:         "texture",
	kindTextureView:     "texture view",
	kindSampler:         "sampler",
	kindShaderModule:    "shader module",
	kindBindGroupLayout: "bind-group layout",
	kindBindGroup:       "bind group",
	kindRenderPipeline:  "render pipeline",
	kindComputePipeline: "compute pipeline",
	kindEncoder:         "command encoder",
	kindRenderPass:      "render pass",
	kindComputePass:     "compute pass",
	kindCommandBuffer:   "command buffer",
}

func (k kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// object is one entry of the id table. Kind-specific data hangs off info
// so that the common entry stays small: a long stream keeps every object
// it creates (ids stay reserved), half a million of them in a stream of a
// million commands, and ten typed pointers, one of them ever set, made
// each entry 176 bytes instead of 96.
type object struct {
	id        ID
	createdAt int
	// liveRefs counts live bind groups and pipelines that name this object.
	liveRefs int
	// capturedBy is the encoder whose recorded work first referenced the
	// object. Recorded work can never be discarded in 2.0 (no
	// DestroyCommandBuffer, no completion primitive), so capture is final:
	// the object can no longer be destroyed (LIFETIMES.md, Submission And
	// Destruction Safety).
	capturedBy *object
	kind       kind
	// destroyed is set by a Destroy* command; the id stays reserved.
	destroyed bool

	// info is the data of the object's kind, set once when it is created:
	// a *bufferInfo, *textureInfo, *viewInfo, *shaderInfo, *layoutInfo,
	// *groupInfo, *pipelineInfo, *encoderInfo, *passInfo or
	// *commandBufferInfo, read through the methods of those names.
	info any

	// groups lists the bind groups whose entries name this buffer or
	// texture (directly or through a view), so that destroying the resource
	// can mark them unusable without scanning every bind group.
	groups []*object
}

// The kind's data, or nil when the object holds another kind's.
func (o *object) buf() *bufferInfo       { v, _ := o.info.(*bufferInfo); return v }
func (o *object) tex() *textureInfo      { v, _ := o.info.(*textureInfo); return v }
func (o *object) view() *viewInfo        { v, _ := o.info.(*viewInfo); return v }
func (o *object) shad() *shaderInfo      { v, _ := o.info.(*shaderInfo); return v }
func (o *object) lay() *layoutInfo       { v, _ := o.info.(*layoutInfo); return v }
func (o *object) group() *groupInfo      { v, _ := o.info.(*groupInfo); return v }
func (o *object) pipe() *pipelineInfo    { v, _ := o.info.(*pipelineInfo); return v }
func (o *object) enc() *encoderInfo      { v, _ := o.info.(*encoderInfo); return v }
func (o *object) pass() *passInfo        { v, _ := o.info.(*passInfo); return v }
func (o *object) cb() *commandBufferInfo { v, _ := o.info.(*commandBufferInfo); return v }

func (o *object) String() string { return o.kind.String() + " " + o.id.String() }

type bufferInfo struct {
	size  Num
	usage uint16
}

type textureInfo struct {
	dimension string
	width     Num
	height    Num
	depth     Num
	format    string
	mips      Num
	samples   Num
	usage     uint16
}

type viewInfo struct {
	texture *object
}

type shaderInfo struct {
	stage string
}

type layoutEntry struct {
	binding     ID
	bindingType string
	dynamic     bool
}

type layoutInfo struct {
	entries   []layoutEntry
	byBinding map[ID]int
	dynamic   int
}

type groupEntry struct {
	binding     ID
	bindingType string
	resource    *object
	// texture is the texture behind a texture or texture-view entry.
	texture   *object
	offset    Num
	size      Num
	hasOffset bool
	hasSize   bool
}

type groupInfo struct {
	layout  *object
	entries []groupEntry
	// dynamic lists entry indexes in layout entry order: the order in which
	// SetBindGroup consumes dynamic offsets.
	dynamic []int
	// dead is the first resource of the group destroyed after its
	// creation. SetBindGroup checks the buffers of dynamic entries one by
	// one, where the upstream runner does, and dead after them.
	dead *object
}

type pipelineInfo struct {
	vertexSlots Num
	// layouts are the bind_group_layout_ids, by slot; a pipeline that
	// declares none has no bind-group slot.
	layouts      []*object
	depthStencil bool
	refs         []*object
}

type encoderInfo struct {
	open     bool
	openPass *object
	buffer   *object
}

type passInfo struct {
	encoder  *object
	open     bool
	pipeline *object
	// vertex slots bound so far: a bit set for small slots, a map beyond,
	// and mex, the first unbound slot. Draw needs every slot below the
	// pipeline's vertex_buffer_slots, which holds exactly when mex reaches
	// it; mex only grows, so the check is O(1) amortized.
	lowSlots   uint64
	highSlots  map[uint64]struct{}
	mex        uint64
	indexBound bool
	// depthAccess: the depth/stencil attachment declares an access, so
	// pipelines bound in the pass need depth_stencil state.
	depthAccess bool
}

func (p *passInfo) bindSlot(slot Num) {
	if slot.isBig() {
		return
	}
	if slot.u < 64 {
		p.lowSlots |= 1 << slot.u
	} else {
		if p.highSlots == nil {
			p.highSlots = map[uint64]struct{}{}
		}
		p.highSlots[slot.u] = struct{}{}
	}
	for {
		if p.mex < 64 {
			if p.lowSlots&(1<<p.mex) == 0 {
				return
			}
		} else if _, ok := p.highSlots[p.mex]; !ok {
			return
		}
		p.mex++
	}
}

type commandBufferInfo struct {
	encoder   *object
	submitted bool
	// submitMark is the index of the last QueueSubmit that listed this
	// buffer, to find repeats inside one submit in O(1).
	submitMark int
}

// Usage bits of buffers and textures.
const (
	useMapRead uint16 = 1 << iota
	useMapWrite
	useCopySrc
	useCopyDst
	useIndex
	useVertex
	useUniform
	useStorage
	useIndirect
	useQueryResolve
	useTextureBinding
	useStorageBinding
	useRenderAttachment
)

var bufferUsages = map[string]uint16{
	"MAP_READ": useMapRead, "MAP_WRITE": useMapWrite, "COPY_SRC": useCopySrc,
	"COPY_DST": useCopyDst, "INDEX": useIndex, "VERTEX": useVertex,
	"UNIFORM": useUniform, "STORAGE": useStorage, "INDIRECT": useIndirect,
	"QUERY_RESOLVE": useQueryResolve,
}

var textureUsages = map[string]uint16{
	"COPY_SRC": useCopySrc, "COPY_DST": useCopyDst,
	"TEXTURE_BINDING": useTextureBinding, "STORAGE_BINDING": useStorageBinding,
	"RENDER_ATTACHMENT": useRenderAttachment,
}

var usageNames = map[uint16]string{
	useMapRead: "MAP_READ", useMapWrite: "MAP_WRITE", useCopySrc: "COPY_SRC",
	useCopyDst: "COPY_DST", useIndex: "INDEX", useVertex: "VERTEX",
	useUniform: "UNIFORM", useStorage: "STORAGE", useIndirect: "INDIRECT",
	useQueryResolve: "QUERY_RESOLVE", useTextureBinding: "TEXTURE_BINDING",
	useStorageBinding: "STORAGE_BINDING", useRenderAttachment: "RENDER_ATTACHMENT",
}
