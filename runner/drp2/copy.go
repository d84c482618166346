package drp2

import (
	"encoding/json"

	"github.com/drp2/drp2-fixtures/model"
)

// Each copy checks its encoder scope, then its ends one at a time (resolved
// and their usage), then ranges: the order of the upstream runner, which
// the prose leaves open.

// copyCommand makes the check of a copy command from ends, which checks the
// copy's ends and ranges: the encoder scope comes first (LIFETIMES.md,
// Command Validity By Scope additional rule 3), and once the copy passed,
// the encoder's work uses both ends.
func copyCommand(ends func(*state) (src, dst *object, f *model.Failure)) func(*state) *model.Failure {
	return func(s *state) *model.Failure {
		enc, f := s.encoderScope(ruleCopyInPass)
		if f != nil {
			return f
		}
		src, dst, f := ends(s)
		if f != nil {
			return f
		}
		capture(enc, src)
		capture(enc, dst)
		return nil
	}
}

func (s *state) copyBufferToBuffer() (src, dst *object, f *model.Failure) {
	if src, f = s.bufferSide(s.w.SrcBufferID, "/src_buffer_id", ruleCopyBufferUsage, useCopySrc, "a copy source"); f != nil {
		return nil, nil, f
	}
	if dst, f = s.bufferSide(s.w.DstBufferID, "/dst_buffer_id", ruleCopyBufferUsage, useCopyDst, "a copy destination"); f != nil {
		return nil, nil, f
	}
	srcOff, f := s.num(s.w.SrcOffset, "/src_offset")
	if f != nil {
		return nil, nil, f
	}
	dstOff, f := s.num(s.w.DstOffset, "/dst_offset")
	if f != nil {
		return nil, nil, f
	}
	size, f := s.num(literal(s.w.Size), "/size")
	if f != nil {
		return nil, nil, f
	}
	if f := s.checkRange(ruleCopyBufferRange, src, srcOff.val, size.val, "/src_offset"); f != nil {
		return nil, nil, f
	}
	return src, dst, s.checkRange(ruleCopyBufferRange, dst, dstOff.val, size.val, "/dst_offset")
}

// bufferSide resolves the buffer end of a copy and checks its usage under
// rule usage.
func (s *state) bufferSide(v json.Number, pointer string, usage *rule, use uint16, role string) (*object, *model.Failure) {
	buf, f := s.resolve(v, pointer, kindBuffer)
	if f != nil {
		return nil, f
	}
	if f := s.requireUsage(usage, buf, buf.buf().usage, use, pointer, role); f != nil {
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
	if f := s.requireUsage(usage, tex, tex.tex().usage, use, pointer, role); f != nil {
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
	need, _, _, f := s.transferLayout(tex, b)
	if f != nil {
		return f
	}
	return s.checkRange(ruleBufferBounds, buf, o.val, need, offPtr)
}

func (s *state) copyBufferToTexture() (buf, tex *object, f *model.Failure) {
	if buf, f = s.bufferSide(s.w.SrcBufferID, "/src_buffer_id", ruleDeclaredUsage, useCopySrc, "a copy source"); f != nil {
		return nil, nil, f
	}
	b := box{originPtr: "/dst_origin", sizePtr: "/size", mipPtr: "/dst_mip_level"}
	if tex, f = s.textureSide(s.w.DstTextureID, "/dst_texture_id", ruleDeclaredUsage, useCopyDst, "a copy destination",
		ruleMipLevel, ruleCopyToTextureBox, s.w.DstMipLevel, s.w.DstOrigin, &b); f != nil {
		return nil, nil, f
	}
	return buf, tex, s.footprint(tex, buf, b, s.w.SrcOffset, "/src_offset")
}

func (s *state) copyTextureToBuffer() (tex, buf *object, f *model.Failure) {
	b := box{originPtr: "/src_origin", sizePtr: "/size", mipPtr: "/src_mip_level"}
	if tex, f = s.textureSide(s.w.SrcTextureID, "/src_texture_id", ruleDeclaredUsage, useCopySrc, "a copy source",
		ruleMipLevel, ruleCopyFromTextureBox, s.w.SrcMipLevel, s.w.SrcOrigin, &b); f != nil {
		return nil, nil, f
	}
	if buf, f = s.bufferSide(s.w.DstBufferID, "/dst_buffer_id", ruleDeclaredUsage, useCopyDst, "a copy destination"); f != nil {
		return nil, nil, f
	}
	return tex, buf, s.footprint(tex, buf, b, s.w.DstOffset, "/dst_offset")
}

func (s *state) copyTextureToTexture() (src, dst *object, f *model.Failure) {
	sb := box{originPtr: "/src_origin", sizePtr: "/size", mipPtr: "/src_mip_level"}
	if src, f = s.textureSide(s.w.SrcTextureID, "/src_texture_id", ruleCopyTextureUsage, useCopySrc, "a copy source",
		ruleCopyTextureMip, ruleCopyTextureSrcBox, s.w.SrcMipLevel, s.w.SrcOrigin, &sb); f != nil {
		return nil, nil, f
	}
	db := box{originPtr: "/dst_origin", sizePtr: "/size", mipPtr: "/dst_mip_level"}
	if dst, f = s.textureSide(s.w.DstTextureID, "/dst_texture_id", ruleCopyTextureUsage, useCopyDst, "a copy destination",
		ruleCopyTextureMip, ruleCopyTextureDstBox, s.w.DstMipLevel, s.w.DstOrigin, &db); f != nil {
		return nil, nil, f
	}
	// Rule 5: one texture may be both ends only for disjoint subresources.
	// A subresource is a (mip level, array layer) pair; a 3d mip level is
	// one subresource.
	overlap := false
	if src == dst && cmp(sb.mip, db.mip) == 0 {
		overlap = src.tex().dimension == "3d" ||
			(cmp(sb.z, add(db.z, db.d)) < 0 && cmp(db.z, add(sb.z, sb.d)) < 0)
	}
	if s.broken(ruleCopyTextureOverlap, overlap) {
		return nil, nil, s.fail(ruleCopyTextureOverlap, "/dst_texture_id", "source and destination subresources of %s overlap at mip level %s", src, sb.mip)
	}
	return src, dst, nil
}
