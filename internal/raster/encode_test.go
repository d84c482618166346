package raster

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
)

// gradient is a w x h rgba8unorm image whose texels all differ.
func gradient(w, h int) Image {
	img := Image{Width: w, Height: h, Format: RGBA8Unorm, Pix: make([]byte, 4*w*h)}
	for p := range w * h {
		x, y := p%w, p/w
		copy(img.Pix[4*p:], []byte{byte(255 * x / max(w-1, 1)), byte(255 * y / max(h-1, 1)), byte(40 * (x + y)), byte(255 - 10*x)})
	}
	return img
}

func pngOf(t *testing.T, write func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// floats is a 3 x 2 r32float image with the values a visualisation must
// place: a span from -1 to 3, infinities and a NaN.
func floats() Image {
	return Image{Width: 3, Height: 2, Format: R32Float, Pix: f32(-1, 0, 3, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()))}
}

func TestPNGGoldens(t *testing.T) {
	rgba := gradient(5, 4)
	bgra := rgba
	bgra.Format = BGRA8UnormSRGB
	r8 := Image{Width: 4, Height: 2, Format: R8Unorm, Pix: []byte{0, 40, 80, 120, 160, 200, 240, 255}}
	half := Image{Width: 2, Height: 1, Format: RGBA16Float, Pix: le16(0x3c00, 0x3800, 0, 0x3c00, 0x4000, 0x7e00, 0xbc00, 0)}
	ids := Image{Width: 2, Height: 2, Format: RG32Uint, Pix: le32(0, 1, 2, 3, 4, 5, 6, 7)}
	for name, img := range map[string]Image{
		"rgba8unorm.png": rgba, "r8unorm.png": r8, "r32float.png": floats(),
		"rgba16float.png": half, "rg32uint.png": ids,
	} {
		got := pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, img) })
		golden.Check(t, name, got)
		if again := pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, img) }); !bytes.Equal(again, got) {
			t.Errorf("%s: two writes of one image differ", name)
		}
	}
	// A bgra image holds RGBA: its PNG is the rgba image's, swizzled
	// once, and an sRGB format's bytes are written as they are.
	if !bytes.Equal(pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, bgra) }), pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, rgba) })) {
		t.Error("bgra8unorm-srgb's PNG is not rgba8unorm's of the same texels")
	}
	golden.Check(t, "r32float.json", pngOf(t, func(b *bytes.Buffer) error { return WriteExact(b, floats()) }))
}

func TestPNGKeepsEightBitValues(t *testing.T) {
	img := gradient(5, 4)
	m := decodePNG(t, pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, img) }))
	for p := range 20 {
		want := color.NRGBA{img.Pix[4*p], img.Pix[4*p+1], img.Pix[4*p+2], img.Pix[4*p+3]}
		if got := color.NRGBAModel.Convert(m.At(p%5, p/5)); got != want {
			t.Errorf("pixel %d is %v, want %v", p, got, want)
		}
	}
}

func TestVisualisationLevels(t *testing.T) {
	m := decodePNG(t, pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, floats()) }))
	// -1 to 3 is the span: -1 black, 0 a quarter, 3 and +Inf white,
	// -Inf and NaN black.
	want := []uint16{0, 0x4000, 0xffff, 0xffff, 0, 0}
	for p, w := range want {
		if got := m.At(p%3, p/3).(color.Gray16).Y; got != w {
			t.Errorf("pixel %d is level %#x, want %#x", p, got, w)
		}
	}
	ids := Image{Width: 1, Height: 1, Format: RGBA32Uint, Pix: le32(0, 2, 4, 99)}
	m = decodePNG(t, pngOf(t, func(b *bytes.Buffer) error { return WritePNG(b, ids) }))
	if got := color.NRGBA64Model.Convert(m.At(0, 0)); got != (color.NRGBA64{0, 0x8000, 0xffff, 0xffff}) {
		t.Errorf("rgba32uint (0, 2, 4, 99) is drawn %v: alpha opaque, colors in their span", got)
	}
}

func TestDiffImage(t *testing.T) {
	ref := gradient(4, 4)
	got := with(with(ref, 5, []byte{ref.Pix[20] + 1}), 10, []byte{ref.Pix[40] - 100})
	tol := Tolerance{MaxChannelDelta: 1}
	diff := pngOf(t, func(b *bytes.Buffer) error { return WriteDiffPNG(b, got, ref, tol) })
	golden.Check(t, "diff-rgba8unorm.png", diff)
	m := decodePNG(t, diff)
	checks := map[int]color.NRGBA{
		0:  {0, 0, 0, 255},    // the reference's black, dimmed
		15: {63, 63, 63, 255}, // luma 253 of (255, 255, 240), dimmed
		5:  {0, 0, 128, 255},  // within the tolerance, by 1
		10: {178, 0, 0, 255},  // beyond it, by 100: 128 + 127 x 100/255
	}
	for p, want := range checks {
		if c := color.NRGBAModel.Convert(m.At(p%4, p/4)); c != want {
			t.Errorf("diff pixel %d is %v, want %v", p, c, want)
		}
	}
	fref := floats()
	fgot := with(fref, 1, f32(0.5))
	golden.Check(t, "diff-r32float.png", pngOf(t, func(b *bytes.Buffer) error { return WriteDiffPNG(b, fgot, fref, Tolerance{}) }))
}
