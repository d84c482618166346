package drp2

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
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
		if s.broken(ruleDecode, !ok) {
			return 0, s.fail(ruleDecode, "/usage/"+strconv.Itoa(i), "usage %q is not a %s usage", t, what)
		}
		u |= bit
	}
	return u, nil
}

// requireUsage fails under rule r, a DRP2_ERR_USAGE rule, when o lacks a
// usage bit.
func (s *state) requireUsage(r *rule, o *object, have, want uint16, pointer, role string) *model.Failure {
	if s.broken(r, have&want == 0) {
		return s.fail(r, pointer, "%s %s lacks %s usage required to be used as %s", o, field(pointer), usageNames[want], role)
	}
	return nil
}

func (s *state) createBuffer() *model.Failure {
	size, f := s.num(literal(s.w.Size), "/size")
	if f != nil {
		return f
	}
	usage, f := s.usageBits(s.w.Usage, bufferUsages, "buffer")
	if f != nil {
		return f
	}
	o, f := s.create(kindBuffer)
	if f != nil {
		return f
	}
	o.info = &bufferInfo{size: size.val, usage: usage}
	s.addGate(gate{index: s.idx, kind: gateBuffer, bufferSize: size.val})
	return nil
}

// payloadLen decodes a base64 payload and returns its length. The payload
// must be padded standard base64 (RFC 4648 section 4), the schema's
// contentEncoding; r is the rule of the command's data field.
func (s *state) payloadLen(r *rule, data *string, pointer string) (Num, *model.Failure) {
	if s.broken(ruleDecode, data == nil) {
		return Num{}, s.fail(ruleDecode, pointer, "field %s is missing", field(pointer))
	}
	n, err := decodedLen(*data, &s.scratch)
	if s.broken(r, err != nil) {
		return Num{}, s.fail(r, pointer, "field %s is not padded base64: %v", field(pointer), err)
	}
	return small(uint64(n)), nil
}

// decodedLen decodes padded standard base64 into *scratch, which it grows
// as needed, and returns the number of bytes. The buffer holds three bytes
// per started group of four characters, so no input, padded or not, can
// make the decoder write past it. Line breaks, which the decoder would
// skip, are refused: RFC 4648 base64 has none.
func decodedLen(data string, scratch *[]byte) (int, error) {
	if i := strings.IndexAny(data, "\r\n"); i >= 0 {
		return 0, fmt.Errorf("line break at byte %d", i)
	}
	need := (len(data) + 3) / 4 * 3
	if cap(*scratch) < need {
		*scratch = make([]byte, need)
	}
	return base64.StdEncoding.Decode((*scratch)[:need], []byte(data))
}

// byteRange reads the offset and then the size of a range of bytes, the
// fields at offPointer and sizePointer (the command's own, or those of an
// item of a list).
func (s *state) byteRange(offPointer, sizePointer string, offset, size json.Number) (Num, Num, *model.Failure) {
	off, f := s.num(offset, offPointer)
	if f != nil {
		return Num{}, Num{}, f
	}
	n, f := s.num(size, sizePointer)
	return off.val, n.val, f
}

// checkRange fails under rule r, a DRP2_ERR_OUT_OF_RANGE rule, unless
// offset+size fits in the buffer.
func (s *state) checkRange(r *rule, buf *object, offset, size Num, pointer string) *model.Failure {
	end := add(offset, size)
	if s.broken(r, cmp(end, buf.buf().size) > 0) {
		return s.fail(r, pointer, "range [%s, %s) exceeds the %s bytes of %s", offset, end, buf.buf().size, buf)
	}
	return nil
}

// writeBuffer checks, in COMMANDS.md order, the range (rule 1) and then the
// payload against size (rule 2). It does not require COPY_DST: no prose
// rule ties uploads to a usage.
func (s *state) writeBuffer() *model.Failure {
	buf, f := s.resolve(s.w.BufferID, "/buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	offset, size, f := s.byteRange("/offset", "/size", s.w.Offset, literal(s.w.Size))
	if f != nil {
		return f
	}
	if f := s.checkRange(ruleWriteBufferRange, buf, offset, size, "/size"); f != nil {
		return f
	}
	n, f := s.payloadLen(ruleWriteBufferData, s.w.Data, "/data")
	if f != nil {
		return f
	}
	if s.broken(ruleWriteBufferSize, cmp(n, size) != 0) {
		return s.fail(ruleWriteBufferSize, "/size", "size %s does not match the %s bytes of the data payload", size, n)
	}
	return s.outsidePass()
}

func (s *state) createTexture() *model.Failure {
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
	o, f := s.create(kindTexture)
	if f != nil {
		return f
	}
	o.info = t
	s.addGate(gate{index: s.idx, kind: gateTexture, texture: t})
	return nil
}

// extent is the size of mip level m: width and height halve per level
// (down to 1), and depth too for 3d textures, while 1d and 2d textures keep
// their array layers in depth. The prose does not say how a 1d texture's
// height behaves; it halves like any other, as in the upstream runner.
//
// It reports false when a huge extent would need a shift beyond what shr
// computes exactly (see maxShift).
func (t *textureInfo) extent(m Num) (w, h, d Num, ok bool) {
	w, okW := shr(t.width, m)
	h, okH := shr(t.height, m)
	d, okD := t.depth, true
	if t.dimension == "3d" {
		d, okD = shr(t.depth, m)
		d = atLeastOne(d)
	}
	return atLeastOne(w), atLeastOne(h), d, okW && okH && okD
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
	if s.broken(ruleDecode, o == nil) {
		return x, y, z, s.fail(ruleDecode, pointer, "field %s is missing", field(pointer))
	}
	c, f := s.components(pointer, &originFields, [3]json.Number{o.X, o.Y, o.Z})
	return c[0], c[1], c[2], f
}

func (s *state) extent3D(raw json.RawMessage, pointer string) (w, h, d Num, f *model.Failure) {
	var e extentWire
	if s.broken(ruleDecode, len(raw) == 0) {
		return w, h, d, s.fail(ruleDecode, pointer, "field %s is missing", field(pointer))
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return w, h, d, s.fail(ruleDecode, pointer, "field %s is not an extent: %v", field(pointer), err)
	}
	c, f := s.components(pointer, &extentFields, [3]json.Number{e.Width, e.Height, e.Depth})
	return c[0], c[1], c[2], f
}

// The components of an origin and of an extent, in the order they are read.
var (
	originFields = [3]string{"/x", "/y", "/z"}
	extentFields = [3]string{"/width", "/height", "/depth"}
)

// components reads the three components v of the origin or extent at
// pointer, named by fields, in order: the first that fails is the failure.
func (s *state) components(pointer string, fields *[3]string, v [3]json.Number) ([3]Num, *model.Failure) {
	var c [3]Num
	for i := range v {
		n, f := s.num(v[i], pointer+fields[i])
		if f != nil {
			return c, f
		}
		c[i] = n.val
	}
	return c, nil
}

// transferLayout reads the layout of a texture transfer, bytes_per_row then
// rows_per_image, and checks it against the transfer's box (see
// layoutBytes). It returns the bytes the transfer covers and the layout.
func (s *state) transferLayout(tex *object, b box) (need, bpr, rpi Num, f *model.Failure) {
	bn, f := s.num(s.w.BytesPerRow, "/bytes_per_row")
	if f != nil {
		return need, bpr, rpi, f
	}
	rn, f := s.num(s.w.RowsPerImage, "/rows_per_image")
	if f != nil {
		return need, bpr, rpi, f
	}
	need, f = s.layoutBytes(tex, b.w, b.h, b.d, bn.val, rn.val)
	return need, bn.val, rn.val, f
}

// layoutBytes checks bytes_per_row and rows_per_image against a transfer
// extent and returns the bytes the transfer covers in its buffer or payload
// (LIFETIMES.md, Range And Layout Invariants rules 6-9; the footprint is the
// WebGPU "required bytes in copy"). rows_per_image 0 describes no image at
// all and fails even for a single image, as in the upstream runner.
func (s *state) layoutBytes(tex *object, w, h, d, bpr, rpi Num) (Num, *model.Failure) {
	bpt, ok := bytesPerTexel[tex.tex().format]
	if s.broken(ruleTransferLayout, !ok) {
		return Num{}, s.fail(ruleTransferLayout, "/bytes_per_row", "%s has format %q, which has no defined texel size for transfers", tex, tex.tex().format)
	}
	rowBytes := mul(w, small(bpt))
	if s.broken(ruleTransferLayout, cmp(bpr, rowBytes) < 0) {
		return Num{}, s.fail(ruleTransferLayout, "/bytes_per_row", "bytes_per_row %s is less than one row of %s texels of %s (%d bytes each): %s bytes",
			bpr, w, tex.tex().format, bpt, rowBytes)
	}
	one := small(1)
	if s.broken(ruleTransferLayout, cmp(rpi, Num{}) == 0) {
		return Num{}, s.fail(ruleTransferLayout, "/rows_per_image", "rows_per_image is 0; it must cover at least one row")
	}
	rows := sub(h, one)
	if cmp(d, one) > 0 {
		if s.broken(ruleTransferLayout, cmp(rpi, h) < 0) {
			return Num{}, s.fail(ruleTransferLayout, "/rows_per_image", "rows_per_image %s is less than the copy height %s of a %s-image transfer",
				rpi, h, d)
		}
		rows = add(mul(rpi, sub(d, one)), rows)
	}
	return add(mul(bpr, rows), rowBytes), nil
}

// mipLevel checks that a transfer selects an allocated mip level under
// rule r (a DRP2_ERR_OUT_OF_RANGE rule).
func (s *state) mipLevel(r *rule, tex *object, b box) *model.Failure {
	if s.broken(r, cmp(b.mip, tex.tex().mips) >= 0) {
		return s.fail(r, b.mipPtr, "%s %s selects no mip level of %s, which has %s", field(b.mipPtr), b.mip, tex, tex.tex().mips)
	}
	return nil
}

// subresource checks the box of a texture transfer against its (allocated)
// mip level under rule r, axis by axis.
func (s *state) subresource(r *rule, tex *object, b box) *model.Failure {
	ew, eh, ed, ok := tex.tex().extent(b.mip)
	if !ok {
		s.exhausted = true
		return s.unjudged("not judged: %s %s of %s halves an extent of at least 2^%d more than %d times; computing that exactly is beyond the validator's work budget",
			field(b.mipPtr), b.mip, tex, maxShift, maxShift)
	}
	axes := [...]struct {
		o, n, e Num
		name    string
		axis    string
	}{{b.x, b.w, ew, "x", "width"}, {b.y, b.h, eh, "y", "height"}, {b.z, b.d, ed, "z", "depth"}}
	for _, a := range axes {
		if end := add(a.o, a.n); s.broken(r, cmp(end, a.e) > 0) {
			return s.fail(r, b.sizePtr+"/"+a.axis, "box %s %s + %s %s = %s exceeds %s %s of mip level %s of %s",
				field(b.originPtr)+"."+a.name, a.o, field(b.sizePtr)+"."+a.axis, a.n, end, a.axis, a.e, b.mip, tex)
		}
	}
	return nil
}

// readBox reads the mip level, origin and extent of a texture transfer.
func (s *state) readBox(mip json.Number, origin *originWire, b *box) *model.Failure {
	m, f := s.num(mip, b.mipPtr)
	if f != nil {
		return f
	}
	b.mip = m.val
	if b.x, b.y, b.z, f = s.origin(origin, b.originPtr); f != nil {
		return f
	}
	b.w, b.h, b.d, f = s.extent3D(s.w.Size, b.sizePtr)
	return f
}

// writeTexture checks the mip level, the box against the subresource, the
// layout and then the payload: LIFETIMES.md, Range And Layout Invariants
// rule 9 applies these rules symmetrically to the three texture transfers.
// Like WriteBuffer it does not require COPY_DST.
func (s *state) writeTexture() *model.Failure {
	tex, f := s.resolve(s.w.TextureID, "/texture_id", kindTexture)
	if f != nil {
		return f
	}
	b := box{originPtr: "/origin", sizePtr: "/size", mipPtr: "/mip_level"}
	if f := s.readBox(s.w.MipLevel, s.w.Origin, &b); f != nil {
		return f
	}
	if f := s.mipLevel(ruleMipLevel, tex, b); f != nil {
		return f
	}
	if f := s.subresource(ruleWriteTextureBox, tex, b); f != nil {
		return f
	}
	need, bpr, rpi, f := s.transferLayout(tex, b)
	if f != nil {
		return f
	}
	n, f := s.payloadLen(ruleWriteTextureData, s.w.Data, "/data")
	if f != nil {
		return f
	}
	if s.broken(ruleWriteTexturePayload, cmp(n, need) < 0) {
		// ERRORS.md: layout metadata incompatible with the transfer shape.
		return s.fail(ruleWriteTexturePayload, "/data", "the data payload has %s bytes but bytes_per_row %s, rows_per_image %s and extent %sx%sx%s need %s",
			n, bpr, rpi, b.w, b.h, b.d, need)
	}
	return s.outsidePass()
}

func (s *state) createSampler() *model.Failure {
	_, f := s.create(kindSampler)
	return f
}

// viewCompatible reports whether a view may show a texture in a format:
// the texture's format or its sRGB twin, as WebGPU view formats allow, or,
// for a view of one aspect of a depth/stencil texture, that aspect's own
// format (WebGPU: a depth-only view of depth24plus-stencil8 is depth24plus).
func viewCompatible(view, tex, aspect string) bool {
	if strings.TrimSuffix(view, "-srgb") == strings.TrimSuffix(tex, "-srgb") {
		return true
	}
	return aspect != "" && aspect != "all" && aspectFormats[tex][aspect] == view
}

// aspectFormats is the format of each aspect of the active depth/stencil
// formats. stencil8 is not an active 2.0 format, so a stencil-only view can
// only use the texture's own format.
var aspectFormats = map[string]map[string]string{
	"depth24plus":          {"depth-only": "depth24plus"},
	"depth24plus-stencil8": {"depth-only": "depth24plus", "stencil-only": "stencil8"},
	"depth32float":         {"depth-only": "depth32float"},
}

// layeredViews are the view dimensions whose layer_range CreateTextureView
// rule 3 bounds by the texture's depth ("for array and cube dimensions").
var layeredViews = map[string]bool{"2d-array": true, "cube": true, "cube-array": true}

// createTextureView checks the texture, the mip range and the id, as the
// upstream runner does, then the checks it does not make: the layer range,
// the format and the pass scope.
func (s *state) createTextureView() *model.Failure {
	tex, f := s.resolve(s.w.TextureID, "/texture_id", kindTexture)
	if f != nil {
		return f
	}
	t := tex.tex()
	if r := s.w.MipRange; r != nil {
		if f := s.viewRange(ruleViewMips, r, "/mip_range", t.mips, "mip_level_count", tex); f != nil {
			return f
		}
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	if r := s.w.LayerRange; r != nil && layeredViews[s.w.Dimension] {
		if f := s.viewRange(ruleViewLayers, r, "/layer_range", t.depth, "depth", tex); f != nil {
			return f
		}
	}
	if s.broken(ruleViewFormat, !viewCompatible(s.w.Format, t.format, s.w.Aspect)) {
		return s.fail(ruleViewFormat, "/format", "view format %q is not compatible with format %q of %s (aspect %q)", s.w.Format, t.format, tex, s.w.Aspect)
	}
	if f := s.outsidePass(); f != nil {
		return f
	}
	o := s.add(id, kindTextureView)
	o.info = &viewInfo{texture: tex}
	return nil
}

func (s *state) viewRange(r *rule, rw *rangeWire, pointer string, limit Num, what string, tex *object) *model.Failure {
	base, f := s.num(rw.Base, pointer+"/base")
	if f != nil {
		return f
	}
	count, f := s.num(rw.Count, pointer+"/count")
	if f != nil {
		return f
	}
	if end := add(base.val, count.val); s.broken(r, cmp(end, limit) > 0) {
		return s.fail(r, pointer, "%s base %s + count %s = %s exceeds the %s %s of %s",
			field(pointer), base.val, count.val, end, what, limit, tex)
	}
	return nil
}

// liveRefRules are the rules that keep an object alive while live bind
// groups or pipelines name it; buffers and textures have none (a bind
// group whose buffer or texture is destroyed cannot be set any more).
var liveRefRules = map[kind]*rule{
	kindSampler: ruleDestroySampler, kindTextureView: ruleDestroyView,
	kindBindGroupLayout: ruleDestroyLayout, kindShaderModule: ruleDestroyShader,
}

// destroy ends a persistent object's lifetime: the object, then the work
// that uses it, then the live objects that name it, then the pass scope. A
// buffer with a readback awaiting its reply may be destroyed: no prose rule
// forbids it.
func (s *state) destroy(v json.Number, pointer string, k kind) *model.Failure {
	o, f := s.resolve(v, pointer, k)
	if f != nil {
		return f
	}
	// Recorded work can never be discarded in 2.0, so an object captured by
	// an encoder stays in use for the rest of the stream.
	enc := o.capturedBy
	var cb *object
	if enc != nil {
		cb = enc.enc().buffer
	}
	if s.broken(ruleDestroyOpen, enc != nil && cb == nil) {
		return s.fail(ruleDestroyOpen, pointer, "%s is still referenced by %s and cannot be destroyed", o, work(enc))
	}
	if s.broken(ruleDestroyRecorded, cb != nil && !cb.cb().submitted) {
		return s.fail(ruleDestroyRecorded, pointer, "%s is still referenced by %s and cannot be destroyed", o, work(enc))
	}
	if s.broken(ruleDestroySubmitted, cb != nil && cb.cb().submitted) {
		return s.fail(ruleDestroySubmitted, pointer, "%s is still referenced by %s and cannot be destroyed", o, work(enc))
	}
	if r := liveRefRules[k]; r != nil && s.broken(r, o.liveRefs > 0) {
		return s.fail(r, pointer, "%s is still referenced by %d live bind group(s) or pipeline(s); destroy them first", o, o.liveRefs)
	}
	if f := s.outsidePass(); f != nil {
		return f
	}
	o.destroyed = true
	switch {
	case o.group() != nil:
		o.group().layout.liveRefs--
		for i := range o.group().entries {
			o.group().entries[i].resource.liveRefs--
		}
	case o.pipe() != nil:
		for _, r := range o.pipe().refs {
			r.liveRefs--
		}
	}
	for _, g := range o.groups {
		if !g.destroyed && g.group().dead == nil {
			g.group().dead = o
		}
	}
	o.groups = nil
	return nil
}
