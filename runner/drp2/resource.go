package drp2

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// bytesPerTexel is the size of one texel of each active texture format, the
// unit of texture transfer layouts. Every active format has 1x1 blocks. The
// depth24plus formats have no fixed storage size in WebGPU; they are
// counted as 4 bytes, the packed 24+8 size, so that their transfers can be
// checked at all.
var bytesPerTexel = map[string]uint64{
	"rgba8unorm": 4, "rgba8unorm-srgb": 4, "bgra8unorm": 4, "bgra8unorm-srgb": 4,
	"r16float": 2, "rgba16float": 8, "rgba32float": 16,
	"r32uint": 4, "r32sint": 4, "r32float": 4, "rg32uint": 8,
	"depth24plus": 4, "depth24plus-stencil8": 4, "depth32float": 4,
}

func (s *state) usageBits(tokens []string, table map[string]uint16, what string) (uint16, *model.Failure) {
	var u uint16
	for i, t := range tokens {
		bit, ok := table[t]
		if !ok {
			return 0, s.fail(codeInvalidArgument, "/usage/"+strconv.Itoa(i), "usage %q is not a %s usage", t, what)
		}
		u |= bit
	}
	return u, nil
}

// requireUsage fails with DRP2_ERR_USAGE when o lacks a usage bit
// (ERRORS.md, State Versus Usage rule 2).
func (s *state) requireUsage(o *object, have, want uint16, pointer, role string) *model.Failure {
	if have&want == 0 {
		return s.fail(codeUsage, pointer, "%s %s lacks %s usage required to be used as %s", o, field(pointer), usageNames[want], role)
	}
	return nil
}

func (s *state) createBuffer() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	size, f := s.num(literal(s.w.Size), "/size")
	if f != nil {
		return f
	}
	usage, f := s.usageBits(s.w.Usage, bufferUsages, "buffer")
	if f != nil {
		return f
	}
	o := s.add(id, kindBuffer)
	o.buf = &bufferInfo{size: size.val, usage: usage}
	s.gates = append(s.gates, gate{index: s.idx, kind: gateBuffer, bufferSize: size.val})
	return nil
}

// payloadLen is the decoded length of a base64 payload.
func (s *state) payloadLen(data *string, pointer string) (Num, *model.Failure) {
	if data == nil {
		return Num{}, s.fail(codeInvalidArgument, pointer, "field %s is missing", field(pointer))
	}
	need := base64.StdEncoding.DecodedLen(len(*data))
	if cap(s.scratch) < need {
		s.scratch = make([]byte, need)
	}
	n, err := base64.StdEncoding.Decode(s.scratch[:need], []byte(*data))
	if err != nil {
		n, err = base64.RawStdEncoding.Decode(s.scratch[:need], []byte(*data))
	}
	if err != nil {
		return Num{}, s.fail(codeInvalidArgument, pointer, "field %s is not valid base64: %v", field(pointer), err)
	}
	return small(uint64(n)), nil
}

// checkRange fails with DRP2_ERR_OUT_OF_RANGE unless offset+size fits in the
// buffer (ERRORS.md, Range, Layout, And Alignment rule 4).
func (s *state) checkRange(buf *object, offset, size Num, pointer string) *model.Failure {
	end := add(offset, size)
	if cmp(end, buf.buf.size) > 0 {
		return s.fail(codeOutOfRange, pointer, "range [%s, %s) exceeds the %s bytes of %s", offset, end, buf.buf.size, buf)
	}
	return nil
}

func (s *state) writeBuffer() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	buf, f := s.resolve(s.w.BufferID, "/buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	offset, f := s.num(s.w.Offset, "/offset")
	if f != nil {
		return f
	}
	size, f := s.num(literal(s.w.Size), "/size")
	if f != nil {
		return f
	}
	n, f := s.payloadLen(s.w.Data, "/data")
	if f != nil {
		return f
	}
	// COMMANDS.md, WriteBuffer rule 2: size must match the payload length.
	if cmp(n, size.val) != 0 {
		return s.fail(codeInvalidArgument, "/size", "size %s does not match the %s bytes of the data payload", size.val, n)
	}
	// COMMANDS.md, CreateBuffer rule 2: writes stay within the declared
	// usage; an upload is a copy destination, as in WebGPU.
	if f := s.requireUsage(buf, buf.buf.usage, useCopyDst, "/buffer_id", "a WriteBuffer destination"); f != nil {
		return f
	}
	return s.checkRange(buf, offset.val, size.val, "/size")
}

func (s *state) createTexture() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	t := &textureInfo{dimension: s.w.Dimension, format: s.w.Format}
	for _, p := range []struct {
		v   json.Number
		ptr string
		dst *Num
	}{
		{s.w.Width, "/width", &t.width}, {s.w.Height, "/height", &t.height}, {s.w.Depth, "/depth", &t.depth},
		{s.w.MipLevelCount, "/mip_level_count", &t.mips}, {s.w.SampleCount, "/sample_count", &t.samples},
	} {
		n, f := s.num(p.v, p.ptr)
		if f != nil {
			return f
		}
		*p.dst = n.val
	}
	usage, f := s.usageBits(s.w.Usage, textureUsages, "texture")
	if f != nil {
		return f
	}
	t.usage = usage
	o := s.add(id, kindTexture)
	o.tex = t
	s.gates = append(s.gates, gate{index: s.idx, kind: gateTexture, texture: t})
	return nil
}

// extent is the size of mip level m (WebGPU rules: 1d and 2d textures keep
// their array layers in depth; 3d textures halve all three axes).
func (t *textureInfo) extent(m Num) (w, h, d Num) {
	w = atLeastOne(shr(t.width, m))
	switch t.dimension {
	case "1d":
		return w, t.height, t.depth
	case "3d":
		return w, atLeastOne(shr(t.height, m)), atLeastOne(shr(t.depth, m))
	}
	return w, atLeastOne(shr(t.height, m)), t.depth
}

type box struct {
	x, y, z   Num
	w, h, d   Num
	originPtr string
	sizePtr   string
	mipPtr    string
	mip       Num
}

func (s *state) origin(o *originWire, pointer string) (x, y, z Num, f *model.Failure) {
	if o == nil {
		return x, y, z, s.fail(codeInvalidArgument, pointer, "field %s is missing", field(pointer))
	}
	var n number
	if n, f = s.num(o.X, pointer+"/x"); f != nil {
		return
	}
	x = n.val
	if n, f = s.num(o.Y, pointer+"/y"); f != nil {
		return
	}
	y = n.val
	if n, f = s.num(o.Z, pointer+"/z"); f != nil {
		return
	}
	z = n.val
	return x, y, z, nil
}

func (s *state) extent3D(raw json.RawMessage, pointer string) (w, h, d Num, f *model.Failure) {
	var e extentWire
	if len(raw) == 0 {
		return w, h, d, s.fail(codeInvalidArgument, pointer, "field %s is missing", field(pointer))
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return w, h, d, s.fail(codeInvalidArgument, pointer, "field %s is not an extent: %v", field(pointer), err)
	}
	var n number
	if n, f = s.num(e.Width, pointer+"/width"); f != nil {
		return
	}
	w = n.val
	if n, f = s.num(e.Height, pointer+"/height"); f != nil {
		return
	}
	h = n.val
	if n, f = s.num(e.Depth, pointer+"/depth"); f != nil {
		return
	}
	d = n.val
	return w, h, d, nil
}

// transferLayout checks bytes_per_row and rows_per_image against a transfer
// extent and returns the bytes the transfer covers in its buffer or payload
// (LIFETIMES.md, Range And Layout Invariants rules 6-9; the footprint is the
// WebGPU "required bytes in copy").
func (s *state) transferLayout(tex *object, w, h, d, bpr, rpi Num, prefix string) (Num, *model.Failure) {
	bpt, ok := bytesPerTexel[tex.tex.format]
	if !ok {
		return Num{}, s.fail(codeFormatMismatch, prefix, "%s has format %q, which has no defined texel size for transfers", tex, tex.tex.format)
	}
	rowBytes := mul(w, small(bpt))
	if cmp(bpr, rowBytes) < 0 {
		return Num{}, s.fail(codeLayout, prefix+"/bytes_per_row", "bytes_per_row %s is less than one row of %s texels of %s (%d bytes each): %s bytes",
			bpr, w, tex.tex.format, bpt, rowBytes)
	}
	one := small(1)
	rows := sub(h, one)
	if cmp(d, one) > 0 {
		if cmp(rpi, h) < 0 {
			return Num{}, s.fail(codeLayout, prefix+"/rows_per_image", "rows_per_image %s is less than the copy height %s of a %s-image transfer",
				rpi, h, d)
		}
		rows = add(mul(rpi, sub(d, one)), rows)
	}
	return add(mul(bpr, rows), rowBytes), nil
}

// subresource checks the mip level and the box of a texture transfer
// (LIFETIMES.md, Range And Layout Invariants rules 3-5 and 7).
func (s *state) subresource(tex *object, b box) *model.Failure {
	t := tex.tex
	if cmp(b.mip, t.mips) >= 0 {
		return s.fail(codeOutOfRange, b.mipPtr, "%s %s selects no mip level of %s, which has %s", field(b.mipPtr), b.mip, tex, t.mips)
	}
	ew, eh, ed := t.extent(b.mip)
	axes := []struct {
		o, n, e Num
		name    string
		axis    string
	}{{b.x, b.w, ew, "x", "width"}, {b.y, b.h, eh, "y", "height"}, {b.z, b.d, ed, "z", "depth"}}
	for _, a := range axes {
		if end := add(a.o, a.n); cmp(end, a.e) > 0 {
			return s.fail(codeOutOfRange, b.sizePtr+"/"+a.axis, "box %s %s + %s %s = %s exceeds %s %s of mip level %s of %s",
				field(b.originPtr)+"."+a.name, a.o, field(b.sizePtr)+"."+a.axis, a.n, end, a.axis, a.e, b.mip, tex)
		}
	}
	return nil
}

func (s *state) writeTexture() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	tex, f := s.resolve(s.w.TextureID, "/texture_id", kindTexture)
	if f != nil {
		return f
	}
	b := box{originPtr: "/origin", sizePtr: "/size", mipPtr: "/mip_level"}
	mip, f := s.num(s.w.MipLevel, "/mip_level")
	if f != nil {
		return f
	}
	b.mip = mip.val
	if b.x, b.y, b.z, f = s.origin(s.w.Origin, "/origin"); f != nil {
		return f
	}
	if b.w, b.h, b.d, f = s.extent3D(s.w.Size, "/size"); f != nil {
		return f
	}
	bpr, f := s.num(s.w.BytesPerRow, "/bytes_per_row")
	if f != nil {
		return f
	}
	rpi, f := s.num(s.w.RowsPerImage, "/rows_per_image")
	if f != nil {
		return f
	}
	need, f := s.transferLayout(tex, b.w, b.h, b.d, bpr.val, rpi.val, "")
	if f != nil {
		return f
	}
	n, f := s.payloadLen(s.w.Data, "/data")
	if f != nil {
		return f
	}
	if cmp(n, need) < 0 {
		// ERRORS.md: layout metadata incompatible with the transfer shape.
		return s.fail(codeLayout, "/data", "the data payload has %s bytes but bytes_per_row %s, rows_per_image %s and extent %sx%sx%s need %s",
			n, bpr.val, rpi.val, b.w, b.h, b.d, need)
	}
	if f := s.requireUsage(tex, tex.tex.usage, useCopyDst, "/texture_id", "a WriteTexture destination"); f != nil {
		return f
	}
	return s.subresource(tex, b)
}

func (s *state) createSampler() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	s.add(id, kindSampler)
	return nil
}

// viewCompatible reports whether a view format may reinterpret a texture
// format: the same format or its sRGB twin, as WebGPU view formats allow.
func viewCompatible(view, tex string) bool {
	return strings.TrimSuffix(view, "-srgb") == strings.TrimSuffix(tex, "-srgb")
}

func (s *state) createTextureView() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	tex, f := s.resolve(s.w.TextureID, "/texture_id", kindTexture)
	if f != nil {
		return f
	}
	t := tex.tex
	if !viewCompatible(s.w.Format, t.format) {
		return s.fail(codeFormatMismatch, "/format", "view format %q is not compatible with format %q of %s", s.w.Format, t.format, tex)
	}
	if r := s.w.MipRange; r != nil {
		if f := s.viewRange(r, "/mip_range", t.mips, "mip_level_count", tex); f != nil {
			return f
		}
	}
	if r := s.w.LayerRange; r != nil {
		// CreateTextureView rule 3 bounds the layer range by the parent's
		// depth for every texture dimension; a 3d texture is not limited to
		// one layer here, since the prose names no other limit.
		if f := s.viewRange(r, "/layer_range", t.depth, "depth", tex); f != nil {
			return f
		}
	}
	o := s.add(id, kindTextureView)
	o.view = &viewInfo{texture: tex}
	return nil
}

func (s *state) viewRange(r *rangeWire, pointer string, limit Num, what string, tex *object) *model.Failure {
	base, f := s.num(r.Base, pointer+"/base")
	if f != nil {
		return f
	}
	count, f := s.num(r.Count, pointer+"/count")
	if f != nil {
		return f
	}
	if end := add(base.val, count.val); cmp(end, limit) > 0 {
		return s.fail(codeOutOfRange, pointer, "%s base %s + count %s = %s exceeds the %s %s of %s",
			field(pointer), base.val, count.val, end, what, limit, tex)
	}
	return nil
}

// destroy ends a persistent object's lifetime. Destroying an object that
// recorded or submitted work, a live bind group or pipeline, or a pending
// readback still uses is DRP2_ERR_USAGE (ERRORS.md, State Versus Usage
// rules 2 and 5; LIFETIMES.md, Submission And Destruction Safety).
func (s *state) destroy(v json.Number, pointer string, k kind) *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	o, f := s.resolve(v, pointer, k)
	if f != nil {
		return f
	}
	if o.capturedBy != nil {
		return s.fail(codeUsage, pointer, "%s is still referenced by %s and cannot be destroyed", o, work(o.capturedBy))
	}
	if o.liveRefs > 0 {
		switch k {
		case kindSampler, kindTextureView:
			// COMMANDS.md, DestroySampler rule 2 and DestroyTextureView rule 2.
			return s.fail(codeUsage, pointer, "%s is still referenced by %d live bind group(s); destroy them first", o, o.liveRefs)
		case kindBindGroupLayout, kindShaderModule:
			// COMMANDS.md, DestroyBindGroupLayout rule 2, DestroyShaderModule
			// rule 2; LIFETIMES.md, Pipeline Lifetime rule 7.
			return s.fail(codeUsage, pointer, "%s is still referenced by %d live bind group(s) or pipeline(s)", o, o.liveRefs)
		}
	}
	if o.pendingReadbacks > 0 {
		return s.fail(codeUsage, pointer, "%s has %d readback(s) awaiting a QueueSubmitReply", o, o.pendingReadbacks)
	}
	o.destroyed = true
	switch {
	case o.group != nil:
		o.group.layout.liveRefs--
		for i := range o.group.entries {
			o.group.entries[i].resource.liveRefs--
		}
	case o.pipe != nil:
		for _, r := range o.pipe.refs {
			r.liveRefs--
		}
	}
	for _, g := range o.groups {
		if !g.destroyed && g.group.dead == nil {
			g.group.dead = o
		}
	}
	o.groups = nil
	return nil
}
