package drp2

import "encoding/json"

// wire is one DRP2 command as it arrives: the union of the fields of every
// active command, decoded once. Numbers stay json.Number so that no integer
// is rounded through float64; fields whose shape differs between commands
// ("size" is a byte count or an extent) stay raw until the command kind is
// known. Unknown fields are ignored, as the schema already judged them.
type wire struct {
	Cmd     string       `json:"cmd"`
	ID      json.Number  `json:"id"`
	Version *versionWire `json:"version"`
	Status  string       `json:"status"`

	Size   json.RawMessage `json:"size"`
	Usage  []string        `json:"usage"`
	Offset json.Number     `json:"offset"`
	Data   *string         `json:"data"`

	BufferID      json.Number `json:"buffer_id"`
	TextureID     json.Number `json:"texture_id"`
	Dimension     string      `json:"dimension"`
	Width         json.Number `json:"width"`
	Height        json.Number `json:"height"`
	Depth         json.Number `json:"depth"`
	Format        string      `json:"format"`
	MipLevelCount json.Number `json:"mip_level_count"`
	SampleCount   json.Number `json:"sample_count"`
	MipLevel      json.Number `json:"mip_level"`
	Origin        *originWire `json:"origin"`
	BytesPerRow   json.Number `json:"bytes_per_row"`
	RowsPerImage  json.Number `json:"rows_per_image"`
	MipRange      *rangeWire  `json:"mip_range"`
	LayerRange    *rangeWire  `json:"layer_range"`
	Aspect        string      `json:"aspect"`

	BindGroupLayoutID json.Number `json:"bind_group_layout_id"`
	Entries           []entryWire `json:"entries"`
	BindGroupID       json.Number `json:"bind_group_id"`

	Stage            string      `json:"stage"`
	RequiredFeatures []string    `json:"required_features"`
	ShaderModuleID   json.Number `json:"shader_module_id"`

	VertexShaderModuleID   json.Number        `json:"vertex_shader_module_id"`
	FragmentShaderModuleID json.Number        `json:"fragment_shader_module_id"`
	ComputeShaderModuleID  json.Number        `json:"compute_shader_module_id"`
	VertexBufferSlots      json.Number        `json:"vertex_buffer_slots"`
	VertexBuffers          *[]json.RawMessage `json:"vertex_buffers"`
	BindGroupLayoutIDs     *[]json.Number     `json:"bind_group_layout_ids"`
	Multisample            *multisampleWire   `json:"multisample"`
	DepthStencil           json.RawMessage    `json:"depth_stencil"`
	RenderPipelineID       json.Number        `json:"render_pipeline_id"`
	ComputePipelineID      json.Number        `json:"compute_pipeline_id"`

	EncoderID              json.Number      `json:"encoder_id"`
	CommandBufferID        json.Number      `json:"command_buffer_id"`
	ColorAttachments       []attachmentWire `json:"color_attachments"`
	DepthStencilAttachment *attachmentWire  `json:"depth_stencil_attachment"`
	PassID                 json.Number      `json:"pass_id"`
	PipelineID             json.Number      `json:"pipeline_id"`
	Slot                   json.Number      `json:"slot"`
	DynamicOffsets         *[]json.Number   `json:"dynamic_offsets"`
	DstStage               string           `json:"dst_stage"`
	CommandBufferIDs       []json.Number    `json:"command_buffer_ids"`
	SubmissionID           json.Number      `json:"submission_id"`
	Readbacks              []readbackWire   `json:"readbacks"`
	SrcBufferID            json.Number      `json:"src_buffer_id"`
	DstBufferID            json.Number      `json:"dst_buffer_id"`
	SrcOffset              json.Number      `json:"src_offset"`
	DstOffset              json.Number      `json:"dst_offset"`
	SrcTextureID           json.Number      `json:"src_texture_id"`
	DstTextureID           json.Number      `json:"dst_texture_id"`
	SrcMipLevel            json.Number      `json:"src_mip_level"`
	DstMipLevel            json.Number      `json:"dst_mip_level"`
	SrcOrigin              *originWire      `json:"src_origin"`
	DstOrigin              *originWire      `json:"dst_origin"`
}

type versionWire struct {
	Major json.Number `json:"major"`
	Minor json.Number `json:"minor"`
}

type originWire struct {
	X json.Number `json:"x"`
	Y json.Number `json:"y"`
	Z json.Number `json:"z"`
}

type extentWire struct {
	Width  json.Number `json:"width"`
	Height json.Number `json:"height"`
	Depth  json.Number `json:"depth"`
}

type rangeWire struct {
	Base  json.Number `json:"base"`
	Count json.Number `json:"count"`
}

// entryWire is a bind-group entry or a bind-group-layout entry.
type entryWire struct {
	Binding          json.Number `json:"binding"`
	BindingType      string      `json:"binding_type"`
	ResourceKind     string      `json:"resource_kind"`
	ResourceID       json.Number `json:"resource_id"`
	Offset           json.Number `json:"offset"`
	Size             json.Number `json:"size"`
	HasDynamicOffset bool        `json:"has_dynamic_offset"`
}

type attachmentWire struct {
	TextureID              json.Number `json:"texture_id"`
	ResolveTargetTextureID json.Number `json:"resolve_target_texture_id"`
	Access                 string      `json:"access"`
}

type readbackWire struct {
	BufferID json.Number `json:"buffer_id"`
	Offset   json.Number `json:"offset"`
	Size     json.Number `json:"size"`
	Data     *string     `json:"data"`
}

type multisampleWire struct {
	SampleCount json.Number `json:"sample_count"`
}
