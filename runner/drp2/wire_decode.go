package drp2

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
)

// decode fills w, which must be zero, from one command object. Commands
// whose members are all plain numbers, strings and lists of strings (every
// command of a long stream, in practice) are read directly, member by
// member, without encoding/json's reflection; any other value, a key with
// an escape or a key that is no field, hands the whole command to
// encoding/json, so that the result, and any error, is always what
// json.Unmarshal gives.
func (w *wire) decode(raw []byte) error {
	if w.decodeFast(raw) {
		return nil
	}
	*w = wire{}
	return json.Unmarshal(raw, w)
}

// decodeFast reports false when it cannot read raw as json.Unmarshal
// would; w is then partly filled.
func (w *wire) decodeFast(raw []byte) bool {
	it, ok := jsonpos.Object(raw)
	if !ok {
		return false
	}
	for it.Next() {
		if it.Escaped() {
			return false
		}
		v := it.Value()
		var ok bool
		switch string(it.Key()) {
		case "cmd":
			ok = stringField(v, &w.Cmd)
		case "id":
			ok = numberField(v, &w.ID)
		case "version":
			ok = json.Unmarshal(v, &w.Version) == nil
		case "status":
			ok = stringField(v, &w.Status)
		case "size":
			w.Size, ok = append(json.RawMessage(nil), v...), true
		case "usage":
			ok = stringsField(v, &w.Usage)
		case "offset":
			ok = numberField(v, &w.Offset)
		case "data":
			ok = stringPtrField(v, &w.Data)
		case "buffer_id":
			ok = numberField(v, &w.BufferID)
		case "texture_id":
			ok = numberField(v, &w.TextureID)
		case "dimension":
			ok = stringField(v, &w.Dimension)
		case "width":
			ok = numberField(v, &w.Width)
		case "height":
			ok = numberField(v, &w.Height)
		case "depth":
			ok = numberField(v, &w.Depth)
		case "format":
			ok = stringField(v, &w.Format)
		case "mip_level_count":
			ok = numberField(v, &w.MipLevelCount)
		case "sample_count":
			ok = numberField(v, &w.SampleCount)
		case "mip_level":
			ok = numberField(v, &w.MipLevel)
		case "origin":
			ok = json.Unmarshal(v, &w.Origin) == nil
		case "bytes_per_row":
			ok = numberField(v, &w.BytesPerRow)
		case "rows_per_image":
			ok = numberField(v, &w.RowsPerImage)
		case "mip_range":
			ok = json.Unmarshal(v, &w.MipRange) == nil
		case "layer_range":
			ok = json.Unmarshal(v, &w.LayerRange) == nil
		case "aspect":
			ok = stringField(v, &w.Aspect)
		case "bind_group_layout_id":
			ok = numberField(v, &w.BindGroupLayoutID)
		case "entries":
			ok = json.Unmarshal(v, &w.Entries) == nil
		case "bind_group_id":
			ok = numberField(v, &w.BindGroupID)
		case "stage":
			ok = stringField(v, &w.Stage)
		case "required_features":
			ok = stringsField(v, &w.RequiredFeatures)
		case "shader_module_id":
			ok = numberField(v, &w.ShaderModuleID)
		case "vertex_shader_module_id":
			ok = numberField(v, &w.VertexShaderModuleID)
		case "fragment_shader_module_id":
			ok = numberField(v, &w.FragmentShaderModuleID)
		case "compute_shader_module_id":
			ok = numberField(v, &w.ComputeShaderModuleID)
		case "vertex_buffer_slots":
			ok = numberField(v, &w.VertexBufferSlots)
		case "vertex_buffers":
			ok = json.Unmarshal(v, &w.VertexBuffers) == nil
		case "bind_group_layout_ids":
			ok = json.Unmarshal(v, &w.BindGroupLayoutIDs) == nil
		case "multisample":
			ok = json.Unmarshal(v, &w.Multisample) == nil
		case "depth_stencil":
			w.DepthStencil, ok = append(json.RawMessage(nil), v...), true
		case "render_pipeline_id":
			ok = numberField(v, &w.RenderPipelineID)
		case "compute_pipeline_id":
			ok = numberField(v, &w.ComputePipelineID)
		case "encoder_id":
			ok = numberField(v, &w.EncoderID)
		case "command_buffer_id":
			ok = numberField(v, &w.CommandBufferID)
		case "color_attachments":
			ok = json.Unmarshal(v, &w.ColorAttachments) == nil
		case "depth_stencil_attachment":
			ok = json.Unmarshal(v, &w.DepthStencilAttachment) == nil
		case "pass_id":
			ok = numberField(v, &w.PassID)
		case "pipeline_id":
			ok = numberField(v, &w.PipelineID)
		case "slot":
			ok = numberField(v, &w.Slot)
		case "dynamic_offsets":
			ok = json.Unmarshal(v, &w.DynamicOffsets) == nil
		case "dst_stage":
			ok = stringField(v, &w.DstStage)
		case "command_buffer_ids":
			ok = json.Unmarshal(v, &w.CommandBufferIDs) == nil
		case "submission_id":
			ok = numberField(v, &w.SubmissionID)
		case "readbacks":
			ok = json.Unmarshal(v, &w.Readbacks) == nil
		case "src_buffer_id":
			ok = numberField(v, &w.SrcBufferID)
		case "dst_buffer_id":
			ok = numberField(v, &w.DstBufferID)
		case "src_offset":
			ok = numberField(v, &w.SrcOffset)
		case "dst_offset":
			ok = numberField(v, &w.DstOffset)
		case "src_texture_id":
			ok = numberField(v, &w.SrcTextureID)
		case "dst_texture_id":
			ok = numberField(v, &w.DstTextureID)
		case "src_mip_level":
			ok = numberField(v, &w.SrcMipLevel)
		case "dst_mip_level":
			ok = numberField(v, &w.DstMipLevel)
		case "src_origin":
			ok = json.Unmarshal(v, &w.SrcOrigin) == nil
		case "dst_origin":
			ok = json.Unmarshal(v, &w.DstOrigin) == nil
		default:
			return false
		}
		if !ok {
			return false
		}
	}
	return !it.Failed()
}

// numberField reads a number token (null leaves the field empty, as
// json.Unmarshal does); anything else is left to json.Unmarshal.
func numberField(v []byte, out *json.Number) bool {
	switch {
	case len(v) == 0:
		return false
	case v[0] == '-' || (v[0] >= '0' && v[0] <= '9'):
		*out = json.Number(v)
		return true
	}
	return string(v) == "null"
}

// plainString returns the content of a string token without escapes in
// valid UTF-8.
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

func stringField(v []byte, out *string) bool {
	if string(v) == "null" {
		return true
	}
	s, ok := plainString(v)
	*out = s
	return ok
}

func stringPtrField(v []byte, out **string) bool {
	if string(v) == "null" {
		return true
	}
	s, ok := plainString(v)
	*out = &s
	return ok
}

// stringsField reads an array of plain strings, or null.
func stringsField(v []byte, out *[]string) bool {
	if string(v) == "null" {
		return true
	}
	items, ok := jsonpos.Values(v, nil)
	if !ok {
		return false
	}
	list := make([]string, len(items))
	for i, item := range items {
		if list[i], ok = plainString(item); !ok {
			return false
		}
	}
	*out = list
	return true
}
