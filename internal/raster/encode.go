package raster

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"math"
)

// encoder writes every PNG of the package: one fixed compression level,
// so that one image gives the same bytes every time.
var encoder = png.Encoder{CompressionLevel: png.DefaultCompression}

// WritePNG writes img as a PNG for people to look at. 8-bit formats are
// written exactly: r8unorm as 8-bit grayscale, the others as 8-bit RGBA
// (bgra formats swizzled), sRGB formats' bytes as they are. Float and
// integer formats are a 16-bit visualisation (grayscale for one channel,
// RGBA for more) normalised to the image's range; WriteExact keeps their
// values.
func WritePNG(w io.Writer, img Image) error {
	l, err := img.check()
	if err != nil {
		return err
	}
	var m image.Image
	rect := image.Rect(0, 0, img.Width, img.Height)
	switch {
	case l.kind == unorm8 && l.channels == 1:
		m = &image.Gray{Pix: img.Pix, Stride: img.Width, Rect: rect}
	case l.kind == unorm8:
		m = &image.NRGBA{Pix: img.Pix, Stride: 4 * img.Width, Rect: rect}
	default:
		m = visualise(l, img)
	}
	return encoder.Encode(w, m)
}

// span is the range a visualisation maps to 0..1: the image's finite
// color values (alpha aside), widened to hold 0.
type span struct{ lo, hi float64 }

func colorChannels(l layout) int { return min(l.channels, 3) }

func spanOf(l layout, img Image) span {
	s := span{}
	size, n := l.kind.channelBytes(), l.texelBytes()
	for i := 0; i < len(img.Pix); i += n {
		for c := range colorChannels(l) {
			v := number(l.kind, img.Pix[i+c*size:])
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				s.lo, s.hi = min(s.lo, v), max(s.hi, v)
			}
		}
	}
	return s
}

// level maps v into 0..1: NaN and -Inf to 0, +Inf to 1.
func (s span) level(v float64) float64 {
	switch {
	case math.IsNaN(v) || s.hi == s.lo:
		return 0
	}
	return math.Max(0, math.Min(1, (v-s.lo)/(s.hi-s.lo)))
}

// number is any non-8-bit channel's value as a float64.
func number(k kind, b []byte) float64 {
	if k.isFloat() {
		return channelValue(k, b)
	}
	return float64(channelInt(k, b))
}

// visualise draws a float or integer image as 16-bit levels of its span:
// grayscale for one channel, otherwise red, green (and blue) with alpha
// opaque, since an alpha of other units than the colors would hide them.
func visualise(l layout, img Image) image.Image {
	s := spanOf(l, img)
	rect := image.Rect(0, 0, img.Width, img.Height)
	size, n := l.kind.channelBytes(), l.texelBytes()
	level16 := func(p, c int) uint16 {
		return uint16(math.Round(s.level(number(l.kind, img.Pix[p*n+c*size:])) * 0xffff))
	}
	if l.channels == 1 {
		g := image.NewGray16(rect)
		for p := range img.Width * img.Height {
			v := level16(p, 0)
			g.Pix[2*p], g.Pix[2*p+1] = byte(v>>8), byte(v)
		}
		return g
	}
	m := image.NewNRGBA64(rect)
	for p := range img.Width * img.Height {
		px := m.Pix[8*p : 8*p+8]
		for c := range colorChannels(l) {
			v := level16(p, c)
			px[2*c], px[2*c+1] = byte(v>>8), byte(v)
		}
		px[6], px[7] = 0xff, 0xff
	}
	return m
}

// exact is the side file that keeps an image's values exactly: its tight
// description and its bytes as a readback holds them, in base64 as DRP2
// carries readback data.
type exact struct {
	Description
	Data []byte `json:"data"`
}

// WriteExact writes img's exact values as JSON: width, height,
// bytes_per_row (tight), format and data (base64 of the texels, rows
// without padding, channels little-endian in the format's order). Decode
// of that description and data, or ReadExact of the file, gives img.
func WriteExact(w io.Writer, img Image) error {
	l, err := img.check()
	if err != nil {
		return err
	}
	d := img.Description()
	d.BytesPerRow = img.Width * l.texelBytes()
	data := bytes.Clone(img.Pix)
	if l.bgra {
		swapRB(data)
	}
	out, err := json.Marshal(exact{Description: d, Data: data})
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// ReadExact reads a file WriteExact wrote, held to the same bounds as a
// readback; its data must be exactly the image's bytes.
func ReadExact(b []byte) (Image, error) {
	var e exact
	dec := json.NewDecoder(bytes.NewReader(b))
	// A misspelt field would otherwise leave its default in place.
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Image{}, err
	}
	need, err := e.Size()
	if err != nil {
		return Image{}, err
	}
	if len(e.Data) != need {
		return Image{}, fail("data", "%d bytes, not the %d the description needs", len(e.Data), need)
	}
	return Decode(e.Description, e.Data)
}

// ReadPNG reads a PNG of an 8-bit format f, as WritePNG writes one: 8-bit
// grayscale for r8unorm, 8-bit RGB or RGBA for the others. Its size is
// checked against the bounds before its pixels are decoded.
func ReadPNG(b []byte, f Format) (Image, error) {
	l, ok := layouts[f]
	if !ok || l.kind != unorm8 {
		return Image{}, fail("format", "%s is not an 8-bit format a PNG holds exactly; its values are kept by WriteExact", quoteShort(string(f)))
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return Image{}, err
	}
	d := Description{Width: cfg.Width, Height: cfg.Height, Format: f}
	if _, _, err := d.check(); err != nil {
		return Image{}, err
	}
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return Image{}, err
	}
	img := Image{Width: d.Width, Height: d.Height, Format: f}
	switch m := m.(type) {
	case *image.Gray:
		if l.channels == 1 {
			img.Pix = m.Pix
		}
	case *image.NRGBA:
		if l.channels == 4 {
			img.Pix = m.Pix
		}
	case *image.RGBA:
		// An opaque PNG decodes as RGBA, whose values are then NRGBA's.
		if l.channels == 4 && m.Opaque() {
			img.Pix = m.Pix
		}
	}
	if img.Pix == nil {
		return Image{}, fail("data", "a %T PNG does not hold %s texels exactly", m, f)
	}
	_, err = img.check()
	return img, err
}
