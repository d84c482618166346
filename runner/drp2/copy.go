package drp2

import (
	"encoding/json"

	"github.com/drp2/drp2-fixtures/model"
)

// Each copy checks its encoder scope, then its ends one at a time (resolved
// and their usage), then ranges: the order of the upstream runner, which
// the prose leaves open.

func (s *state) copyBufferToBuffer() *model.Failure {
	enc, f := s.encoderScope(ruleCopyInPass)
	if f != nil {
		return f
	}
	src, f := s.resolve(s.w.SrcBufferID, "/src_buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	if f := s.requireUsage(ruleCopyBufferUsage, src, src.buf.usage, useCopySrc, "/src_buffer_id", "a copy source"); f != nil {
		return f
	}
	dst, f := s.resolve(s.w.DstBufferID, "/dst_buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	if f := s.requireUsage(ruleCopyBufferUsage, dst, dst.buf.usage, useCopyDst, "/dst_buffer_id", "a copy destination"); f != nil {
		return f
	}
	srcOff, f := s.num(s.w.SrcOffset, "/src_offset")
	if f != nil {
		return f
	}
	dstOff, f := s.num(s.w.DstOffset, "/dst_offset")
	if f != nil {
		return f
	}
	size, f := s.num(literal(s.w.Size), "/size")
	if f != nil {
		return f
	}
	if f := s.checkRange(ruleCopyBufferRange, src, srcOff.val, size.val, "/src_offset"); f != nil {
		return f
	}
	if f := s.checkRange(ruleCopyBufferRange, dst, dstOff.val, size.val, "/dst_offset"); f != nil {
		return f
	}
	capture(enc, src)
	capture(enc, dst)
	return nil
}

// bufferSide resolves the buffer end of a buffer/texture copy and checks
// its usage.
func (s *state) bufferSide(v json.Number, pointer string, use uint16, role string) (*object, *model.Failure) {
	buf, f := s.resolve(v, pointer, kindBuffer)
	if f != nil {
		return nil, f
	}
	if f := s.requireUsage(ruleDeclaredUsage, buf, buf.buf.usage, use, pointer, role); f != nil {
		return nil, f
	}
	return buf, nil
}

// textureSide resolves the texture end of a texture copy, checks its
// usage, then its mip level and box (LIFETIMES.md, Range And Layout
// Invariants rules 3-4, 7 and 9).
func (s *state) textureSide(v json.Number, pointer string, usage *rule, use uint16, role string,
	mipRule, boxRule *rule, mip json.Number, origin *originWire, b *box) (*object, *model.Failure) {
	tex, f := s.resolve(v, pointer, kindTexture)
	if f != nil {
		return nil, f
	}
	if f := s.requireUsage(usage, tex, tex.tex.usage, use, pointer, role); f != nil {
		return nil, f
	}
	if f := s.readBox(mip, origin, b); f != nil {
		return nil, f
	}
	if f := s.mipLevel(mipRule, tex, *b); f != nil {
		return nil, f
	}
	if f := s.subresource(boxRule, tex, *b); f != nil {
		return nil, f
	}
	return tex, nil
}

// footprint checks the layout of a buffer/texture copy and fits its
// footprint in the buffer: the layout (DRP2_ERR_LAYOUT) after the texture
// box, as for WriteTexture, then the buffer range.
func (s *state) footprint(tex, buf *object, b box, off json.Number, offPtr string) *model.Failure {
	o, f := s.num(off, offPtr)
	if f != nil {
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
	need, f := s.transferLayout(tex, b.w, b.h, b.d, bpr.val, rpi.val)
	if f != nil {
		return f
	}
	return s.checkRange(ruleBufferBounds, buf, o.val, need, offPtr)
}

func (s *state) copyBufferToTexture() *model.Failure {
	enc, f := s.encoderScope(ruleCopyInPass)
	if f != nil {
		return f
	}
	buf, f := s.bufferSide(s.w.SrcBufferID, "/src_buffer_id", useCopySrc, "a copy source")
	if f != nil {
		return f
	}
	b := box{originPtr: "/dst_origin", sizePtr: "/size", mipPtr: "/dst_mip_level"}
	tex, f := s.textureSide(s.w.DstTextureID, "/dst_texture_id", ruleDeclaredUsage, useCopyDst, "a copy destination",
		ruleMipLevel, ruleCopyToTextureBox, s.w.DstMipLevel, s.w.DstOrigin, &b)
	if f != nil {
		return f
	}
	if f := s.footprint(tex, buf, b, s.w.SrcOffset, "/src_offset"); f != nil {
		return f
	}
	capture(enc, buf)
	capture(enc, tex)
	return nil
}

func (s *state) copyTextureToBuffer() *model.Failure {
	enc, f := s.encoderScope(ruleCopyInPass)
	if f != nil {
		return f
	}
	b := box{originPtr: "/src_origin", sizePtr: "/size", mipPtr: "/src_mip_level"}
	tex, f := s.textureSide(s.w.SrcTextureID, "/src_texture_id", ruleDeclaredUsage, useCopySrc, "a copy source",
		ruleMipLevel, ruleCopyFromTextureBox, s.w.SrcMipLevel, s.w.SrcOrigin, &b)
	if f != nil {
		return f
	}
	buf, f := s.bufferSide(s.w.DstBufferID, "/dst_buffer_id", useCopyDst, "a copy destination")
	if f != nil {
		return f
	}
	if f := s.footprint(tex, buf, b, s.w.DstOffset, "/dst_offset"); f != nil {
		return f
	}
	capture(enc, tex)
	capture(enc, buf)
	return nil
}

func (s *state) copyTextureToTexture() *model.Failure {
	enc, f := s.encoderScope(ruleCopyInPass)
	if f != nil {
		return f
	}
	sb := box{originPtr: "/src_origin", sizePtr: "/size", mipPtr: "/src_mip_level"}
	src, f := s.textureSide(s.w.SrcTextureID, "/src_texture_id", ruleCopyTextureUsage, useCopySrc, "a copy source",
		ruleCopyTextureMip, ruleCopyTextureSrcBox, s.w.SrcMipLevel, s.w.SrcOrigin, &sb)
	if f != nil {
		return f
	}
	db := box{originPtr: "/dst_origin", sizePtr: "/size", mipPtr: "/dst_mip_level"}
	dst, f := s.textureSide(s.w.DstTextureID, "/dst_texture_id", ruleCopyTextureUsage, useCopyDst, "a copy destination",
		ruleCopyTextureMip, ruleCopyTextureDstBox, s.w.DstMipLevel, s.w.DstOrigin, &db)
	if f != nil {
		return f
	}
	// Rule 5: one texture may be both ends only for disjoint subresources.
	// A subresource is a (mip level, array layer) pair; a 3d mip level is
	// one subresource.
	overlap := false
	if src == dst && cmp(sb.mip, db.mip) == 0 {
		overlap = src.tex.dimension == "3d" ||
			(cmp(sb.z, add(db.z, db.d)) < 0 && cmp(db.z, add(sb.z, sb.d)) < 0)
	}
	if s.broken(ruleCopyTextureOverlap, overlap) {
		return s.fail(ruleCopyTextureOverlap, "/dst_texture_id", "source and destination subresources of %s overlap at mip level %s", src, sb.mip)
	}
	capture(enc, src)
	capture(enc, dst)
	return nil
}
