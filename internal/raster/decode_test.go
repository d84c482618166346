package raster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// le32 and le16 spell little-endian channels for hand-built readbacks.
func le32(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func f32(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

func le16(vs ...uint16) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

// rows joins rows of texels, each padded with 0xEE to pitch: the padding
// must never reach the image.
func rows(pitch int, rs ...[]byte) []byte {
	var b []byte
	for _, r := range rs {
		b = append(b, r...)
		b = append(b, bytes.Repeat([]byte{0xEE}, pitch-len(r))...)
	}
	return b
}

// cat joins byte slices.
func cat(bs ...[]byte) []byte { return slices.Concat(bs...) }

// formatCases are a 2 x 2 image of every format, read from a readback
// with a 256-byte pitch, as WebGPU copies lay them out, and the texels
// the Image holds.
var formatCases = []struct {
	format   Format
	row0     []byte
	row1     []byte
	wantPix  []byte
	wantText string // channel 0 of texel 0 as valueText writes it
}{
	{RGBA8Unorm, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{9, 10, 11, 12, 13, 14, 15, 16}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, "1"},
	{RGBA8UnormSRGB, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{9, 10, 11, 12, 13, 14, 15, 16}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, "1"},
	{BGRA8Unorm, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{9, 10, 11, 12, 13, 14, 15, 16}, []byte{3, 2, 1, 4, 7, 6, 5, 8, 11, 10, 9, 12, 15, 14, 13, 16}, "3"},
	{BGRA8UnormSRGB, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{9, 10, 11, 12, 13, 14, 15, 16}, []byte{3, 2, 1, 4, 7, 6, 5, 8, 11, 10, 9, 12, 15, 14, 13, 16}, "3"},
	{R8Unorm, []byte{0, 255}, []byte{128, 7}, []byte{0, 255, 128, 7}, "0"},
	{R16Float, le16(0x3c00, 0xc000), le16(0x7c00, 0x0001), le16(0x3c00, 0xc000, 0x7c00, 0x0001), "1"},
	{RGBA16Float, le16(0x3800, 0, 0x8000, 0x3c00, 1, 2, 3, 4), le16(5, 6, 7, 8, 9, 10, 11, 12), le16(0x3800, 0, 0x8000, 0x3c00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), "0.5"},
	{R32Float, f32(0.25, -1), f32(3, 1e-3), f32(0.25, -1, 3, 1e-3), "0.25"},
	{RG32Float, f32(1, 2, 3, 4), f32(5, 6, 7, 8), f32(1, 2, 3, 4, 5, 6, 7, 8), "1"},
	{RGBA32Float, f32(1, 2, 3, 4, 5, 6, 7, 8), f32(9, 10, 11, 12, 13, 14, 15, 16), f32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), "1"},
	{Depth32Float, f32(0, 0.5), f32(1, 0.75), f32(0, 0.5, 1, 0.75), "0"},
	{R32Uint, le32(7, 4000000000), le32(0, 1), le32(7, 4000000000, 0, 1), "7"},
	{RG32Uint, le32(1, 2, 3, 4), le32(5, 6, 7, 8), le32(1, 2, 3, 4, 5, 6, 7, 8), "1"},
	{RGBA32Uint, le32(1, 2, 3, 4, 5, 6, 7, 8), le32(9, 10, 11, 12, 13, 14, 15, 16), le32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), "1"},
	{R32Sint, le32(0xffffffff, 2), le32(3, 4), le32(0xffffffff, 2, 3, 4), "-1"},
}

func TestDecodeEveryFormat(t *testing.T) {
	if len(formatCases) != len(Formats()) {
		t.Fatalf("%d format cases for %d formats", len(formatCases), len(Formats()))
	}
	for _, c := range formatCases {
		t.Run(string(c.format), func(t *testing.T) {
			// The last row without its padding: a WebGPU copy's size.
			data := cat(rows(256, c.row0), c.row1)
			d := Description{Width: 2, Height: 2, BytesPerRow: 256, Format: c.format}
			if size, err := d.Size(); err != nil || size != len(data) {
				t.Fatalf("Size = %d, %v; want %d", size, err, len(data))
			}
			img, err := Decode(d, data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(img.Pix, c.wantPix) || img.Width != 2 || img.Height != 2 || img.Format != c.format {
				t.Fatalf("Decode = %+v, want Pix %v", img, c.wantPix)
			}
			if got := valueText(layouts[c.format], img.Pix, 0); got != c.wantText {
				t.Errorf("texel 0 channel 0 reads %q, want %q", got, c.wantText)
			}
			// Tight rows (bytes_per_row 0) read the same texels.
			tight, err := Decode(Description{Width: 2, Height: 2, Format: c.format}, cat(c.row0, c.row1))
			if err != nil || !bytes.Equal(tight.Pix, img.Pix) {
				t.Fatalf("tight Decode = %v, %v", tight.Pix, err)
			}
			roundTrip(t, img)
		})
	}
}

// roundTrip writes img exactly and as PNG and reads both back where the
// format allows.
func roundTrip(t *testing.T, img Image) {
	t.Helper()
	var ex bytes.Buffer
	if err := WriteExact(&ex, img); err != nil {
		t.Fatal(err)
	}
	back, err := ReadExact(ex.Bytes())
	if err != nil || !bytes.Equal(back.Pix, img.Pix) || back.Description() != img.Description() {
		t.Fatalf("ReadExact(WriteExact) = %+v, %v; want %+v", back, err, img)
	}
	var p bytes.Buffer
	if err := WritePNG(&p, img); err != nil {
		t.Fatal(err)
	}
	if layouts[img.Format].kind != unorm8 {
		if _, err := ReadPNG(p.Bytes(), img.Format); err == nil {
			t.Fatalf("ReadPNG read a %s visualisation as exact values", img.Format)
		}
		return
	}
	back, err = ReadPNG(p.Bytes(), img.Format)
	if err != nil || !bytes.Equal(back.Pix, img.Pix) || back.Description() != img.Description() {
		t.Fatalf("ReadPNG(WritePNG) = %+v, %v; want %+v", back, err, img)
	}
}

func TestDecodeRefuses(t *testing.T) {
	cases := []struct {
		name  string
		d     Description
		data  int
		field string
		says  string
	}{
		{"unknown format", Description{Width: 1, Height: 1, Format: "rgb9e5ufloat"}, 4, "format", `"rgb9e5ufloat" is not an image format`},
		{"depth24plus is not copyable", Description{Width: 1, Height: 1, Format: "depth24plus"}, 4, "format", "depth24plus"},
		{"no format", Description{Width: 1, Height: 1}, 4, "format", `""`},
		{"a long format", Description{Width: 1, Height: 1, Format: Format(strings.Repeat("x", 5000))}, 4, "format", `"` + strings.Repeat("x", 24) + `"... is not`},
		{"zero width", Description{Width: 0, Height: 1, Format: RGBA8Unorm}, 4, "width", "0 is not between 1 and 16384"},
		{"negative height", Description{Width: 1, Height: -3, Format: RGBA8Unorm}, 4, "height", "-3 is not between 1 and 16384"},
		{"too wide", Description{Width: 16385, Height: 1, Format: R8Unorm}, 1 << 15, "width", "16385"},
		{"huge both", Description{Width: math.MaxInt, Height: math.MaxInt, Format: R8Unorm}, 4, "width", "is not between"},
		{"over the pixel budget", Description{Width: 16384, Height: 16384, Format: R8Unorm}, 4, "height", "16384 x 16384 is 268435456 pixels, over the budget of 16777216"},
		{"pitch under a row", Description{Width: 4, Height: 2, BytesPerRow: 15, Format: RGBA8Unorm}, 64, "bytes_per_row", "15 is under the 16 bytes of a row of 4 rgba8unorm texels"},
		{"negative pitch", Description{Width: 4, Height: 2, BytesPerRow: -256, Format: RGBA8Unorm}, 64, "bytes_per_row", "-256"},
		{"huge pitch", Description{Width: 4, Height: 16384, BytesPerRow: math.MaxInt / 2, Format: RGBA8Unorm}, 64, "bytes_per_row", "is not between 0 and 1048576"},
		{"too few bytes", Description{Width: 2, Height: 3, BytesPerRow: 256, Format: RGBA8Unorm}, 519, "data", "519 bytes are too few for 3 rows of bytes_per_row 256 (520 bytes"},
		{"no bytes", Description{Width: 1, Height: 1, Format: R32Float}, 0, "data", "0 bytes are too few"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.d, make([]byte, c.data))
			var e *Error
			if !errors.As(err, &e) || e.Field != c.field || !strings.Contains(e.Msg, c.says) {
				t.Fatalf("Decode error = %v; want %s: ...%s...", err, c.field, c.says)
			}
		})
	}
}

func TestDecodeIgnoresBytesPastTheImage(t *testing.T) {
	img, err := Decode(Description{Width: 1, Height: 1, Format: R8Unorm}, []byte{9, 1, 2, 3})
	if err != nil || !bytes.Equal(img.Pix, []byte{9}) {
		t.Fatalf("Decode = %v, %v", img.Pix, err)
	}
}

func TestReadExactRefuses(t *testing.T) {
	for name, file := range map[string]string{
		"not JSON":        `{"width":`,
		"data too short":  `{"width":2,"height":1,"format":"r8unorm","data":"AQ=="}`,
		"data too long":   `{"width":1,"height":1,"format":"r8unorm","data":"AQI="}`,
		"misspelt field":  `{"width":1,"height":1,"format":"r8unorm","bytes_per_rows":4,"data":"AQ=="}`,
		"bad description": `{"width":99999,"height":1,"format":"r8unorm","data":""}`,
	} {
		if _, err := ReadExact([]byte(file)); err == nil {
			t.Errorf("%s: ReadExact took %s", name, file)
		}
	}
}

func TestReadPNGRefusesWhatItCannotHoldExactly(t *testing.T) {
	var gray bytes.Buffer
	if err := WritePNG(&gray, Image{Width: 1, Height: 1, Format: R8Unorm, Pix: []byte{7}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPNG(gray.Bytes(), RGBA8Unorm); err == nil {
		t.Error("ReadPNG read a grayscale PNG as rgba8unorm")
	}
	if _, err := ReadPNG(gray.Bytes(), R32Float); err == nil {
		t.Error("ReadPNG read a PNG as r32float")
	}
	if _, err := ReadPNG([]byte("\x89PNG\r\n\x1a\nnot really"), R8Unorm); err == nil {
		t.Error("ReadPNG read a broken PNG")
	}
}
