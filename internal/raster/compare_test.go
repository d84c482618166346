package raster

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// solid is a w x h image of format f whose every texel is px.
func solid(f Format, w, h int, px []byte) Image {
	return Image{Width: w, Height: h, Format: f, Pix: bytes.Repeat(px, w*h)}
}

// with returns a copy of img with texel p set to px.
func with(img Image, p int, px []byte) Image {
	n := layouts[img.Format].texelBytes()
	img.Pix = bytes.Clone(img.Pix)
	copy(img.Pix[p*n:], px)
	return img
}

func mustCompare(t *testing.T, got, want Image, tol Tolerance) Comparison {
	t.Helper()
	c, err := Compare(got, want, tol)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestOneUnitChange is the target: a one-unit channel change passes under
// a channel tolerance of 1 and fails at 0, naming the bound.
func TestOneUnitChange(t *testing.T) {
	ref := solid(RGBA8Unorm, 4, 4, []byte{10, 20, 30, 255})
	got := with(ref, 5, []byte{10, 21, 30, 255})
	c := mustCompare(t, got, ref, Tolerance{MaxChannelDelta: 1})
	if !c.Pass() || c.Outcome != Within || c.ChangedPixels != 0 || c.DifferentPixels != 1 || c.MaxChannelDelta != 1 {
		t.Errorf("under a tolerance of 1: %+v", c)
	}
	c = mustCompare(t, got, ref, Tolerance{})
	if c.Pass() || c.Exceeded != "max_channel_delta 1 > 0" || c.ChangedPixels != 1 {
		t.Errorf("exact: %+v", c)
	}
	want := Texel{X: 1, Y: 1, Channel: "g", Got: "21", Want: "20"}
	if c.Worst != want {
		t.Errorf("Worst = %+v, want %+v", c.Worst, want)
	}
}

func TestCompareBoundaries(t *testing.T) {
	ref := solid(RGBA8Unorm, 10, 10, []byte{100, 100, 100, 255})
	// Three pixels change: by 3, 2 and 1 in one channel each.
	got := with(with(with(ref, 0, []byte{103}), 42, []byte{100, 98}), 99, []byte{100, 100, 101})
	cases := []struct {
		tol      Tolerance
		outcome  Outcome
		exceeded string
		changed  int
	}{
		{Tolerance{}, Exceeded, "max_channel_delta 3 > 0", 3},
		{Tolerance{MaxChannelDelta: 2}, Exceeded, "max_channel_delta 3 > 2", 1},
		{Tolerance{MaxChannelDelta: 3}, Within, "", 0},
		{Tolerance{MaxChangedPixels: 3}, Within, "", 3},
		{Tolerance{MaxChangedPixels: 2}, Exceeded, "changed_pixels 3 > 2", 3},
		{Tolerance{MaxChangedPixels: 1, MaxChannelDelta: 1}, Exceeded, "changed_pixels 2 > 1", 2},
		{Tolerance{MaxChangedFraction: 0.03}, Within, "", 3},
		{Tolerance{MaxChangedFraction: 0.029}, Exceeded, "changed_fraction 3/100 > 0.029", 3},
		// The larger allowance of count and fraction holds.
		{Tolerance{MaxChangedPixels: 1, MaxChangedFraction: 0.02}, Exceeded, "changed_fraction 3/100 > 0.02", 3},
		{Tolerance{MaxChangedPixels: 2, MaxChangedFraction: 0.02}, Exceeded, "changed_pixels 3 > 2", 3},
		{Tolerance{MaxChangedPixels: 1, MaxChangedFraction: 0.03}, Within, "", 3},
	}
	for _, c := range cases {
		got := mustCompare(t, got, ref, c.tol)
		if got.Outcome != c.outcome || got.Exceeded != c.exceeded || got.ChangedPixels != c.changed || got.DifferentPixels != 3 || got.MaxChannelDelta != 3 {
			t.Errorf("%+v: %s %q, %d changed; want %s %q, %d", c.tol, got.Outcome, got.Exceeded, got.ChangedPixels, c.outcome, c.exceeded, c.changed)
		}
	}
	if c := mustCompare(t, ref, ref, Tolerance{}); c.Outcome != Identical || c.Worst != (Texel{}) || c.Pixels != 100 {
		t.Errorf("an image against itself: %+v", c)
	}
}

func TestAllowedPixelsOfDecimalFractions(t *testing.T) {
	for _, f := range []float64{0.29, 0.07, 0.57, 0.01} {
		want := int(math.Round(f * 100))
		if got := (Tolerance{MaxChangedFraction: f}).allowedPixels(100); got != want {
			t.Errorf("%v of 100 pixels allows %d, want %d", f, got, want)
		}
	}
}

func TestCompareFloats(t *testing.T) {
	one := math.Float32bits(1)
	next := math.Float32frombits(one + 4) // 4 ULP above 1
	nan1, nan2 := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7f800042)
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		name      string
		got, want float32
		tol       Tolerance
		outcome   Outcome
		exceeded  string
	}{
		{"NaN payloads", nan1, nan2, Tolerance{}, Identical, ""},
		{"signed zeros", negZero, 0, Tolerance{}, Identical, ""},
		{"4 ULP exact", next, 1, Tolerance{}, Exceeded, "float_abs 4.76837158203125e-07 > 0"},
		{"4 ULP under 4", next, 1, Tolerance{FloatULP: 4}, Within, ""},
		{"4 ULP over 3", next, 1, Tolerance{FloatULP: 3}, Exceeded, "float_ulp 4 > 3"},
		{"abs at its bound", 1.5, 1, Tolerance{FloatAbs: 0.5}, Within, ""},
		{"abs over", 1.5, 1, Tolerance{FloatAbs: 0.25}, Exceeded, "float_abs 0.5 > 0.25"},
		{"either bound", 1.5, 1, Tolerance{FloatAbs: 0.25, FloatULP: 1 << 22}, Within, ""},
		{"both over", 1.5, 1, Tolerance{FloatAbs: 0.25, FloatULP: 4}, Exceeded, "float_abs 0.5 > 0.25 and float_ulp 4194304 > 4"},
		{"NaN against a number", nan1, 1, Tolerance{FloatAbs: 1e30, FloatULP: math.MaxUint32}, Exceeded, "float_abs +Inf > 1e+30 and float_ulp nan > 4294967295"},
		{"infinities", float32(math.Inf(1)), float32(math.Inf(1)), Tolerance{}, Identical, ""},
	}
	for _, c := range cases {
		ref := Image{Width: 1, Height: 1, Format: R32Float, Pix: f32(c.want)}
		img := Image{Width: 1, Height: 1, Format: R32Float, Pix: f32(c.got)}
		got := mustCompare(t, img, ref, c.tol)
		if got.Outcome != c.outcome || got.Exceeded != c.exceeded {
			t.Errorf("%s: %s %q; want %s %q", c.name, got.Outcome, got.Exceeded, c.outcome, c.exceeded)
		}
	}
}

func TestCompareHalfFloats(t *testing.T) {
	ref := Image{Width: 1, Height: 1, Format: R16Float, Pix: le16(0x3c00)}
	img := Image{Width: 1, Height: 1, Format: R16Float, Pix: le16(0x3c02)}
	if c := mustCompare(t, img, ref, Tolerance{FloatULP: 1}); c.Exceeded != "float_ulp 2 > 1" || c.MaxULP != 2 || c.Worst.Got != "1.0019531" {
		t.Errorf("%+v", c)
	}
	if c := mustCompare(t, img, ref, Tolerance{FloatULP: 2}); !c.Pass() {
		t.Errorf("%+v", c)
	}
}

func TestCompareIntegersIsExact(t *testing.T) {
	ref := Image{Width: 2, Height: 1, Format: RG32Uint, Pix: le32(5, 6, 7, 8)}
	img := Image{Width: 2, Height: 1, Format: RG32Uint, Pix: le32(5, 6, 7, 9)}
	c := mustCompare(t, img, ref, Tolerance{MaxChannelDelta: 255})
	if c.Exceeded != "max_channel_delta 1 > 0" || c.Worst != (Texel{X: 1, Y: 0, Channel: "g", Got: "9", Want: "8"}) {
		t.Errorf("%+v", c)
	}
	if c := mustCompare(t, img, ref, Tolerance{MaxChangedPixels: 1}); !c.Pass() {
		t.Errorf("one id changed, one allowed: %+v", c)
	}
	sref := Image{Width: 1, Height: 1, Format: R32Sint, Pix: le32(0x80000000)}
	simg := Image{Width: 1, Height: 1, Format: R32Sint, Pix: le32(0x7fffffff)}
	if c := mustCompare(t, simg, sref, Tolerance{}); c.MaxChannelDelta != math.MaxUint32 {
		t.Errorf("the widest signed difference: %+v", c)
	}
}

func TestCompareShapes(t *testing.T) {
	rgba := solid(RGBA8Unorm, 2, 2, []byte{1, 2, 3, 4})
	cases := []struct {
		name     string
		got      Image
		outcome  Outcome
		exceeded string
	}{
		{"dimensions", solid(RGBA8Unorm, 2, 3, []byte{1, 2, 3, 4}), DimensionsDiffer, "dimensions 2x3 != 2x2"},
		{"transposed", solid(RGBA8Unorm, 4, 1, []byte{1, 2, 3, 4}), DimensionsDiffer, "dimensions 4x1 != 2x2"},
		{"srgb", solid(RGBA8UnormSRGB, 2, 2, []byte{1, 2, 3, 4}), FormatsDiffer, "format rgba8unorm-srgb != rgba8unorm"},
		{"channels", solid(R8Unorm, 2, 2, []byte{1}), FormatsDiffer, "format r8unorm != rgba8unorm"},
		// An Image holds bgra as RGBA: a canvas format compares with
		// an ordinary target's.
		{"bgra", solid(BGRA8Unorm, 2, 2, []byte{1, 2, 3, 4}), Identical, ""},
	}
	for _, c := range cases {
		got := mustCompare(t, c.got, rgba, Tolerance{MaxChannelDelta: 255, MaxChangedFraction: 1})
		if got.Outcome != c.outcome || got.Exceeded != c.exceeded {
			t.Errorf("%s: %s %q; want %s %q", c.name, got.Outcome, got.Exceeded, c.outcome, c.exceeded)
		}
		err := WriteDiffPNG(new(bytes.Buffer), c.got, rgba, Tolerance{})
		if (c.outcome == Identical) != (err == nil) || err != nil && !errors.Is(err, ErrNoDiffImage) {
			t.Errorf("%s: WriteDiffPNG: %v", c.name, err)
		}
	}
}

func TestCompareRefuses(t *testing.T) {
	img := solid(R8Unorm, 1, 1, []byte{1})
	for _, tol := range []Tolerance{
		{MaxChannelDelta: -1}, {MaxChannelDelta: 256}, {MaxChangedPixels: -1},
		{MaxChangedFraction: 1.5}, {MaxChangedFraction: math.NaN()}, {FloatAbs: -1},
		{FloatAbs: math.Inf(1)}, {FloatAbs: math.NaN()}, {FloatULP: 1 << 32},
	} {
		if _, err := Compare(img, img, tol); err == nil {
			t.Errorf("Compare took %+v", tol)
		}
	}
	short := Image{Width: 2, Height: 1, Format: R8Unorm, Pix: []byte{1}}
	if _, err := Compare(short, img, Tolerance{}); err == nil {
		t.Error("Compare took an image short of its texels")
	}
	if _, err := Compare(img, Image{Width: 1, Height: 1, Format: "x", Pix: []byte{1}}, Tolerance{}); err == nil {
		t.Error("Compare took a reference of no format")
	}
}

// BenchmarkCompareRGBA8 compares two 1024 x 1024 rgba8unorm images:
// equal, and differing in one pixel of every 64, under a channel
// tolerance.
func BenchmarkCompareRGBA8(b *testing.B) {
	ref := solid(RGBA8Unorm, 1024, 1024, []byte{10, 20, 30, 255})
	sparse := ref
	sparse.Pix = bytes.Clone(ref.Pix)
	for p := 0; p < 1024*1024; p += 64 {
		sparse.Pix[4*p+1] += byte(p / 64 % 5)
	}
	equal := ref
	equal.Pix = bytes.Clone(ref.Pix)
	for _, c := range []struct {
		name string
		got  Image
	}{{"equal", equal}, {"one-in-64", sparse}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(ref.Pix)))
			b.ReportAllocs()
			// The CPU time too: on a shared machine the wall clock
			// measures the neighbours.
			var cpu time.Duration
			for b.Loop() {
				var err error
				cpu += testkit.CPUTime(func() { _, err = Compare(c.got, ref, Tolerance{MaxChannelDelta: 2}) })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestCompareFindsADifferenceAfterEqualRuns puts one difference past
// several runs of equal texels, and one in the last, short run.
func TestCompareFindsADifferenceAfterEqualRuns(t *testing.T) {
	ref := solid(R8Unorm, 15, 15, []byte{50})
	got := with(with(ref, 3*64+5, []byte{52}), 224, []byte{51})
	c := mustCompare(t, got, ref, Tolerance{})
	if c.DifferentPixels != 2 || c.Worst != (Texel{X: 197 % 15, Y: 197 / 15, Channel: "r", Got: "52", Want: "50"}) {
		t.Errorf("%+v", c)
	}
}
