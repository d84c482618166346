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

// capabilityWire is the fixture capability object of CAPABILITIES.md
// (Fixture Capability Shape). A field the fixture does not declare gates
// nothing: fixtures declare only what makes their outcome deterministic.
type capabilityWire struct {
	MaxBufferSize           json.Number    `json:"max_buffer_size"`
	MaxTextureDimension1D   json.Number    `json:"max_texture_dimension_1d"`
	MaxTextureDimension2D   json.Number    `json:"max_texture_dimension_2d"`
	MaxTextureDimension3D   json.Number    `json:"max_texture_dimension_3d"`
	SupportedTextureFormats *[]string      `json:"supported_texture_formats"`
	SupportedSampleCounts   *[]json.Number `json:"supported_sample_counts"`
	SupportedShaderFormats  *[]string      `json:"supported_shader_formats"`
	SupportsFP64            *bool          `json:"supports_fp64"`
}

// limits is the decoded capability object; nil fields are undeclared.
type limits struct {
	maxBufferSize  *Num
	maxDimension   map[string]*Num // by texture dimension token
	textureFormats *[]string
	sampleCounts   *[]Num
	shaderFormats  *[]string
	fp64           *bool
}

func capabilityFailure(index int, code, pointer, format string, args ...any) *model.Failure {
	return &model.Failure{Phase: model.PhaseCapability, Code: code, CommandIndex: index,
		Message: fmt.Sprintf(format, args...), Pointer: pointer}
}

func decodeLimits(raw json.RawMessage) (*limits, *model.Failure) {
	var c capabilityWire
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, capabilityFailure(-1, codeInvalidArgument, "", "the capabilities object cannot be decoded: %v", err)
	}
	l := &limits{maxDimension: map[string]*Num{}, textureFormats: c.SupportedTextureFormats,
		shaderFormats: c.SupportedShaderFormats, fp64: c.SupportsFP64}
	limit := func(v json.Number, name string) (*Num, *model.Failure) {
		if v == "" {
			return nil, nil
		}
		n, ok := parseNumber(string(v))
		if !ok {
			return nil, capabilityFailure(-1, codeInvalidArgument, "", "capability %s is %s, not a non-negative integer", name, v)
		}
		return &n.val, nil
	}
	var f *model.Failure
	if l.maxBufferSize, f = limit(c.MaxBufferSize, "max_buffer_size"); f != nil {
		return nil, f
	}
	for _, d := range []struct {
		dim string
		v   json.Number
	}{{"1d", c.MaxTextureDimension1D}, {"2d", c.MaxTextureDimension2D}, {"3d", c.MaxTextureDimension3D}} {
		if l.maxDimension[d.dim], f = limit(d.v, "max_texture_dimension_"+d.dim); f != nil {
			return nil, f
		}
	}
	if c.SupportedSampleCounts != nil {
		counts := []Num{}
		for i, v := range *c.SupportedSampleCounts {
			n, f := limit(v, "supported_sample_counts["+strconv.Itoa(i)+"]")
			if f != nil {
				return nil, f
			}
			counts = append(counts, *n)
		}
		l.sampleCounts = &counts
	}
	return l, nil
}

// capability runs the active 2.0 command gates (CAPABILITIES.md, Active
// 2.0 Command Gates) over the noted commands, in stream order, and reports
// the first failure. It runs only after the semantic phase passed.
func (s *state) capability(raw json.RawMessage) *model.Failure {
	if literal(raw) == "" {
		return nil
	}
	l, f := decodeLimits(raw)
	if f != nil {
		return f
	}
	for _, g := range s.gates {
		if f := l.check(g); f != nil {
			return f
		}
	}
	return nil
}

func (l *limits) check(g gate) *model.Failure {
	switch g.kind {
	case gateBuffer:
		if l.maxBufferSize != nil && cmp(g.bufferSize, *l.maxBufferSize) > 0 {
			return capabilityFailure(g.index, codeUnsupportedCapability, "/size",
				"CreateBuffer: size %s exceeds max_buffer_size %s", g.bufferSize, *l.maxBufferSize)
		}
	case gateTexture:
		return l.checkTexture(g)
	case gateShader:
		if l.shaderFormats != nil && !contains(*l.shaderFormats, g.shaderFormat) {
			return capabilityFailure(g.index, codeUnsupportedCapability, "/format",
				"CreateShaderModule: shader format %q is not in supported_shader_formats", g.shaderFormat)
		}
		for i, feat := range g.features {
			// CAPABILITIES.md, Error Mapping rule 2: a required feature the
			// runtime reports unavailable.
			if feat == "fp64" && l.fp64 != nil && !*l.fp64 {
				return capabilityFailure(g.index, codeFeatureRequired, "/required_features/"+strconv.Itoa(i),
					"CreateShaderModule: the module requires fp64 but supports_fp64 is false")
			}
		}
	}
	return nil
}

func (l *limits) checkTexture(g gate) *model.Failure {
	t := g.texture
	if l.textureFormats != nil && !contains(*l.textureFormats, t.format) {
		return capabilityFailure(g.index, codeUnsupportedCapability, "/format",
			"CreateTexture: format %q is not in supported_texture_formats", t.format)
	}
	if l.sampleCounts != nil {
		found := false
		for _, n := range *l.sampleCounts {
			if cmp(n, t.samples) == 0 {
				found = true
				break
			}
		}
		if !found {
			return capabilityFailure(g.index, codeUnsupportedCapability, "/sample_count",
				"CreateTexture: sample_count %s is not in supported_sample_counts", t.samples)
		}
	}
	max := l.maxDimension[t.dimension]
	if max == nil {
		return nil
	}
	// The axes that are dimensions of the chosen texture dimension; the
	// depth of a 1d or 2d texture counts array layers, which the fixture
	// capability shape does not limit.
	axes := []string{"width"}
	values := []Num{t.width}
	switch t.dimension {
	case "2d":
		axes, values = append(axes, "height"), append(values, t.height)
	case "3d":
		axes, values = append(axes, "height", "depth"), append(values, t.height, t.depth)
	}
	for i, v := range values {
		if cmp(v, *max) > 0 {
			return capabilityFailure(g.index, codeUnsupportedCapability, "/"+axes[i],
				"CreateTexture: %s %s of a %s texture exceeds max_texture_dimension_%s %s", axes[i], v, t.dimension, t.dimension, *max)
		}
	}
	return nil
}
