package drp2

import (
	"encoding/json"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// maxDigits bounds the decimal digits kept exactly for a huge integer. The
// schema sets no maximum on ids and sizes, so a literal such as 1e999999999
// is schema-valid; expanding it would cost gigabytes. Every value with more
// digits compares as this bound, which is still far beyond any real limit.
const maxDigits = 4096

var (
	bigMaxUint64 = new(big.Int).SetUint64(math.MaxUint64)
	bigCeiling   = new(big.Int).Exp(big.NewInt(10), big.NewInt(maxDigits), nil)
)

// Num is a non-negative integer of any size. Values that fit in uint64 stay
// on the fast path (b == nil); larger ones are kept exactly in b, so range
// arithmetic never overflows and never silently wraps.
type Num struct {
	u uint64
	b *big.Int
}

func small(u uint64) Num { return Num{u: u} }

func (n Num) isBig() bool { return n.b != nil }

func (n Num) bigInt() *big.Int {
	if n.b != nil {
		return n.b
	}
	return new(big.Int).SetUint64(n.u)
}

func numFromBig(b *big.Int) Num {
	if b.IsUint64() {
		return Num{u: b.Uint64()}
	}
	return Num{b: b}
}

// String prints the exact value, or a bounded form for values past maxDigits.
func (n Num) String() string {
	if n.b == nil {
		return strconv.FormatUint(n.u, 10)
	}
	if n.b.Cmp(bigCeiling) >= 0 {
		return "1e" + strconv.Itoa(maxDigits) + " or more"
	}
	return n.b.String()
}

func add(a, b Num) Num {
	if a.b == nil && b.b == nil {
		s, carry := bits.Add64(a.u, b.u, 0)
		if carry == 0 {
			return Num{u: s}
		}
	}
	return numFromBig(new(big.Int).Add(a.bigInt(), b.bigInt()))
}

func mul(a, b Num) Num {
	if a.b == nil && b.b == nil {
		hi, lo := bits.Mul64(a.u, b.u)
		if hi == 0 {
			return Num{u: lo}
		}
	}
	return numFromBig(new(big.Int).Mul(a.bigInt(), b.bigInt()))
}

// sub returns a-b for a >= b, and 0 otherwise.
func sub(a, b Num) Num {
	if cmp(a, b) <= 0 {
		return Num{}
	}
	if a.b == nil {
		return Num{u: a.u - b.u}
	}
	return numFromBig(new(big.Int).Sub(a.bigInt(), b.bigInt()))
}

func cmp(a, b Num) int {
	if a.b == nil && b.b == nil {
		switch {
		case a.u < b.u:
			return -1
		case a.u > b.u:
			return 1
		}
		return 0
	}
	return a.bigInt().Cmp(b.bigInt())
}

// shr returns n >> k for a mip level k.
func shr(n Num, k Num) Num {
	if k.b != nil {
		return Num{}
	}
	if n.b == nil {
		if k.u >= 64 {
			return Num{}
		}
		return Num{u: n.u >> k.u}
	}
	if k.u > uint64(n.b.BitLen()) {
		return Num{}
	}
	return numFromBig(new(big.Int).Rsh(n.b, uint(k.u)))
}

// atLeastOne is max(1, n), the extent rule of a mip level.
func atLeastOne(n Num) Num {
	if n.b == nil && n.u == 0 {
		return Num{u: 1}
	}
	return n
}

// ID is an object id: the exact value when it fits in uint64, else a
// canonical decimal form, so that two spellings of one huge id (1e30 and
// 1000...0) name the same object and never collide with a small one.
type ID struct {
	n   uint64
	big string
}

func (id ID) String() string {
	if id.big != "" {
		return id.big
	}
	return strconv.FormatUint(id.n, 10)
}

// number is a parsed JSON integer literal: its value and its canonical key.
type number struct {
	val Num
	id  ID
}

// parseNumber reads a non-negative JSON integer literal in any spelling the
// JSON grammar allows (12, 12.0, 1.2e1, 1E+400). It reports false for
// negative or fractional values and for text that is not a number.
func parseNumber(s string) (number, bool) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intPart := s[start:i]
	if intPart == "" {
		return number{}, false
	}
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		frac = s[fs:i]
		if frac == "" {
			return number{}, false
		}
	}
	exp := int64(0)
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			// Saturate: an exponent past a billion is "huge" either way.
			if exp < 1e9 {
				exp = exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == es {
			return number{}, false
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(s) {
		return number{}, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	if digits == "" {
		return number{}, true // zero, including -0
	}
	if neg {
		return number{}, false
	}
	for digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if exp < 0 {
		return number{}, false // fractional
	}
	width := int64(len(digits)) + exp
	if width <= 19 {
		u, _ := strconv.ParseUint(digits, 10, 64)
		for e := int64(0); e < exp; e++ {
			u *= 10
		}
		return number{val: Num{u: u}, id: ID{n: u}}, true
	}
	key := digits + "e" + strconv.FormatInt(exp, 10)
	var b *big.Int
	if width > maxDigits {
		b = bigCeiling
	} else {
		b, _ = new(big.Int).SetString(digits, 10)
		if exp > 0 {
			b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(exp), nil))
		}
	}
	if b.Cmp(bigMaxUint64) <= 0 {
		u := b.Uint64()
		return number{val: Num{u: u}, id: ID{n: u}}, true
	}
	return number{val: Num{b: b}, id: ID{big: key}}, true
}

// literal returns the number text of a raw JSON value, or "" for null or
// absence.
func literal(raw json.RawMessage) json.Number {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return ""
	}
	return json.Number(s)
}
