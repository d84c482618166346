package drp2

import "github.com/drp2/drp2-fixtures/model"

func (s *state) copyBufferToBuffer() *model.Failure {
	enc, f := s.encoderScope()
	if f != nil {
		return f
	}
	src, f := s.resolve(s.w.SrcBufferID, "/src_buffer_id", kindBuffer)
	if f != nil {
		return f
	}
	dst, f := s.resolve(s.w.DstBufferID, "/dst_buffer_id", kindBuffer)
	if f != nil {
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
	// COMMANDS.md, CopyBufferToBuffer rule 2.
	if f := s.requireUsage(src, src.buf.usage, useCopySrc, "/src_buffer_id", "a copy source"); f != nil {
		return f
	}
	if f := s.requireUsage(dst, dst.buf.usage, useCopyDst, "/dst_buffer_id", "a copy destination"); f != nil {
		return f
	}
	if f := s.checkRange(src, srcOff.val, size.val, "/src_offset"); f != nil {
		return f
	}
	if f := s.checkRange(dst, dstOff.val, size.val, "/dst_offset"); f != nil {
		return f
	}
	capture(enc, src)
	capture(enc, dst)
	return nil
}

// bufferTexture is the shared body of the two buffer/texture copies:
// layout first (a shape failure, DRP2_ERR_LAYOUT), then usage, then the
// texture box and the buffer footprint (DRP2_ERR_OUT_OF_RANGE once the
// shape is valid; ERRORS.md, Range, Layout, And Alignment rule 1).
func (s *state) bufferTexture(toTexture bool) *model.Failure {
	enc, f := s.encoderScope()
	if f != nil {
		return f
	}
	var buf, tex *object
	b := box{sizePtr: "/size"}
	var bufPtr, offPtr string
	var offV = s.w.DstOffset
	if toTexture {
		if buf, f = s.resolve(s.w.SrcBufferID, "/src_buffer_id", kindBuffer); f != nil {
			return f
		}
		if tex, f = s.resolve(s.w.DstTextureID, "/dst_texture_id", kindTexture); f != nil {
			return f
		}
		bufPtr, offPtr, offV = "/src_buffer_id", "/src_offset", s.w.SrcOffset
		b.originPtr, b.mipPtr = "/dst_origin", "/dst_mip_level"
		m, f := s.num(s.w.DstMipLevel, b.mipPtr)
		if f != nil {
			return f
		}
		b.mip = m.val
		if b.x, b.y, b.z, f = s.origin(s.w.DstOrigin, b.originPtr); f != nil {
			return f
		}
	} else {
		if tex, f = s.resolve(s.w.SrcTextureID, "/src_texture_id", kindTexture); f != nil {
			return f
		}
		if buf, f = s.resolve(s.w.DstBufferID, "/dst_buffer_id", kindBuffer); f != nil {
			return f
		}
		bufPtr, offPtr = "/dst_buffer_id", "/dst_offset"
		b.originPtr, b.mipPtr = "/src_origin", "/src_mip_level"
		m, f := s.num(s.w.SrcMipLevel, b.mipPtr)
		if f != nil {
			return f
		}
		b.mip = m.val
		if b.x, b.y, b.z, f = s.origin(s.w.SrcOrigin, b.originPtr); f != nil {
			return f
		}
	}
	if b.w, b.h, b.d, f = s.extent3D(s.w.Size, "/size"); f != nil {
		return f
	}
	off, f := s.num(offV, offPtr)
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
	need, f := s.transferLayout(tex, b.w, b.h, b.d, bpr.val, rpi.val, "")
	if f != nil {
		return f
	}
	if toTexture {
		if f := s.requireUsage(buf, buf.buf.usage, useCopySrc, bufPtr, "a copy source"); f != nil {
			return f
		}
		if f := s.requireUsage(tex, tex.tex.usage, useCopyDst, "/dst_texture_id", "a copy destination"); f != nil {
			return f
		}
	} else {
		if f := s.requireUsage(tex, tex.tex.usage, useCopySrc, "/src_texture_id", "a copy source"); f != nil {
			return f
		}
		if f := s.requireUsage(buf, buf.buf.usage, useCopyDst, bufPtr, "a copy destination"); f != nil {
			return f
		}
	}
	if f := s.subresource(tex, b); f != nil {
		return f
	}
	if f := s.checkRange(buf, off.val, need, offPtr); f != nil {
		return f
	}
	capture(enc, buf)
	capture(enc, tex)
	return nil
}

func (s *state) copyBufferToTexture() *model.Failure { return s.bufferTexture(true) }

func (s *state) copyTextureToBuffer() *model.Failure { return s.bufferTexture(false) }

func (s *state) copyTextureToTexture() *model.Failure {
	enc, f := s.encoderScope()
	if f != nil {
		return f
	}
	src, f := s.resolve(s.w.SrcTextureID, "/src_texture_id", kindTexture)
	if f != nil {
		return f
	}
	dst, f := s.resolve(s.w.DstTextureID, "/dst_texture_id", kindTexture)
	if f != nil {
		return f
	}
	sb := box{originPtr: "/src_origin", sizePtr: "/size", mipPtr: "/src_mip_level"}
	db := box{originPtr: "/dst_origin", sizePtr: "/size", mipPtr: "/dst_mip_level"}
	m, f := s.num(s.w.SrcMipLevel, sb.mipPtr)
	if f != nil {
		return f
	}
	sb.mip = m.val
	if m, f = s.num(s.w.DstMipLevel, db.mipPtr); f != nil {
		return f
	}
	db.mip = m.val
	if sb.x, sb.y, sb.z, f = s.origin(s.w.SrcOrigin, sb.originPtr); f != nil {
		return f
	}
	if db.x, db.y, db.z, f = s.origin(s.w.DstOrigin, db.originPtr); f != nil {
		return f
	}
	if sb.w, sb.h, sb.d, f = s.extent3D(s.w.Size, "/size"); f != nil {
		return f
	}
	db.w, db.h, db.d = sb.w, sb.h, sb.d
	// COMMANDS.md, CopyTextureToTexture rule 4.
	if f := s.requireUsage(src, src.tex.usage, useCopySrc, "/src_texture_id", "a copy source"); f != nil {
		return f
	}
	if f := s.requireUsage(dst, dst.tex.usage, useCopyDst, "/dst_texture_id", "a copy destination"); f != nil {
		return f
	}
	if f := s.subresource(src, sb); f != nil {
		return f
	}
	if f := s.subresource(dst, db); f != nil {
		return f
	}
	// Rule 5: one texture may be both ends only for disjoint subresources.
	// A subresource is a (mip level, array layer) pair; a 3d mip level is
	// one subresource.
	if src == dst && cmp(sb.mip, db.mip) == 0 {
		overlap := src.tex.dimension == "3d" ||
			(cmp(sb.z, add(db.z, db.d)) < 0 && cmp(db.z, add(sb.z, sb.d)) < 0)
		if overlap {
			return s.fail(codeInvalidArgument, "/dst_texture_id", "source and destination subresources of %s overlap at mip level %s", src, sb.mip)
		}
	}
	capture(enc, src)
	capture(enc, dst)
	return nil
}
