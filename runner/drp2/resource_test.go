package drp2

import (
	"strings"
	"testing"
)

func writeBuf(buf int, offset any, size any, data string) string {
	return cmd("WriteBuffer", "buffer_id", buf, "offset", offset, "size", size, "data", q(data))
}

func TestBuffersAndRanges(t *testing.T) { run(t, buffersAndRangesCases()) }

func buffersAndRangesCases() []tc {
	cases := []tc{
		ok("write inside", buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 12, 4, "AAAAAA==")),
		bad("write past the end", codeOutOfRange, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 12, 8, "AAAAAAAAAAA=")),
		bad("size differs from payload", codeInvalidArgument, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 0, 8, "AAAAAA==")),
		bad("payload is not base64", codeInvalidArgument, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 0, 4, "!!!!")),
		ok("write needs no COPY_DST", buffer(1, 16, `["UNIFORM"]`), writeBuf(1, 0, 4, "AAAAAA==")),
		bad("offset beyond uint64", codeOutOfRange, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, "18446744073709551616", 4, "AAAAAA==")),
		bad("offset plus size wraps uint64", codeOutOfRange, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, "18446744073709551615", 4, "AAAAAA==")),
		ok("huge buffer takes a huge offset", `{"cmd":"CreateBuffer","id":1,"size":1e400,"usage":["COPY_DST"]}`, writeBuf(1, "9e399", 4, "AAAAAA==")),
		bad("huge offset past a huge buffer", codeOutOfRange, `{"cmd":"CreateBuffer","id":1,"size":1e400,"usage":["COPY_DST"]}`, writeBuf(1, "1e400", 4, "AAAAAA==")),
		bad("astronomical offset", codeOutOfRange, buffer(1, 16, `["COPY_DST"]`), writeBuf(1, "1e999999999999", 4, "AAAAAA==")),
		ok("copy inside both buffers", buffer(1, 16, `["COPY_SRC"]`), buffer(2, 16, `["COPY_DST"]`), encoder(3), copyB2B(3, 1, 2, 16)),
		bad("copy past the source", codeOutOfRange, buffer(1, 8, `["COPY_SRC"]`), buffer(2, 16, `["COPY_DST"]`), encoder(3), copyB2B(3, 1, 2, 16)),
		bad("copy past the destination", codeOutOfRange, buffer(1, 16, `["COPY_SRC"]`), buffer(2, 8, `["COPY_DST"]`), encoder(3), copyB2B(3, 1, 2, 16)),
		bad("copy source without COPY_SRC", codeUsage, buffer(1, 16, `["COPY_DST"]`), buffer(2, 16, `["COPY_DST"]`), encoder(3), copyB2B(3, 1, 2, 4)),
		bad("copy destination without COPY_DST", codeUsage, buffer(1, 16, `["COPY_SRC"]`), buffer(2, 16, `["COPY_SRC"]`), encoder(3), copyB2B(3, 1, 2, 4)),
		bad("copy from a texture id", codeWrongObjectType, target(1), buffer(2, 16, `["COPY_DST"]`), encoder(3), copyB2B(3, 1, 2, 4)),
	}
	return cases
}

func writeTex(tex, mip int, origin, size string, bpr, rpi int, data string) string {
	return cmd("WriteTexture", "texture_id", tex, "mip_level", mip, "origin", origin, "size", size,
		"bytes_per_row", bpr, "rows_per_image", rpi, "data", q(data))
}

func ext(w, h, d int) string { return cmd2(`{"width":%d,"height":%d,"depth":%d}`, w, h, d) }
func org(x, y, z int) string { return cmd2(`{"x":%d,"y":%d,"z":%d}`, x, y, z) }

// b64 is a base64 payload of n zero bytes.
func b64(n int) string {
	out := make([]byte, 0, (n+2)/3*4)
	for i := 0; i < n/3; i++ {
		out = append(out, "AAAA"...)
	}
	switch n % 3 {
	case 1:
		out = append(out, "AA=="...)
	case 2:
		out = append(out, "AAA="...)
	}
	return string(out)
}

func TestTextureTransfers(t *testing.T) { run(t, textureTransfersCases()) }

func textureTransfersCases() []tc {
	tex := texture(1, "2d", 4, 4, 1, 2, "rgba8unorm", `["COPY_DST","COPY_SRC"]`)
	layered := texture(1, "2d", 2, 2, 3, 1, "rgba8unorm", `["COPY_DST","COPY_SRC"]`)
	c2b := func(mip int, size string, bpr, rpi, off int) string {
		return cmd("CopyTextureToBuffer", "encoder_id", 3, "src_texture_id", 1, "src_mip_level", mip, "src_origin", org(0, 0, 0),
			"size", size, "dst_buffer_id", 2, "dst_offset", off, "bytes_per_row", bpr, "rows_per_image", rpi)
	}
	b2t := func(size string, bpr, rpi int) string {
		return cmd("CopyBufferToTexture", "encoder_id", 3, "src_buffer_id", 2, "src_offset", 0, "bytes_per_row", bpr, "rows_per_image", rpi,
			"dst_texture_id", 1, "dst_mip_level", 0, "dst_origin", org(0, 0, 0), "size", size)
	}
	t2t := func(srcMip, dstMip int, src, dst string, size string) string {
		return cmd("CopyTextureToTexture", "encoder_id", 3, "src_texture_id", 1, "src_mip_level", srcMip, "src_origin", src,
			"dst_texture_id", 1, "dst_mip_level", dstMip, "dst_origin", dst, "size", size)
	}
	cases := []tc{
		ok("full write", tex, writeTex(1, 0, org(0, 0, 0), ext(4, 4, 1), 16, 4, b64(64))),
		ok("padded rows", tex, writeTex(1, 0, org(0, 0, 0), ext(2, 2, 1), 12, 2, b64(20))),
		ok("rows_per_image below the height is fine for one image", tex, writeTex(1, 0, org(0, 0, 0), ext(2, 2, 1), 8, 1, b64(16))),
		bad("rows_per_image 0", codeLayout, tex, writeTex(1, 0, org(0, 0, 0), ext(2, 2, 1), 8, 0, b64(16))).at("LIFETIMES.md Range And Layout Invariants rule 8"),
		bad("short rows", codeLayout, tex, writeTex(1, 0, org(0, 0, 0), ext(2, 1, 1), 4, 1, b64(8))),
		bad("short images", codeLayout, layered, writeTex(1, 0, org(0, 0, 0), ext(2, 2, 2), 8, 1, b64(32))),
		bad("short payload", codeLayout, tex, writeTex(1, 0, org(0, 0, 0), ext(2, 2, 1), 8, 2, b64(8))),
		bad("payload short by one image", codeLayout, layered, writeTex(1, 0, org(0, 0, 0), ext(2, 2, 3), 8, 2, b64(40))),
		bad("mip level not allocated", codeOutOfRange, tex, writeTex(1, 2, org(0, 0, 0), ext(1, 1, 1), 4, 1, b64(4))),
		ok("mip 1 of a 4x4 is 2x2", tex, writeTex(1, 1, org(0, 0, 0), ext(2, 2, 1), 8, 2, b64(16))),
		bad("box beyond mip 1", codeOutOfRange, tex, writeTex(1, 1, org(1, 0, 0), ext(2, 1, 1), 8, 1, b64(8))),
		bad("box beyond width", codeOutOfRange, tex, writeTex(1, 0, org(3, 0, 0), ext(2, 1, 1), 8, 1, b64(8))),
		bad("box beyond layers", codeOutOfRange, layered, writeTex(1, 0, org(0, 0, 2), ext(1, 1, 2), 4, 1, b64(8))),
		ok("write needs no COPY_DST", texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["TEXTURE_BINDING"]`),
			writeTex(1, 0, org(0, 0, 0), ext(1, 1, 1), 4, 1, b64(4))),
		ok("8-byte texels", texture(1, "2d", 2, 1, 1, 1, "rg32uint", `["COPY_DST"]`), writeTex(1, 0, org(0, 0, 0), ext(2, 1, 1), 16, 1, b64(16))),
		bad("8-byte texels need 16-byte rows", codeLayout, texture(1, "2d", 2, 1, 1, 1, "rg32uint", `["COPY_DST"]`),
			writeTex(1, 0, org(0, 0, 0), ext(2, 1, 1), 8, 1, b64(16))),
		ok("3d mips halve depth", texture(1, "3d", 4, 4, 4, 2, "r32float", `["COPY_DST"]`), writeTex(1, 1, org(0, 0, 1), ext(2, 2, 1), 8, 2, b64(16))),
		bad("3d mip depth", codeOutOfRange, texture(1, "3d", 4, 4, 4, 2, "r32float", `["COPY_DST"]`), writeTex(1, 1, org(0, 0, 2), ext(2, 2, 1), 8, 2, b64(16))),
		ok("texture to buffer", tex, buffer(2, 64, `["COPY_DST"]`), encoder(3), c2b(0, ext(4, 4, 1), 16, 4, 0)),
		bad("texture to buffer footprint past the buffer", codeOutOfRange, tex, buffer(2, 64, `["COPY_DST"]`), encoder(3), c2b(0, ext(4, 4, 1), 16, 4, 4)),
		bad("texture to buffer short rows", codeLayout, tex, buffer(2, 64, `["COPY_DST"]`), encoder(3), c2b(0, ext(4, 1, 1), 8, 1, 0)),
		bad("texture to buffer bad mip", codeOutOfRange, tex, buffer(2, 64, `["COPY_DST"]`), encoder(3), c2b(5, ext(1, 1, 1), 4, 1, 0)),
		bad("texture to buffer without COPY_SRC", codeUsage, texture(1, "2d", 4, 4, 1, 1, "rgba8unorm", `["COPY_DST"]`),
			buffer(2, 64, `["COPY_DST"]`), encoder(3), c2b(0, ext(1, 1, 1), 4, 1, 0)),
		ok("buffer to texture", tex, buffer(2, 64, `["COPY_SRC"]`), encoder(3), b2t(ext(4, 4, 1), 16, 4)),
		bad("buffer to texture short images", codeLayout, layered, buffer(2, 64, `["COPY_SRC"]`), encoder(3), b2t(ext(2, 2, 2), 8, 1)),
		bad("buffer to texture needs COPY_SRC on the buffer", codeUsage, tex, buffer(2, 64, `["COPY_DST"]`), encoder(3), b2t(ext(1, 1, 1), 4, 1)),
		bad("buffer to texture footprint", codeOutOfRange, tex, buffer(2, 32, `["COPY_SRC"]`), encoder(3), b2t(ext(4, 4, 1), 16, 4)),
		ok("texture to itself across mips", tex, encoder(3), t2t(0, 1, org(0, 0, 0), org(0, 0, 0), ext(2, 2, 1))),
		ok("texture to itself across layers", layered, encoder(3), t2t(0, 0, org(0, 0, 0), org(0, 0, 1), ext(2, 2, 1))),
		bad("texture to itself overlapping", codeInvalidArgument, tex, encoder(3), t2t(0, 0, org(0, 0, 0), org(2, 2, 0), ext(2, 2, 1))),
		bad("texture to texture box", codeOutOfRange, tex, encoder(3), t2t(0, 1, org(0, 0, 0), org(1, 1, 0), ext(2, 2, 1))),
		bad("texture to texture usage", codeUsage, texture(1, "2d", 2, 2, 1, 1, "rgba8unorm", `["TEXTURE_BINDING","COPY_DST"]`),
			encoder(3), t2t(0, 0, org(0, 0, 0), org(0, 0, 0), ext(1, 1, 1))),
	}
	return cases
}

func TestTextureViews(t *testing.T) { run(t, textureViewsCases()) }

func textureViewsCases() []tc {
	tex := texture(1, "2d", 4, 4, 2, 3, "rgba8unorm", `["TEXTURE_BINDING"]`)
	view := func(format, extra string) string {
		c := cmd("CreateTextureView", "id", 2, "texture_id", 1, "format", q(format), "dimension", q("2d-array"), "aspect", q("all"))
		if extra != "" {
			c = c[:len(c)-1] + "," + extra + "}"
		}
		return c
	}
	tex3d := texture(1, "3d", 4, 4, 4, 1, "rgba8unorm", `["TEXTURE_BINDING"]`)
	view3d := func(extra string) string {
		return cmd2(`{"cmd":"CreateTextureView","id":2,"texture_id":1,"format":"rgba8unorm","dimension":"3d","aspect":"all",%s}`, extra)
	}
	cases := []tc{
		ok("full view", tex, view("rgba8unorm", `"mip_range":{"base":0,"count":3},"layer_range":{"base":0,"count":2}`)),
		ok("srgb view of a linear texture", tex, view("rgba8unorm-srgb", "")),
		bad("incompatible view format", codeFormatMismatch, tex, view("r32float", "")),
		bad("mip range past the texture", codeOutOfRange, tex, view("rgba8unorm", `"mip_range":{"base":1,"count":3}`)),
		bad("layer range past the texture", codeOutOfRange, tex, view("rgba8unorm", `"layer_range":{"base":2,"count":1}`)),
		// COMMANDS.md, CreateTextureView rule 3: the layer range is bounded
		// by the parent's depth, for a 3d parent too.
		ok("layer range within the depth of a 3d texture", tex3d, view3d(`"layer_range":{"base":0,"count":4}`)),
		ok("layer range of a 3d view is not bounded", tex3d, view3d(`"layer_range":{"base":3,"count":2}`)),
		bad("unknown parent", codeInvalidID, view("rgba8unorm", "")),
		bad("destroyed parent", codeDestroyedObject, tex, cmd("DestroyTexture", "texture_id", 1), view("rgba8unorm", "")),
		ok("destroying a view leaves its texture", tex, view("rgba8unorm", ""), cmd("DestroyTextureView", "id", 2), cmd("DestroyTexture", "texture_id", 1)),
	}
	return cases
}

// Unpadded and truncated base64 of every length once panicked: the decode
// buffer was sized for padded input. Now valid padded base64 is accepted
// and everything else fails the command's data rule.
func TestPayloadOfAnyLength(t *testing.T) {
	valid := map[string]bool{"": true, "AA==": true, "AAA=": true, "AAAA": true, "AAAAAA==": true, "AAAAAAA=": true, "AAAAAAAA": true}
	for n := 0; n <= 9; n++ {
		for _, data := range []string{strings.Repeat("A", n), strings.Repeat("A", n) + "=", strings.Repeat("A", n) + "=="} {
			size := n * 3 / 4
			write := ok("write", buffer(1, 16, `["COPY_DST"]`), writeBuf(1, 0, size, data))
			f := verdictOf(New(), write.stream())
			if valid[data] && f != nil {
				t.Fatalf("WriteBuffer %q (%d bytes): %s", data, size, f.Message)
			}
			if !valid[data] && (f == nil || f.Rule != "COMMANDS.md WriteBuffer field data") {
				t.Fatalf("WriteBuffer %q: want the data rule, got %+v", data, f)
			}
			upload := ok("texture", texture(1, "1d", 16, 1, 1, 1, "r16float", `["COPY_DST"]`), writeTex(1, 0, org(0, 0, 0), ext(1, 1, 1), 2, 1, data))
			f = verdictOf(New(), upload.stream())
			want := "COMMANDS.md WriteTexture field data"
			if valid[data] {
				want = "" // two bytes are needed: shorter payloads are short, not malformed
				if size < 2 {
					want = "COMMANDS.md WriteTexture rule 4"
				}
			}
			got := ""
			if f != nil {
				got = f.Rule
			}
			if got != want {
				t.Fatalf("WriteTexture %q: want rule %q, got %+v", data, want, f)
			}
		}
	}
}
