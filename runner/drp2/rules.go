package drp2

import "sort"

// rule is one prose rule the validator applies. Every verdict of the
// package names exactly one rule, and a failure's code is the rule's code,
// so the catalogue, the messages and the trace cannot drift apart: a check
// is written as
//
//	if s.broken(r, condition) { return s.fail(r, pointer, message...) }
//
// where broken records that r was evaluated and fail builds the failure
// from r.
type rule struct {
	id      string
	code    string
	summary string
}

// catalogue lists every rule, in declaration order; Rules sorts a copy.
var catalogue []*rule

func newRule(id, code, summary string) *rule {
	r := &rule{id: id, code: code, summary: summary}
	catalogue = append(catalogue, r)
	return r
}

// RuleInfo describes one rule the validator implements.
type RuleInfo struct {
	// ID names the prose rule as file, section and rule number, the way the
	// prose numbers it ("COMMANDS.md WriteBuffer rule 2"). It is the value
	// of model.Failure.Rule for verdicts that apply the rule.
	ID string
	// Code is the DRP2 error code a violation yields; empty for a rule that
	// is reported only as a finding and never fails a stream.
	Code string
	// Summary paraphrases the rule as the validator applies it.
	Summary string
}

// Rules returns every rule the validator implements, sorted by ID.
func Rules() []RuleInfo {
	out := make([]RuleInfo, len(catalogue))
	for i, r := range catalogue {
		out[i] = RuleInfo{ID: r.id, Code: r.code, Summary: r.summary}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Decoding and the command set.
var (
	ruleDecode = newRule("ERRORS.md Validation Phases rule 1", codeInvalidArgument,
		"a command field the validator cannot read (missing, mistyped, negative or fractional where an id or count is due) is rejected; the command schema normally rejects it first")
	ruleUnknownCommand = newRule("COMMANDS.md Active Command Surface", codeUnknownCommand,
		"only the active 2.0 commands are accepted; deferred and unknown command names are rejected")
)

// Versions and the session.
var (
	ruleVersionMajor = newRule("VERSIONING.md Producer and Runtime Rules rule 4", codeUnsupportedVersion,
		"a stream, HelloRenderer or RendererHelloReply (whatever its status) declaring a major version other than 2 fails at once")
	ruleHandshakeFirst = newRule("LIFETIMES.md Session State note 1", codeInvalidState,
		"every stream opens with HelloRenderer; an empty stream, or a RendererHelloReply with no HelloRenderer before it, fails")
	ruleHandshakeOnce = newRule("LIFETIMES.md Session State rule 5", codeInvalidState,
		"HelloRenderer and RendererHelloReply are single-use: neither may be repeated once negotiation started")
	ruleNeedsReady = newRule("LIFETIMES.md Session State rule 7", codeInvalidState,
		"resource and recording commands need a ready session: a HelloRenderer answered by a RendererHelloReply with status ok")
	ruleErrorAfterHello = newRule("COMMANDS.md Error rule 2", codeInvalidState,
		"an Error command is valid only after HelloRenderer opened the stream")
)

// Identity and type.
var (
	ruleUnknownID = newRule("ERRORS.md Identity And Type rule 1", codeInvalidID,
		"a referenced id that no command created is DRP2_ERR_INVALID_ID, for encoders and passes too")
	ruleDestroyedID = newRule("ERRORS.md Identity And Type rule 2", codeDestroyedObject,
		"a referenced id whose object was destroyed earlier in the stream is DRP2_ERR_DESTROYED_OBJECT, whatever its kind")
	ruleDuplicateID = newRule("ERRORS.md Identity And Type rule 3", codeDuplicateID,
		"a create command may not reuse any id of the stream, live or destroyed, of any kind; checked after every other check of the command")
	ruleWrongKind = newRule("ERRORS.md Identity And Type rule 4", codeWrongObjectType,
		"a live id of the wrong object kind is DRP2_ERR_WRONG_OBJECT_TYPE")
	ruleBindingKind = newRule("ERRORS.md Identity And Type rule 5", codeWrongObjectType,
		"a bind-group entry whose resource_kind does not suit its binding_type is rejected (the schema normally rejects it first)")
	ruleEndedPass = newRule("LIFETIMES.md Pass State Machine rule 5", codeDestroyedObject,
		"SetPipeline, SetBindGroup and End*Pass aimed at a pass that already ended are DRP2_ERR_DESTROYED_OBJECT")
)

// Encoder and pass scope.
var (
	ruleOutsidePass = newRule("COMMANDS.md Common Field Semantics rule 4", codeInvalidState,
		"resource, bind-group, shader, pipeline, upload and destroy commands are invalid while any pass is open")
	ruleEncoderFinished = newRule("LIFETIMES.md Command Encoder State Machine rule 6", codeInvalidState,
		"no command may target an encoder that already finished")
	ruleFinishOpenPass = newRule("LIFETIMES.md Command Encoder State Machine rule 7", codeInvalidState,
		"an encoder with an open pass cannot finish")
	ruleOnePass = newRule("LIFETIMES.md Command Encoder State Machine rule 8", codeInvalidState,
		"a pass cannot begin while another pass of the same encoder is open")
	ruleCopyInPass = newRule("LIFETIMES.md Command Validity By Scope additional rule 3", codeInvalidState,
		"copy commands are invalid while a pass of their encoder is open")
	ruleBarrierScope = newRule("COMMANDS.md ResourceBarrier rule 1", codeInvalidState,
		"ResourceBarrier is invalid while a pass of its encoder is open")
	ruleDrawScope = newRule("LIFETIMES.md Command Validity By Scope additional rule 1", codeInvalidState,
		"Draw and DrawIndexed need an open render pass: a pass_id that names no pass, or a pass that ended, is DRP2_ERR_INVALID_STATE")
	ruleDispatchScope = newRule("LIFETIMES.md Command Validity By Scope additional rule 2", codeInvalidState,
		"DispatchWorkgroups needs an open compute pass: a pass_id that names no pass, or a pass that ended, is DRP2_ERR_INVALID_STATE")
	ruleVertexScope = newRule("COMMANDS.md SetVertexBuffer rule 1", codeInvalidState,
		"SetVertexBuffer needs an open render pass: a pass_id that names no pass, or a pass that ended, is DRP2_ERR_INVALID_STATE")
	ruleIndexScope = newRule("COMMANDS.md SetIndexBuffer rule 1", codeInvalidState,
		"SetIndexBuffer needs an open render pass: a pass_id that names no pass, or a pass that ended, is DRP2_ERR_INVALID_STATE")
	ruleRenderStateScope = newRule("ERRORS.md State Versus Usage rule 1", codeInvalidState,
		"SetViewport, SetScissor, SetBlendConstant and SetStencilReference need an open render pass: a pass_id that names no pass, or a pass that ended, is DRP2_ERR_INVALID_STATE")
	ruleRenderStateKind = newRule("LIFETIMES.md Command Validity By Scope additional rule 4", codePassMismatch,
		"SetViewport, SetScissor, SetBlendConstant and SetStencilReference aimed at a compute pass are a pass mismatch")
	ruleEndRenderKind = newRule("LIFETIMES.md Command Validity By Scope additional rule 5", codePassMismatch,
		"EndRenderPass aimed at a compute pass is a pass mismatch")
	ruleEndComputeKind = newRule("LIFETIMES.md Command Validity By Scope additional rule 6", codePassMismatch,
		"EndComputePass aimed at a render pass is a pass mismatch")
	rulePassKind = newRule("LIFETIMES.md Submission And Destruction Safety consequence 3", codePassMismatch,
		"draws, vertex and index buffers in a compute pass, and dispatches in a render pass, are pass mismatches")
	rulePipelineKind = newRule("LIFETIMES.md Pipeline And Pass Compatibility rule 2", codePassMismatch,
		"SetPipeline needs a pipeline of the pass's kind: a render pipeline in a compute pass, or the reverse, is a pass mismatch")
	ruleDepthPipeline = newRule("COMMANDS.md CreateRenderPipeline rule 8", codePipelineMismatch,
		"a render pipeline without depth_stencil cannot be bound in a pass whose depth/stencil attachment declares an access (depth writes or comparison)")
)

// Recording state.
var (
	ruleBindNeedsPipeline = newRule("COMMANDS.md SetBindGroup rule 2", codeInvalidState,
		"SetBindGroup needs a pipeline bound earlier in the same pass")
	ruleBindSlot = newRule("COMMANDS.md SetBindGroup rule 3", codeInvalidState,
		"the bound pipeline must declare a bind-group layout for the slot; a pipeline that declares none has no slot")
	ruleBindLayout = newRule("LIFETIMES.md Pipeline And Pass Compatibility rule 13", codeInvalidState,
		"the bind group must come from the exact layout the bound pipeline declares for the slot")
	ruleDynamicCount = newRule("LIFETIMES.md Pipeline And Pass Compatibility rule 14", codeInvalidState,
		"SetBindGroup gives exactly one dynamic offset per dynamic binding of the layout")
	ruleBindDead = newRule("COMMANDS.md CreateBindGroup rule 5", codeDestroyedObject,
		"a bind group whose buffer, texture or view was destroyed after its creation cannot be set")
	ruleDynamicRange = newRule("LIFETIMES.md Pipeline And Pass Compatibility rule 15", codeOutOfRange,
		"a dynamic offset moves its binding's range, which must still fit in the buffer")
	ruleDrawPipeline = newRule("COMMANDS.md Draw rule 2", codeInvalidState,
		"Draw needs a render pipeline bound earlier in the same pass")
	ruleDrawSlots = newRule("COMMANDS.md Draw rule 3", codeInvalidState,
		"Draw needs every vertex-buffer slot the bound pipeline requires")
	ruleDrawIndexedPipeline = newRule("COMMANDS.md DrawIndexed rule 1", codeInvalidState,
		"DrawIndexed needs a render pipeline bound earlier in the same pass")
	ruleDrawIndexedSlots = newRule("COMMANDS.md DrawIndexed rule 2", codeInvalidState,
		"DrawIndexed needs every vertex-buffer slot the bound pipeline requires")
	ruleDrawIndexedIndex = newRule("COMMANDS.md DrawIndexed rule 3", codeInvalidState,
		"DrawIndexed needs an index buffer bound earlier in the same pass")
	ruleDispatchPipeline = newRule("COMMANDS.md DispatchWorkgroups rule 2", codeInvalidState,
		"DispatchWorkgroups needs a compute pipeline bound earlier in the same pass")
	ruleVertexUsage = newRule("LIFETIMES.md Pipeline And Pass Compatibility rule 5", codeUsage,
		"SetVertexBuffer needs a buffer with VERTEX usage")
	ruleIndexUsage = newRule("LIFETIMES.md Pipeline And Pass Compatibility rule 6", codeUsage,
		"SetIndexBuffer needs a buffer with INDEX usage")
	ruleBufferBounds = newRule("ERRORS.md Range, Layout, And Alignment rule 4", codeOutOfRange,
		"vertex and index bindings, barriers and the buffer side of buffer/texture copies must fit in their buffer; an offset past the end is out of range even without a size")
	ruleBarrierStorage = newRule("COMMANDS.md ResourceBarrier rule 2", codeUsage,
		"a ResourceBarrier buffer needs STORAGE usage")
	ruleBarrierVertex = newRule("COMMANDS.md ResourceBarrier rule 3", codeUsage,
		"a ResourceBarrier towards VERTEX_INPUT needs VERTEX usage")
	ruleBarrierCopy = newRule("COMMANDS.md ResourceBarrier rule 4", codeUsage,
		"a ResourceBarrier towards COPY needs COPY_SRC usage")
)

// Buffers, textures and transfers.
var (
	ruleWriteBufferRange = newRule("COMMANDS.md WriteBuffer rule 1", codeOutOfRange,
		"WriteBuffer's offset + size must fit in the buffer (checked before the payload)")
	ruleWriteBufferSize = newRule("COMMANDS.md WriteBuffer rule 2", codeInvalidArgument,
		"WriteBuffer's size must equal the decoded payload length")
	ruleWriteBufferData = newRule("COMMANDS.md WriteBuffer field data", codeInvalidArgument,
		"WriteBuffer's data must be padded standard base64, the schema's contentEncoding")
	ruleWriteTextureData = newRule("COMMANDS.md WriteTexture field data", codeInvalidArgument,
		"WriteTexture's data must be padded standard base64, the schema's contentEncoding")
	ruleMipLevel = newRule("LIFETIMES.md Range And Layout Invariants rule 7", codeOutOfRange,
		"WriteTexture, CopyBufferToTexture and CopyTextureToBuffer must select an allocated mip level (checked first)")
	ruleWriteTextureBox = newRule("LIFETIMES.md Range And Layout Invariants rule 5", codeOutOfRange,
		"WriteTexture's box must fit in the selected subresource (checked before the layout)")
	ruleCopyToTextureBox = newRule("LIFETIMES.md Range And Layout Invariants rule 3", codeOutOfRange,
		"CopyBufferToTexture's destination box must fit in the selected subresource (checked before the layout)")
	ruleCopyFromTextureBox = newRule("LIFETIMES.md Range And Layout Invariants rule 4", codeOutOfRange,
		"CopyTextureToBuffer's source box must fit in the selected subresource (checked before the layout)")
	ruleTransferLayout = newRule("LIFETIMES.md Range And Layout Invariants rule 8", codeLayout,
		"bytes_per_row covers one row of texels, rows_per_image is not zero, and covers the copy height when the transfer has several images")
	ruleWriteTexturePayload = newRule("COMMANDS.md WriteTexture rule 4", codeLayout,
		"WriteTexture's payload must hold the bytes its layout and extent describe")
	ruleCopyTextureMip = newRule("COMMANDS.md CopyTextureToTexture rule 1", codeOutOfRange,
		"CopyTextureToTexture's source and destination mip levels must be allocated")
	ruleCopyTextureSrcBox = newRule("COMMANDS.md CopyTextureToTexture rule 2", codeOutOfRange,
		"CopyTextureToTexture's source box must fit in the source subresource")
	ruleCopyTextureDstBox = newRule("COMMANDS.md CopyTextureToTexture rule 3", codeOutOfRange,
		"CopyTextureToTexture's destination box must fit in the destination subresource")
	ruleCopyTextureUsage = newRule("COMMANDS.md CopyTextureToTexture rule 4", codeUsage,
		"CopyTextureToTexture needs COPY_SRC on the source and COPY_DST on the destination")
	ruleCopyTextureOverlap = newRule("COMMANDS.md CopyTextureToTexture rule 5", codeInvalidArgument,
		"a texture copied onto itself must not overlap its own subresources")
	ruleCopyBufferRange = newRule("COMMANDS.md CopyBufferToBuffer rule 1", codeOutOfRange,
		"CopyBufferToBuffer's source and destination ranges must fit in their buffers")
	ruleCopyBufferUsage = newRule("COMMANDS.md CopyBufferToBuffer rule 2", codeUsage,
		"CopyBufferToBuffer needs COPY_SRC on the source and COPY_DST on the destination")
	ruleDeclaredUsage = newRule("ERRORS.md State Versus Usage rule 5", codeUsage,
		"buffer/texture copies need COPY_SRC and COPY_DST on their ends, and render-pass attachments RENDER_ATTACHMENT")
	ruleViewMips = newRule("COMMANDS.md CreateTextureView rule 2", codeOutOfRange,
		"a view's mip_range must lie within the texture's mip levels")
	ruleViewLayers = newRule("COMMANDS.md CreateTextureView rule 3", codeOutOfRange,
		"an array or cube view's layer_range must lie within the texture's depth; other view dimensions are not bounded")
	ruleViewFormat = newRule("COMMANDS.md CreateTextureView field format", codeFormatMismatch,
		"a view's format must be the texture's format or its sRGB twin")
)

// Bind groups and layouts.
var (
	ruleLayoutDuplicate = newRule("COMMANDS.md CreateBindGroupLayout rule 2", codeInvalidArgument,
		"a layout may declare each binding index once (checked before the dynamic flags)")
	ruleLayoutDynamic = newRule("COMMANDS.md CreateBindGroupLayout rule 3", codeInvalidArgument,
		"only uniform and storage buffer bindings may have a dynamic offset")
	ruleGroupEntries = newRule("LIFETIMES.md Bind-Group Lifetime consequence 3", codeInvalidArgument,
		"a bind group's entries must be exactly the layout's bindings with the layout's binding types (checked before any entry's resource)")
	ruleGroupDynamic = newRule("LIFETIMES.md Bind-Group Lifetime consequence 4", codeInvalidArgument,
		"an entry for a dynamic binding must give both offset and size")
	ruleGroupUsage = newRule("LIFETIMES.md Bind-Group Lifetime consequence 2", codeUsage,
		"an entry's resource needs the usage its binding type implies (a view is judged by its texture)")
	ruleGroupRange = newRule("COMMANDS.md CreateBindGroup rule 7", codeOutOfRange,
		"an entry that gives offset and size must fit in its buffer")
	ruleGroupDuplicate = newRule("COMMANDS.md CreateBindGroupLayout rule 6", codeInvalidArgument,
		"a bind group may give each binding once")
)

// Pipelines.
var (
	ruleVertexStage = newRule("COMMANDS.md CreateRenderPipeline rule 2", codeInvalidArgument,
		"the vertex slot needs a VERTEX module (checked before the fragment module is resolved)")
	ruleFragmentStage = newRule("COMMANDS.md CreateRenderPipeline rule 3", codeInvalidArgument,
		"the fragment slot needs a FRAGMENT module")
	ruleComputeStage = newRule("COMMANDS.md CreateComputePipeline rule 2", codeInvalidArgument,
		"the compute slot needs a COMPUTE module")
	ruleVertexBuffers = newRule("COMMANDS.md CreateRenderPipeline rule 6", codeInvalidArgument,
		"vertex_buffers, when present, has vertex_buffer_slots entries")
)

// Destruction.
var (
	ruleDestroyOpen = newRule("LIFETIMES.md Submission And Destruction Safety rule 1", codeUsage,
		"an object used by an open encoder or pass cannot be destroyed")
	ruleDestroyRecorded = newRule("LIFETIMES.md Submission And Destruction Safety rule 4", codeUsage,
		"an object used by a finished, unsubmitted command buffer cannot be destroyed")
	ruleDestroySubmitted = newRule("LIFETIMES.md Submission And Destruction Safety rule 5", codeUsage,
		"an object used by submitted work cannot be destroyed: 2.0 has no completion tracking")
	ruleDestroySampler = newRule("COMMANDS.md DestroySampler rule 2", codeUsage,
		"a sampler named by a live bind group cannot be destroyed")
	ruleDestroyView = newRule("COMMANDS.md DestroyTextureView rule 2", codeUsage,
		"a texture view named by a live bind group cannot be destroyed")
	ruleDestroyLayout = newRule("COMMANDS.md DestroyBindGroupLayout rule 2", codeUsage,
		"a bind-group layout named by a live bind group or pipeline cannot be destroyed")
	ruleDestroyShader = newRule("COMMANDS.md DestroyShaderModule rule 2", codeUsage,
		"a shader module named by a live pipeline cannot be destroyed")
)

// Submission and readbacks.
var (
	ruleSubmitListedTwice = newRule("LIFETIMES.md Command Buffer Lifetime rule 6", codeInvalidArgument,
		"one QueueSubmit may list a command buffer once (checked before the id is resolved)")
	ruleResubmit = newRule("COMMANDS.md QueueSubmit rule 3", codeInvalidState,
		"a command buffer may be submitted at most once")
	ruleSubmissionID = newRule("LIFETIMES.md Readback Lifetime rule 4", codeInvalidArgument,
		"a QueueSubmit with readbacks needs a submission_id (checked before the readbacks)")
	ruleReadbackUsage = newRule("LIFETIMES.md Readback Lifetime rule 2", codeUsage,
		"a readback buffer needs MAP_READ usage")
	ruleReadbackRange = newRule("LIFETIMES.md Readback Lifetime rule 3", codeOutOfRange,
		"a readback range must fit in its buffer")
	ruleReplyPending = newRule("LIFETIMES.md Readback Lifetime consequence 3", codeInvalidState,
		"a QueueSubmitReply must answer a submission with readbacks that awaits its reply")
	ruleReplyOrder = newRule("LIFETIMES.md Readback Lifetime rule 6", codeInvalidState,
		"replies come in submission order: answering a later submission first is invalid")
	ruleReplyMirror = newRule("LIFETIMES.md Readback Lifetime consequence 4", codeInvalidArgument,
		"a reply's readbacks mirror the request: same count, buffers, offsets and sizes, in order")
	ruleReplyData = newRule("LIFETIMES.md Readback Lifetime rule 9", "",
		"each reply data should be padded base64 of exactly size bytes; reported as a finding, never a failure, because CONFORMANCE.md leaves reply data unverified in 2.0")
)

// Capability gates (CAPABILITIES.md), run after the semantic phase passed.
var (
	ruleCapDecode = newRule("CAPABILITIES.md Fixture Capability Shape", codeInvalidArgument,
		"the capabilities object must have the fixture capability shape (the fixture schema normally rejects it first)")
	ruleCapBufferSize = newRule("CAPABILITIES.md Active 2.0 Command Gates rule 1", codeUnsupportedCapability,
		"CreateBuffer size must not exceed max_buffer_size")
	ruleCapTextureFormat = newRule("CAPABILITIES.md Active 2.0 Command Gates rule 2", codeUnsupportedCapability,
		"CreateTexture format must be in supported_texture_formats")
	ruleCapSampleCount = newRule("CAPABILITIES.md Active 2.0 Command Gates rule 3", codeUnsupportedCapability,
		"CreateTexture sample_count must be in supported_sample_counts")
	ruleCapTextureSize = newRule("CAPABILITIES.md Active 2.0 Command Gates rule 4", codeUnsupportedCapability,
		"CreateTexture extents must not exceed max_texture_dimension_* of the texture's dimension")
	ruleCapShaderFormat = newRule("CAPABILITIES.md Active 2.0 Command Gates rule 5", codeUnsupportedCapability,
		"CreateShaderModule format must be in supported_shader_formats")
	ruleCapFP64 = newRule("CAPABILITIES.md Active 2.0 Command Gates rule 6", codeFeatureRequired,
		"a shader module requiring fp64 needs supports_fp64 = true in a given capabilities object; absent counts as false")
	ruleCapPipelineSamples = newRule("CAPABILITIES.md Capability Categories rule 4", codeUnsupportedCapability,
		"a render pipeline's sample_count (or multisample.sample_count; 1 when absent) must be in supported_sample_counts")
)
