package raster

import (
	"encoding/binary"
	"math"
	"strconv"
)

// texelDiff is how one texel differs from the reference's: its worst
// channel, and whether any channel is beyond the tolerance.
type texelDiff struct {
	differs bool // some channel differs at all
	beyond  bool // some channel differs by more than the tolerance allows
	// delta is the largest channel difference of an 8-bit or integer
	// format; abs and ulp are a float format's largest.
	delta   uint64
	abs     float64
	ulp     uint64
	channel int // the channel of the largest difference
}

// nanULP is the ULP distance of a NaN from a number: more than any bound
// Tolerance.Check lets through.
const nanULP = math.MaxUint64

// diffTexel compares texel a with reference texel b of layout l.
func diffTexel(l layout, a, b []byte, tol Tolerance) texelDiff {
	var d texelDiff
	size := l.kind.channelBytes()
	for c := range l.channels {
		ca, cb := a[c*size:(c+1)*size], b[c*size:(c+1)*size]
		switch {
		case l.kind == unorm8:
			d.integer(c, absDiff(uint64(ca[0]), uint64(cb[0])), uint64(tol.MaxChannelDelta))
		case l.kind.isFloat():
			d.float(c, channelValue(l.kind, ca), channelValue(l.kind, cb), ordered(l.kind, ca), ordered(l.kind, cb), tol)
		default:
			// Integer formats hold ids and counts: any difference
			// changes the pixel, whatever MaxChannelDelta says.
			d.integer(c, absDiff64(channelInt(l.kind, ca), channelInt(l.kind, cb)), 0)
		}
	}
	return d
}

func (d *texelDiff) integer(c int, delta, allowed uint64) {
	if delta == 0 {
		return
	}
	d.differs = true
	d.beyond = d.beyond || delta > allowed
	if delta > d.delta {
		d.delta, d.channel = delta, c
	}
}

// float compares two float channels: NaN equals NaN whatever its payload,
// +0 equals -0, and other values are within the tolerance when either
// their absolute difference or their ULP distance is within its bound.
func (d *texelDiff) float(c int, a, b float64, oa, ob int64, tol Tolerance) {
	nanA, nanB := a != a, b != b
	if nanA && nanB || a == b {
		return
	}
	abs, ulp := math.Inf(1), uint64(nanULP)
	if !nanA && !nanB {
		abs = math.Abs(a - b)
		ulp = absDiff64(oa, ob)
	}
	d.differs = true
	d.beyond = d.beyond || abs > tol.FloatAbs && ulp > tol.FloatULP
	if abs > d.abs {
		d.abs, d.channel = abs, c
	}
	d.ulp = max(d.ulp, ulp)
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

func absDiff64(a, b int64) uint64 {
	if a > b {
		return uint64(a - b)
	}
	return uint64(b - a)
}

// channelValue is a float channel's value.
func channelValue(k kind, b []byte) float64 {
	if k == half {
		return halfToFloat(binary.LittleEndian.Uint16(b))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}

// channelInt is an integer channel's value.
func channelInt(k kind, b []byte) int64 {
	v := binary.LittleEndian.Uint32(b)
	if k == signed {
		return int64(int32(v))
	}
	return int64(v)
}

// ordered maps a float channel's bits to integers in the order of the
// values, -0 and +0 both to 0, so that the ULP distance of two values is
// the difference of their images.
func ordered(k kind, b []byte) int64 {
	var bits, sign uint64
	if k == half {
		bits, sign = uint64(binary.LittleEndian.Uint16(b)), 1<<15
	} else {
		bits, sign = uint64(binary.LittleEndian.Uint32(b)), 1<<31
	}
	if bits&sign != 0 {
		return -int64(bits &^ sign)
	}
	return int64(bits)
}

// halfToFloat converts IEEE 754 binary16 bits.
func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// valueText is channel c of texel px as text: an integer for 8-bit and
// integer formats, the shortest exact decimal for floats.
func valueText(l layout, px []byte, c int) string {
	size := l.kind.channelBytes()
	b := px[c*size : (c+1)*size]
	switch {
	case l.kind == unorm8:
		return strconv.Itoa(int(b[0]))
	case l.kind.isFloat():
		return strconv.FormatFloat(channelValue(l.kind, b), 'g', -1, 32)
	}
	return strconv.FormatInt(channelInt(l.kind, b), 10)
}
