package raster

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Tolerance is how far an image may be from its reference and still
// match. The zero Tolerance is exact: no channel may differ.
type Tolerance struct {
	// MaxChannelDelta is, for 8-bit formats, the largest difference of a
	// channel (in 8-bit units, 0 to 255) that leaves its pixel unchanged.
	// Integer formats are compared exactly whatever it says.
	MaxChannelDelta int `json:"max_channel_delta,omitempty"`
	// MaxChangedPixels and MaxChangedFraction are how many pixels may
	// change (differ beyond the per-channel bounds): the larger of the
	// count and floor(fraction x pixels).
	MaxChangedPixels   int     `json:"max_changed_pixels,omitempty"`
	MaxChangedFraction float64 `json:"max_changed_fraction,omitempty"`
	// FloatAbs and FloatULP bound a float channel's difference: it leaves
	// its pixel unchanged when within either bound.
	FloatAbs float64 `json:"float_abs,omitempty"`
	FloatULP uint64  `json:"float_ulp,omitempty"`
}

// Check refuses a tolerance no comparison can mean: negative bounds, a
// fraction outside 0 to 1, a float bound that is not a finite number or
// that would let a NaN match a number.
func (t Tolerance) Check() error {
	switch {
	case t.MaxChannelDelta < 0 || t.MaxChannelDelta > 255:
		return fmt.Errorf("max_channel_delta %d is not between 0 and 255", t.MaxChannelDelta)
	case t.MaxChangedPixels < 0:
		return fmt.Errorf("max_changed_pixels %d is negative", t.MaxChangedPixels)
	case !(t.MaxChangedFraction >= 0 && t.MaxChangedFraction <= 1):
		return fmt.Errorf("max_changed_fraction %v is not between 0 and 1", t.MaxChangedFraction)
	case !(t.FloatAbs >= 0 && t.FloatAbs <= math.MaxFloat64):
		return fmt.Errorf("float_abs %v is not a finite number of at least 0", t.FloatAbs)
	case t.FloatULP > math.MaxUint32:
		return fmt.Errorf("float_ulp %d is over %d", t.FloatULP, uint64(math.MaxUint32))
	}
	return nil
}

// allowedPixels is how many pixels of n may change.
func (t Tolerance) allowedPixels(n int) int {
	// The slack keeps 0.29 x 100 at 29 despite its binary rounding.
	return max(t.MaxChangedPixels, int(math.Floor(t.MaxChangedFraction*float64(n)+1e-6)))
}

// Outcome is the verdict of a comparison.
type Outcome string

const (
	// Identical: no channel differs (NaN and NaN, +0 and -0 are equal).
	Identical Outcome = "identical"
	// Within: channels differ, within the tolerance.
	Within Outcome = "within"
	// Exceeded: the tolerance Comparison.Exceeded names is exceeded.
	Exceeded Outcome = "exceeded"
	// DimensionsDiffer: the images have different sizes; nothing else is
	// measured.
	DimensionsDiffer Outcome = "dimensions"
	// FormatsDiffer: the images hold different quantities (Comparison
	// says which formats); nothing else is measured.
	FormatsDiffer Outcome = "format"
)

// Comparison is what Compare measured of an image against its reference.
type Comparison struct {
	Outcome Outcome
	// Exceeded says, short and in words that stay the same from run to
	// run, what failed: "max_channel_delta 3 > 1", "changed_pixels 12 > 10",
	// "changed_fraction 12/1000 > 0.01", "float_abs 0.5 > 0.001",
	// "float_ulp 9 > 4", "dimensions 8x8 != 4x4", "format rgba8unorm-srgb
	// != rgba8unorm". Empty when the image matches.
	Exceeded string

	Width, Height       int
	RefWidth, RefHeight int
	Format, RefFormat   Format

	Pixels int
	// DifferentPixels differ at all; ChangedPixels differ beyond the
	// per-channel bounds, and are what MaxChangedPixels bounds.
	DifferentPixels int
	ChangedPixels   int
	ChangedFraction float64

	// MaxChannelDelta is the largest channel difference of an 8-bit or
	// integer format; MaxAbs and MaxULP a float format's (+Inf and the
	// largest uint64 when a NaN meets a number).
	MaxChannelDelta uint64
	MaxAbs          float64
	MaxULP          uint64
	// Worst is where the largest difference is (the first such, in row
	// order); its zero value when no channel differs.
	Worst Texel
}

// Texel is one channel of one pixel, and its values in the two images.
type Texel struct {
	X, Y      int
	Channel   string // "r", "g", "b" or "a"
	Got, Want string
}

// Pass says whether the image matches its reference.
func (c Comparison) Pass() bool { return c.Outcome == Identical || c.Outcome == Within }

// Compare measures got against the reference want under tol.
func Compare(got, want Image, tol Tolerance) (Comparison, error) {
	if err := tol.Check(); err != nil {
		return Comparison{}, err
	}
	lg, err := got.check()
	if err != nil {
		return Comparison{}, fmt.Errorf("image: %w", err)
	}
	lw, err := want.check()
	if err != nil {
		return Comparison{}, fmt.Errorf("reference: %w", err)
	}
	c := Comparison{
		Width: got.Width, Height: got.Height, RefWidth: want.Width, RefHeight: want.Height,
		Format: got.Format, RefFormat: want.Format,
	}
	switch {
	case got.Width != want.Width || got.Height != want.Height:
		c.Outcome = DimensionsDiffer
		c.Exceeded = fmt.Sprintf("dimensions %dx%d != %dx%d", got.Width, got.Height, want.Width, want.Height)
		return c, nil
	case !comparable(lg, lw):
		c.Outcome = FormatsDiffer
		c.Exceeded = fmt.Sprintf("format %s != %s", got.Format, want.Format)
		return c, nil
	}
	c.measure(lg, got, want, tol)
	c.Outcome, c.Exceeded = c.verdict(lg, tol)
	return c, nil
}

// equalRun is how many texels measure compares at once before one by one.
const equalRun = 64

// measure walks the texels of two images of one size and layout.
func (c *Comparison) measure(l layout, got, want Image, tol Tolerance) {
	size := l.texelBytes()
	c.Pixels = got.Width * got.Height
	worst, worstAt := texelDiff{}, -1
	for i := 0; i < c.Pixels; i++ {
		// Most of an image matches its reference: skip equal runs of
		// texels at memory speed.
		if i%equalRun == 0 {
			end := min(i+equalRun, c.Pixels) * size
			if bytes.Equal(got.Pix[i*size:end], want.Pix[i*size:end]) {
				i += equalRun - 1
				continue
			}
		}
		a, b := got.Pix[i*size:(i+1)*size], want.Pix[i*size:(i+1)*size]
		if bytes.Equal(a, b) {
			continue
		}
		d := diffTexel(l, a, b, tol)
		if !d.differs {
			continue
		}
		c.DifferentPixels++
		if d.beyond {
			c.ChangedPixels++
		}
		c.MaxULP = max(c.MaxULP, d.ulp)
		if worstAt < 0 || d.delta > worst.delta || d.abs > worst.abs {
			worst, worstAt = d, i
		}
	}
	c.ChangedFraction = float64(c.ChangedPixels) / float64(c.Pixels)
	c.MaxChannelDelta, c.MaxAbs = worst.delta, worst.abs
	if worstAt >= 0 {
		a, b := got.Pix[worstAt*size:(worstAt+1)*size], want.Pix[worstAt*size:(worstAt+1)*size]
		c.Worst = Texel{
			X: worstAt % got.Width, Y: worstAt / got.Width,
			Channel: channelName(worst.channel, l.channels),
			Got:     valueText(l, a, worst.channel), Want: valueText(l, b, worst.channel),
		}
	}
}

// verdict decides a measured comparison: the changed pixels against the
// pixel allowance, and when none are allowed the per-channel bound they
// exceeded, which is what a reader then needs to know.
func (c *Comparison) verdict(l layout, tol Tolerance) (Outcome, string) {
	allowed := tol.allowedPixels(c.Pixels)
	switch {
	case c.DifferentPixels == 0:
		return Identical, ""
	case c.ChangedPixels <= allowed:
		return Within, ""
	case allowed > 0 && tol.MaxChangedPixels >= allowed:
		return Exceeded, fmt.Sprintf("changed_pixels %d > %d", c.ChangedPixels, tol.MaxChangedPixels)
	case allowed > 0:
		return Exceeded, fmt.Sprintf("changed_fraction %d/%d > %s", c.ChangedPixels, c.Pixels, formatFloat(tol.MaxChangedFraction))
	case l.kind == unorm8:
		return Exceeded, fmt.Sprintf("max_channel_delta %d > %d", c.MaxChannelDelta, tol.MaxChannelDelta)
	case !l.kind.isFloat():
		return Exceeded, fmt.Sprintf("max_channel_delta %d > 0", c.MaxChannelDelta)
	}
	abs := fmt.Sprintf("float_abs %s > %s", formatFloat(c.MaxAbs), formatFloat(tol.FloatAbs))
	ulp := fmt.Sprintf("float_ulp %s > %d", ulpText(c.MaxULP), tol.FloatULP)
	switch {
	case tol.FloatULP == 0:
		return Exceeded, abs
	case tol.FloatAbs == 0:
		return Exceeded, ulp
	}
	return Exceeded, abs + " and " + ulp
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ulpText is a ULP distance, "nan" for a NaN against a number.
func ulpText(u uint64) string {
	if u == nanULP {
		return "nan"
	}
	return strconv.FormatUint(u, 10)
}

// check holds img to its format: a known format, dimensions within the
// bounds and exactly the texels they need.
func (img Image) check() (layout, error) {
	l, _, err := img.Description().check()
	if err != nil {
		return l, err
	}
	if want := img.Width * img.Height * l.texelBytes(); len(img.Pix) != want {
		return l, fail("data", "%d bytes of texels, not the %d of %d x %d %s texels", len(img.Pix), want, img.Width, img.Height, img.Format)
	}
	return l, nil
}
