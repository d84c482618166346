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
	gatePipeline
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
	samples      Num // of a render pipeline
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

// capabilityFailure builds a capability-phase failure of rule r; index is
// the gated command, or -1 for the capabilities object itself.
func (s *state) capabilityFailure(r *rule, index int, pointer, format string, args ...any) *model.Failure {
	return &model.Failure{Phase: model.PhaseCapability, Code: r.code, CommandIndex: index,
		Message: fmt.Sprintf(format, args...) + " (" + r.id + ")", Pointer: pointer, Rule: r.id}
}

func (s *state) decodeLimits(raw json.RawMessage) (*limits, *model.Failure) {
	var c capabilityWire
	if err := json.Unmarshal(raw, &c); s.broken(ruleCapDecode, err != nil) {
		return nil, s.capabilityFailure(ruleCapDecode, -1, "", "the capabilities object cannot be decoded: %v", err)
	}
	l := &limits{maxDimension: map[string]*Num{}, textureFormats: c.SupportedTextureFormats,
		shaderFormats: c.SupportedShaderFormats, fp64: c.SupportsFP64}
	limit := func(v json.Number, name string) (*Num, *model.Failure) {
		if v == "" {
			return nil, nil
		}
		n, ok := parseNumber(string(v))
		if s.broken(ruleCapDecode, !ok) {
			return nil, s.capabilityFailure(ruleCapDecode, -1, "", "capability %s is %s, not a non-negative integer", name, v)
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

// capability runs the capability gates over the noted commands, in stream
// order, and reports the first failure. It runs only after the semantic
// phase passed, and only when the fixture gives a capabilities object: an
// undeclared field gates nothing, except supports_fp64, which counts as
// false once a capabilities object is given (CAPABILITIES.md, Active 2.0
// Command Gates rule 6 asks for supports_fp64 = true).
// addGate records a gated command for the capability phase, which runs
// only for a fixture that declares capabilities: a stream without them
// keeps no gates (a million buffers would otherwise cost a million).
func (s *state) addGate(g gate) {
	if s.gated {
		s.gates = append(s.gates, g)
	}
}

func (s *state) capability(raw json.RawMessage) *model.Failure {
	if literal(raw) == "" {
		return nil
	}
	// Where a trace places the rules of this phase (CheckAt): the
	// capabilities object is the stream's, each gate its command's.
	s.idx = -1
	l, f := s.decodeLimits(raw)
	if f != nil {
		return f
	}
	for _, g := range s.gates {
		s.idx = g.index
		if f := s.gate(l, g); f != nil {
			return f
		}
	}
	return nil
}

func (s *state) gate(l *limits, g gate) *model.Failure {
	switch g.kind {
	case gateBuffer:
		if l.maxBufferSize != nil && s.broken(ruleCapBufferSize, cmp(g.bufferSize, *l.maxBufferSize) > 0) {
			return s.capabilityFailure(ruleCapBufferSize, g.index, "/size",
				"CreateBuffer: size %s exceeds max_buffer_size %s", g.bufferSize, *l.maxBufferSize)
		}
	case gateTexture:
		return s.gateTexture(l, g)
	case gateShader:
		if l.shaderFormats != nil && s.broken(ruleCapShaderFormat, !contains(*l.shaderFormats, g.shaderFormat)) {
			return s.capabilityFailure(ruleCapShaderFormat, g.index, "/format",
				"CreateShaderModule: shader format %q is not in supported_shader_formats", g.shaderFormat)
		}
		for i, feat := range g.features {
			if feat != "fp64" {
				continue
			}
			if s.broken(ruleCapFP64, l.fp64 == nil || !*l.fp64) {
				return s.capabilityFailure(ruleCapFP64, g.index, "/required_features/"+strconv.Itoa(i),
					"CreateShaderModule: the module requires fp64 but the capabilities do not set supports_fp64 to true")
			}
		}
	case gatePipeline:
		if l.sampleCounts != nil && s.broken(ruleCapPipelineSamples, !containsNum(*l.sampleCounts, g.samples)) {
			return s.capabilityFailure(ruleCapPipelineSamples, g.index, "/sample_count",
				"CreateRenderPipeline: sample count %s is not in supported_sample_counts", g.samples)
		}
	}
	return nil
}

func containsNum(list []Num, n Num) bool {
	for _, x := range list {
		if cmp(x, n) == 0 {
			return true
		}
	}
	return false
}

func (s *state) gateTexture(l *limits, g gate) *model.Failure {
	t := g.texture
	if l.textureFormats != nil && s.broken(ruleCapTextureFormat, !contains(*l.textureFormats, t.format)) {
		return s.capabilityFailure(ruleCapTextureFormat, g.index, "/format",
			"CreateTexture: format %q is not in supported_texture_formats", t.format)
	}
	if l.sampleCounts != nil && s.broken(ruleCapSampleCount, !containsNum(*l.sampleCounts, t.samples)) {
		return s.capabilityFailure(ruleCapSampleCount, g.index, "/sample_count",
			"CreateTexture: sample_count %s is not in supported_sample_counts", t.samples)
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
		if s.broken(ruleCapTextureSize, cmp(v, *max) > 0) {
			return s.capabilityFailure(ruleCapTextureSize, g.index, "/"+axes[i],
				"CreateTexture: %s %s of a %s texture exceeds max_texture_dimension_%s %s", axes[i], v, t.dimension, t.dimension, *max)
		}
	}
	return nil
}
