// Package raster is what the gate knows of images: a readback's bytes
// decoded by a description (size, row pitch, texture format), encoded as
// PNG for people and as exact values for machines, and compared with a
// reference under tolerances, with a diff image to look at. It does no
// I/O: every function takes and returns bytes or writes to the writer it
// is given, so the gate and its sinks decide where files go.
package raster

import "strings"

// Format is a WebGPU texture format token, as DRP2 spells it.
type Format string

// The formats a readback image may have: the copyable color formats of
// DRP2's texture format list and the usual render targets beside them.
const (
	RGBA8Unorm     Format = "rgba8unorm"
	RGBA8UnormSRGB Format = "rgba8unorm-srgb"
	BGRA8Unorm     Format = "bgra8unorm"
	BGRA8UnormSRGB Format = "bgra8unorm-srgb"
	R8Unorm        Format = "r8unorm"
	R16Float       Format = "r16float"
	RGBA16Float    Format = "rgba16float"
	R32Float       Format = "r32float"
	RG32Float      Format = "rg32float"
	RGBA32Float    Format = "rgba32float"
	Depth32Float   Format = "depth32float"
	R32Uint        Format = "r32uint"
	RG32Uint       Format = "rg32uint"
	RGBA32Uint     Format = "rgba32uint"
	R32Sint        Format = "r32sint"
)

// kind is how one channel is stored and compared.
type kind uint8

const (
	unorm8   kind = iota // one byte, 0 to 255
	half                 // IEEE 754 binary16
	single               // IEEE 754 binary32
	unsigned             // 32-bit unsigned integer
	signed               // 32-bit two's complement integer
)

// layout is what a format means to decoding and comparison.
type layout struct {
	channels int
	kind     kind
	// bgra formats are stored B, G, R, A; an Image holds them R, G, B, A.
	bgra bool
	// srgb formats hold sRGB-encoded bytes, compared and written as they
	// are: an sRGB image is comparable only with another.
	srgb bool
}

var layouts = map[Format]layout{
	RGBA8Unorm:     {channels: 4, kind: unorm8},
	RGBA8UnormSRGB: {channels: 4, kind: unorm8, srgb: true},
	BGRA8Unorm:     {channels: 4, kind: unorm8, bgra: true},
	BGRA8UnormSRGB: {channels: 4, kind: unorm8, bgra: true, srgb: true},
	R8Unorm:        {channels: 1, kind: unorm8},
	R16Float:       {channels: 1, kind: half},
	RGBA16Float:    {channels: 4, kind: half},
	R32Float:       {channels: 1, kind: single},
	RG32Float:      {channels: 2, kind: single},
	RGBA32Float:    {channels: 4, kind: single},
	Depth32Float:   {channels: 1, kind: single},
	R32Uint:        {channels: 1, kind: unsigned},
	RG32Uint:       {channels: 2, kind: unsigned},
	RGBA32Uint:     {channels: 4, kind: unsigned},
	R32Sint:        {channels: 1, kind: signed},
}

// Formats lists the formats Decode accepts, in the order of the
// documentation.
func Formats() []Format {
	return []Format{RGBA8Unorm, RGBA8UnormSRGB, BGRA8Unorm, BGRA8UnormSRGB, R8Unorm,
		R16Float, RGBA16Float, R32Float, RG32Float, RGBA32Float, Depth32Float,
		R32Uint, RG32Uint, RGBA32Uint, R32Sint}
}

func formatList() string {
	names := make([]string, 0, len(layouts))
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// channelBytes is the size of one channel of k.
func (k kind) channelBytes() int {
	switch k {
	case unorm8:
		return 1
	case half:
		return 2
	}
	return 4
}

func (k kind) isFloat() bool { return k == half || k == single }

// texelBytes is the size of one texel of l.
func (l layout) texelBytes() int { return l.channels * l.kind.channelBytes() }

// comparable says whether images of formats a and b hold the same
// quantities: the same channels stored the same way, in the same color
// encoding. bgra8unorm and rgba8unorm are comparable (an Image holds both
// as RGBA); rgba8unorm and rgba8unorm-srgb are not.
func comparable(a, b layout) bool {
	return a.channels == b.channels && a.kind == b.kind && a.srgb == b.srgb
}

// channelName names channel c of an image with n channels.
func channelName(c, n int) string {
	if n == 1 {
		return "r"
	}
	return string("rgba"[c])
}
