package drp2

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

type gateKind uint8

const (
	gateBuffer gateKind = iota + 1
	gateTexture
	gateShader
)

// gate is a command the capability phase must look at, noted during the
// semantic pass so that the capability phase never decodes the stream again.
type gate struct {
	index        int
	kind         gateKind
	bufferSize   Num
	texture      *textureInfo
	shaderFormat string
	features     []string
}

// capabilities is the fixture capability object of CAPABILITIES.md. A field
// the fixture does not declare gates nothing: fixtures declare only what
// makes their outcome deterministic.
type capabilities struct {
	MaxBufferSize           json.Number   `json:"max_buffer_size"`
	MaxTextureDimension1D   json.Number   `json:"max_texture_dimension_1d"`
	MaxTextureDimension2D   json.Number   `json:"max_texture_dimension_2d"`
	MaxTextureDimension3D   json.Number   `json:"max_texture_dimension_3d"`
	SupportedTextureFormats *[]string     `json:"supported_texture_formats"`
	SupportedSampleCounts   []json.Number `json:"supported_sample_counts"`
	HasSampleCounts         bool          `json:"-"`
	SupportedShaderFormats  *[]string     `json:"supported_shader_formats"`
	SupportsFP64            *bool         `json:"supports_fp64"`
}

type capFailure struct {
	code, pointer, msg string
}

// capability runs the active 2.0 command gates (CAPABILITIES.md, Active
// 2.0 Command Gates) over the noted commands and reports the first failure.
func (s *state) capability(raw json.RawMessage) *model.Failure {
	if literal(raw) == "" {
		return nil
	}
	var c capabilities
	var probe struct {
		SampleCounts *json.RawMessage `json:"supported_sample_counts"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return &model.Failure{Phase: model.PhaseCapability, Code: codeInvalidArgument, CommandIndex: -1,
			Message: fmt.Sprintf("the capabilities object cannot be decoded: %v", err)}
	}
	_ = json.Unmarshal(raw, &probe)
	c.HasSampleCounts = probe.SampleCounts != nil && literal(*probe.SampleCounts) != ""
	limits := map[string]*number{}
	for name, v := range map[string]json.Number{
		"max_buffer_size": c.MaxBufferSize, "max_texture_dimension_1d": c.MaxTextureDimension1D,
		"max_texture_dimension_2d": c.MaxTextureDimension2D, "max_texture_dimension_3d": c.MaxTextureDimension3D,
	} {
		if v == "" {
			continue
		}
		n, ok := parseNumber(string(v))
		if !ok {
			return &model.Failure{Phase: model.PhaseCapability, Code: codeInvalidArgument, CommandIndex: -1,
				Message: fmt.Sprintf("capability %s is %s, not a non-negative integer", name, v)}
		}
		limits[name] = &n
	}
	var counts []number
	for i, v := range c.SupportedSampleCounts {
		n, ok := parseNumber(string(v))
		if !ok {
			return &model.Failure{Phase: model.PhaseCapability, Code: codeInvalidArgument, CommandIndex: -1,
				Message: fmt.Sprintf("capability supported_sample_counts[%d] is %s, not a non-negative integer", i, v)}
		}
		counts = append(counts, n)
	}
	for _, g := range s.gates {
		if cf := c.check(g, limits, counts); cf != nil {
			return &model.Failure{Phase: model.PhaseCapability, Code: cf.code, CommandIndex: g.index, Message: cf.msg, Pointer: cf.pointer}
		}
	}
	return nil
}

func (c *capabilities) check(g gate, limits map[string]*number, counts []number) *capFailure {
	switch g.kind {
	case gateBuffer:
		if max := limits["max_buffer_size"]; max != nil && cmp(g.bufferSize, max.val) > 0 {
			return &capFailure{codeUnsupportedCapability, "/size",
				fmt.Sprintf("CreateBuffer: size %s exceeds max_buffer_size %s", g.bufferSize, max.val)}
		}
	case gateTexture:
		t := g.texture
		if c.SupportedTextureFormats != nil && !contains(*c.SupportedTextureFormats, t.format) {
			return &capFailure{codeUnsupportedCapability, "/format",
				fmt.Sprintf("CreateTexture: format %q is not in supported_texture_formats", t.format)}
		}
		if c.HasSampleCounts {
			found := false
			for _, n := range counts {
				if cmp(n.val, t.samples) == 0 {
					found = true
					break
				}
			}
			if !found {
				return &capFailure{codeUnsupportedCapability, "/sample_count",
					fmt.Sprintf("CreateTexture: sample_count %s is not in supported_sample_counts", t.samples)}
			}
		}
		name := "max_texture_dimension_" + t.dimension
		max := limits[name]
		if max == nil {
			return nil
		}
		axes := []struct {
			v    Num
			name string
		}{{t.width, "width"}}
		switch t.dimension {
		case "2d":
			axes = append(axes, struct {
				v    Num
				name string
			}{t.height, "height"})
		case "3d":
			axes = append(axes, struct {
				v    Num
				name string
			}{t.height, "height"}, struct {
				v    Num
				name string
			}{t.depth, "depth"})
		}
		for _, a := range axes {
			if cmp(a.v, max.val) > 0 {
				return &capFailure{codeUnsupportedCapability, "/" + a.name,
					fmt.Sprintf("CreateTexture: %s %s of a %s texture exceeds %s %s", a.name, a.v, t.dimension, name, max.val)}
			}
		}
	case gateShader:
		if c.SupportedShaderFormats != nil && !contains(*c.SupportedShaderFormats, g.shaderFormat) {
			return &capFailure{codeUnsupportedCapability, "/format",
				fmt.Sprintf("CreateShaderModule: shader format %q is not in supported_shader_formats", g.shaderFormat)}
		}
		for i, feat := range g.features {
			if feat == "fp64" && c.SupportsFP64 != nil && !*c.SupportsFP64 {
				return &capFailure{codeFeatureRequired, "/required_features/" + strconv.Itoa(i),
					"CreateShaderModule: the module requires fp64 but supports_fp64 is false"}
			}
		}
	}
	return nil
}
