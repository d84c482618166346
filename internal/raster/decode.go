package raster

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The bounds of an image from a readback. Width, height and row pitch are
// written by whoever wrote the fixture, so each is bounded before any
// product of them is formed or anything is allocated.
const (
	// MaxDimension is WebGPU's maxTextureDimension2D on most adapters.
	MaxDimension = 16384
	// MaxPixels is the pixel budget of one image: 4096 x 4096.
	MaxPixels = 1 << 24
	// MaxBytesPerRow bounds the row pitch: a row of the widest texels
	// (16 bytes) at MaxDimension, with room for padding.
	MaxBytesPerRow = 1 << 20
)

// Description says how a readback's bytes form an image.
type Description struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// BytesPerRow is the row pitch: from the start of one row to the
	// next. It is at least Width times the texel size; 0 means exactly
	// that. WebGPU copies to a buffer pad it to a multiple of 256, which
	// any pitch at least the tight one accepts.
	BytesPerRow int    `json:"bytes_per_row,omitempty"`
	Format      Format `json:"format"`
}

// Image is a decoded readback: texels row by row, without padding.
type Image struct {
	Width, Height int
	Format        Format
	// Pix holds the channels of each texel, little-endian, in the
	// format's order, except that bgra formats are held R, G, B, A.
	Pix []byte
}

// Error is a description that does not fit its bytes or the bounds, with
// the field it concerns ("width", "height", "bytes_per_row", "format" or
// "data") so that a caller can point at its place in a file.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

func fail(field, format string, args ...any) error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// check holds d to the bounds and returns its format's layout and row
// pitch.
func (d Description) check() (layout, int, error) {
	l, ok := layouts[d.Format]
	if !ok {
		return l, 0, fail("format", "%s is not an image format a readback can have (%s)", quoteShort(string(d.Format)), formatList())
	}
	if d.Width < 1 || d.Width > MaxDimension {
		return l, 0, fail("width", "%d is not between 1 and %d", d.Width, MaxDimension)
	}
	if d.Height < 1 || d.Height > MaxDimension {
		return l, 0, fail("height", "%d is not between 1 and %d", d.Height, MaxDimension)
	}
	if int64(d.Width)*int64(d.Height) > MaxPixels {
		return l, 0, fail("height", "%d x %d is %d pixels, over the budget of %d", d.Width, d.Height, int64(d.Width)*int64(d.Height), MaxPixels)
	}
	tight := d.Width * l.texelBytes()
	pitch := d.BytesPerRow
	switch {
	case pitch == 0:
		pitch = tight
	case pitch < 0 || pitch > MaxBytesPerRow:
		return l, 0, fail("bytes_per_row", "%d is not between 0 and %d", pitch, MaxBytesPerRow)
	case pitch < tight:
		return l, 0, fail("bytes_per_row", "%d is under the %d bytes of a row of %d %s texels", pitch, tight, d.Width, d.Format)
	}
	return l, pitch, nil
}

// Size is the fewest bytes a readback of d holds: every row but the last
// at its pitch, and the last row's texels, as WebGPU sizes a copy.
func (d Description) Size() (int, error) {
	_, need, err := d.sized()
	return need, err
}

// sized checks d and returns its row pitch and Size.
func (d Description) sized() (pitch, need int, err error) {
	l, pitch, err := d.check()
	if err != nil {
		return 0, 0, err
	}
	size := int64(d.Height-1)*int64(pitch) + int64(d.Width*l.texelBytes())
	if size > math.MaxInt {
		return 0, 0, fail("bytes_per_row", "%d rows of %d bytes are more than this machine addresses", d.Height, pitch)
	}
	return pitch, int(size), nil
}

// Decode reads data as the image d describes. Bytes past the image, and
// the padding at the end of each row, are not part of it. It allocates
// only the image's texels, no more than len(data), after checking d.
func Decode(d Description, data []byte) (Image, error) {
	pitch, need, err := d.sized()
	if err != nil {
		return Image{}, err
	}
	if len(data) < need {
		return Image{}, fail("data", "%d bytes are too few for %d rows of bytes_per_row %d (%d bytes, the last row's padding not needed)", len(data), d.Height, pitch, need)
	}
	l := layouts[d.Format]
	tight := d.Width * l.texelBytes()
	pix := make([]byte, d.Height*tight)
	for y := range d.Height {
		copy(pix[y*tight:(y+1)*tight], data[y*pitch:])
	}
	if l.bgra {
		swapRB(pix)
	}
	return Image{Width: d.Width, Height: d.Height, Format: d.Format, Pix: pix}, nil
}

// Description is the tight description of img: what Decode needs to read
// img.Pix back (after swapping B and R again for a bgra format).
func (img Image) Description() Description {
	return Description{Width: img.Width, Height: img.Height, Format: img.Format}
}

// quoteShort quotes a token the input wrote, cut to the length of the
// longest format's name and more, so that an error never carries much of
// what it refuses.
func quoteShort(s string) string {
	const most = 24
	if len(s) > most {
		return strconv.Quote(strings.ToValidUTF8(s[:most], "")) + "..."
	}
	return strconv.Quote(s)
}

// swapRB swaps the first and third byte of every 4-byte texel.
func swapRB(pix []byte) {
	for i := 0; i+3 < len(pix); i += 4 {
		pix[i], pix[i+2] = pix[i+2], pix[i]
	}
}
