package raster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"testing"
)

// allocated is how many bytes f allocates: the least of three calls, as
// the heap's count holds every goroutine's allocations and the fuzzing
// engine's own come and go.
func allocated(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// FuzzDecode holds Decode, and everything done with what it decodes, to
// never panic and to allocate in proportion to what was checked: Decode
// no more than the readback's own size, the encoders and the comparison a
// bounded number of bytes per pixel.
func FuzzDecode(f *testing.F) {
	f.Add(2, 2, 256, "rgba8unorm", bytes.Repeat([]byte{7}, 264))
	f.Add(1, 3, 0, "r32float", le32(0x3f800000, 0x80000000, 0x7fc00001))
	f.Add(3, 1, 0, "rgba16float", le16(0x7e00, 0xfc00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
	f.Add(16384, 16384, 1<<20, "r8unorm", []byte{1})
	f.Add(4096, 4096, -1, "rg32uint", []byte{})
	f.Add(1<<62, 4, 1<<62, "bgra8unorm-srgb", []byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, w, h, pitch int, format string, data []byte) {
		d := Description{Width: w, Height: h, BytesPerRow: pitch, Format: Format(format)}
		var img Image
		var err error
		if n := allocated(func() { img, err = Decode(d, data) }); n > uint64(len(data))+4096 {
			t.Fatalf("Decode of %d bytes allocated %d", len(data), n)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Field == "" {
				t.Fatalf("Decode error %v does not name its field", err)
			}
			return
		}
		if len(img.Pix) > len(data) || img.Width != w || img.Height != h {
			t.Fatalf("Decode(%+v) of %d bytes = %dx%d with %d bytes", d, len(data), img.Width, img.Height, len(img.Pix))
		}
		pixels := uint64(w * h)
		budget := 96*pixels + 4<<20
		if n := allocated(func() { useImage(t, img) }); n > budget {
			t.Fatalf("a %dx%d %s image took %d bytes to use, over %d", w, h, format, n, budget)
		}
	})
}

// useImage does all the package does with a decoded image: encode it,
// compare it with itself and with a changed copy, draw the difference.
func useImage(t *testing.T, img Image) {
	if err := WritePNG(io.Discard, img); err != nil {
		t.Fatal(err)
	}
	var exact bytes.Buffer
	if err := WriteExact(&exact, img); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadExact(exact.Bytes()); err != nil || !bytes.Equal(back.Pix, img.Pix) {
		t.Fatalf("ReadExact(WriteExact) = %v", err)
	}
	if c, err := Compare(img, img, Tolerance{}); err != nil || c.Outcome != Identical {
		t.Fatalf("an image against itself: %+v, %v", c, err)
	}
	changed := img
	changed.Pix = bytes.Clone(img.Pix)
	changed.Pix[len(changed.Pix)/2] ^= 0x41
	for _, tol := range []Tolerance{{}, {MaxChannelDelta: 1, FloatAbs: 1e-3, FloatULP: 2, MaxChangedFraction: 0.5}} {
		if _, err := Compare(changed, img, tol); err != nil {
			t.Fatal(err)
		}
		if err := WriteDiffPNG(io.Discard, changed, img, tol); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadPNGChecksTheHeaderFirst gives ReadPNG a PNG whose header claims
// more pixels than the budget: it is refused before any pixel is
// decoded.
func TestReadPNGChecksTheHeaderFirst(t *testing.T) {
	var b bytes.Buffer
	if err := WritePNG(&b, Image{Width: 1, Height: 1, Format: R8Unorm, Pix: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	png := b.Bytes()
	// The IHDR chunk: length at 8, type at 12, width and height at 16
	// and 20, its CRC (of type and data) at 29.
	binary.BigEndian.PutUint32(png[16:], 8192)
	binary.BigEndian.PutUint32(png[20:], 8192)
	binary.BigEndian.PutUint32(png[29:], crc32.ChecksumIEEE(png[12:29]))
	var n uint64
	var err error
	n = allocated(func() { _, err = ReadPNG(png, R8Unorm) })
	var e *Error
	if !errors.As(err, &e) || e.Field != "height" {
		t.Fatalf("ReadPNG of an 8192 x 8192 header: %v", err)
	}
	if n > 1<<20 {
		t.Errorf("ReadPNG allocated %d bytes before refusing", n)
	}
}
