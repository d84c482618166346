package raster

import (
	"errors"
	"fmt"
	"image"
	"io"
	"math"
)

// ErrNoDiffImage is why WriteDiffPNG draws nothing: images of different
// sizes or formats have no pixel-for-pixel difference to draw, and the
// comparison's Exceeded says how they differ.
var ErrNoDiffImage = errors.New("no diff image")

// WriteDiffPNG draws where got differs from the reference want under tol,
// as an opaque 8-bit RGB PNG of their size: a pixel that does not differ
// is the reference's luma dimmed to a quarter, gray; a pixel that differs
// within the tolerance is blue, and one changed beyond it red, each from
// half to full brightness with the size of its largest difference.
func WriteDiffPNG(w io.Writer, got, want Image, tol Tolerance) error {
	c, err := Compare(got, want, tol)
	if err != nil {
		return err
	}
	if c.Outcome == DimensionsDiffer || c.Outcome == FormatsDiffer {
		return fmt.Errorf("%w: %s", ErrNoDiffImage, c.Exceeded)
	}
	l := layouts[want.Format]
	m := image.NewRGBA(image.Rect(0, 0, want.Width, want.Height))
	var s span
	if l.kind != unorm8 {
		s = spanOf(l, want)
	}
	n := l.texelBytes()
	for p := range want.Width * want.Height {
		a, b := got.Pix[p*n:(p+1)*n], want.Pix[p*n:(p+1)*n]
		px := m.Pix[4*p : 4*p+4]
		px[3] = 0xff
		d := diffTexel(l, a, b, tol)
		switch {
		case !d.differs:
			px[0] = luma(l, s, b) / 4
			px[1], px[2] = px[0], px[0]
		case d.beyond:
			px[0] = brightness(l, s, d)
		default:
			px[2] = brightness(l, s, d)
		}
	}
	return encoder.Encode(w, m)
}

// brightness is 128 to 255 with the size of a texel's largest difference:
// of 255 in an 8-bit format, of the reference's span in a float format,
// full for an integer format.
func brightness(l layout, s span, d texelDiff) byte {
	t := 1.0
	switch {
	case l.kind == unorm8:
		t = float64(d.delta) / 255
	case l.kind.isFloat() && s.hi > s.lo:
		t = math.Min(1, d.abs/(s.hi-s.lo))
	}
	return byte(128 + math.Round(127*t))
}

// luma is a reference texel's brightness, 0 to 255: Rec. 601 weights of
// red, green and blue (an 8-bit format's values, another format's levels
// of its span s), the mean of two channels, or the one channel.
func luma(l layout, s span, px []byte) byte {
	v := func(c int) float64 {
		if l.kind == unorm8 {
			return float64(px[c])
		}
		return 255 * s.level(number(l.kind, px[c*l.kind.channelBytes():]))
	}
	switch l.channels {
	case 1:
		return byte(math.Round(v(0)))
	case 2:
		return byte(math.Round((v(0) + v(1)) / 2))
	}
	return byte(math.Round(0.299*v(0) + 0.587*v(1) + 0.114*v(2)))
}
