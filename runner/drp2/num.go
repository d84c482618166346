package drp2

import (
	"encoding/json"
	"math"
	"math/big"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// Num is a non-negative integer of any size, kept exactly. Values that fit
// in uint64 stay on the fast path (t == nil). Larger ones are a sum of
// terms c×10^e: a literal such as 1e999999999 is one term whose
// coefficient has the literal's digits, so no value is ever expanded to
// its full width, and sums, products and differences of literals stay
// exact whatever their exponents. The schema sets no maximum on ids, sizes
// or counts, so every value is judged as the number it is.
type Num struct {
	u uint64
	t []term
}

// term is c×10^e. In a Num's terms, exponents increase and every
// coefficient is smaller in magnitude than 10 to the gap up to the next
// term, so the sign of a sum is the sign of its last term. Coefficients
// may be negative inside differences.
type term struct {
	c *big.Int
	e int64
}

func small(u uint64) Num { return Num{u: u} }

// coefficientDigits is about the number of significant decimal digits of
// the largest coefficient of n (at most 20 for a small value).
func (n Num) coefficientDigits() int {
	d := 0
	for _, t := range n.t {
		d = max(d, int(float64(t.c.BitLen())/log2Of10)+1)
	}
	return d
}

func (n Num) isBig() bool { return n.t != nil }

var (
	bigTen   = big.NewInt(10)
	bigMaxU  = new(big.Int).SetUint64(math.MaxUint64)
	log2Of10 = math.Log2(10)
)

// terms returns n as terms (a small value as one term, or none for 0).
func (n Num) terms() []term {
	if n.t != nil {
		return n.t
	}
	if n.u == 0 {
		return nil
	}
	return []term{{c: new(big.Int).SetUint64(n.u)}}
}

// pow10 is 10^k.
func pow10(k int64) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(k), nil)
}

// reaches reports whether |c| >= 10^gap (c != 0), that is whether a
// coefficient overlaps a term gap decimal places above its own. The bit
// length decides it but near the boundary, where one power is computed.
func reaches(c *big.Int, gap int64) bool {
	if gap <= 0 {
		return true
	}
	bl := float64(c.BitLen())
	switch g := float64(gap) * log2Of10; {
	case bl < g-1:
		return false
	case bl > g+1:
		return true
	}
	return new(big.Int).Abs(c).Cmp(pow10(gap)) >= 0
}

// normalize sorts and merges terms so that the invariant of Num holds,
// and returns the fast path when the value fits in uint64 (or 0 when it is
// negative: callers only build differences to read their sign).
func normalize(ts []term) Num {
	ts = normalTerms(ts)
	if len(ts) == 0 {
		return Num{}
	}
	if len(ts) == 1 && ts[0].c.Sign() > 0 && ts[0].e < 20 {
		v := new(big.Int).Mul(ts[0].c, pow10(ts[0].e))
		if v.Cmp(bigMaxU) <= 0 {
			return Num{u: v.Uint64()}
		}
	}
	if ts[len(ts)-1].c.Sign() < 0 {
		return Num{}
	}
	return Num{t: ts}
}

func normalTerms(in []term) []term {
	ts := make([]term, 0, len(in))
	for _, t := range in {
		if t.c.Sign() != 0 {
			ts = append(ts, t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].e < ts[j].e })
	out := ts[:0]
	for _, t := range ts {
		if len(out) == 0 {
			out = append(out, term{c: new(big.Int).Set(t.c), e: t.e})
			continue
		}
		last := &out[len(out)-1]
		gap := t.e - last.e
		// Merge when the lower coefficient reaches into the higher term;
		// the expansion is bounded by the coefficient's own digits.
		if last.c.Sign() == 0 || reaches(last.c, gap) {
			if last.c.Sign() == 0 {
				*last = term{c: new(big.Int).Set(t.c), e: t.e}
				continue
			}
			last.c.Add(last.c, new(big.Int).Mul(t.c, pow10(gap)))
			continue
		}
		out = append(out, term{c: new(big.Int).Set(t.c), e: t.e})
	}
	// A merge can leave a zero coefficient; drop it.
	res := out[:0]
	for _, t := range out {
		if t.c.Sign() != 0 {
			res = append(res, t)
		}
	}
	return res
}

// String prints the exact value up to 40 digits, else its leading digits
// and decimal exponent.
func (n Num) String() string {
	if n.t == nil {
		return strconv.FormatUint(n.u, 10)
	}
	top := n.t[len(n.t)-1]
	if float64(top.c.BitLen())+float64(top.e)*log2Of10 < 130 {
		v := new(big.Int)
		for _, t := range n.t {
			v.Add(v, new(big.Int).Mul(t.c, pow10(t.e)))
		}
		return v.String()
	}
	// The leading digits of the top coefficient, without printing all of
	// a long one.
	c := new(big.Int).Set(top.c)
	e := top.e
	extra := int64(float64(c.BitLen())/log2Of10) - 15
	if extra > 0 {
		c.Quo(c, pow10(extra))
		e += extra
	}
	lead := c.String()
	e += int64(len(lead)) - 1
	lead = strings.TrimRight(lead, "0")
	approx := len(n.t) > 1 || extra > 0 || len(lead) > 12
	if len(lead) > 12 {
		lead = lead[:12]
	}
	mant := lead[:1]
	if len(lead) > 1 {
		mant += "." + lead[1:]
	}
	if approx {
		return "about " + mant + "e" + strconv.FormatInt(e, 10)
	}
	return mant + "e" + strconv.FormatInt(e, 10)
}

func add(a, b Num) Num {
	if a.t == nil && b.t == nil {
		s, carry := bits.Add64(a.u, b.u, 0)
		if carry == 0 {
			return Num{u: s}
		}
	}
	return normalize(append(append([]term(nil), a.terms()...), b.terms()...))
}

func mul(a, b Num) Num {
	if a.t == nil && b.t == nil {
		hi, lo := bits.Mul64(a.u, b.u)
		if hi == 0 {
			return Num{u: lo}
		}
	}
	var ts []term
	for _, x := range a.terms() {
		for _, y := range b.terms() {
			ts = append(ts, term{c: new(big.Int).Mul(x.c, y.c), e: x.e + y.e})
		}
	}
	return normalize(ts)
}

// diff returns the terms of a-b, normalized; their sign is the sign of
// the last term.
func diff(a, b Num) []term {
	ts := append([]term(nil), a.terms()...)
	for _, t := range b.terms() {
		ts = append(ts, term{c: new(big.Int).Neg(t.c), e: t.e})
	}
	return normalTerms(ts)
}

// sub returns a-b for a >= b, and 0 otherwise.
func sub(a, b Num) Num {
	if a.t == nil && b.t == nil {
		if a.u <= b.u {
			return Num{}
		}
		return Num{u: a.u - b.u}
	}
	return normalize(diff(a, b))
}

func cmp(a, b Num) int {
	if a.t == nil && b.t == nil {
		switch {
		case a.u < b.u:
			return -1
		case a.u > b.u:
			return 1
		}
		return 0
	}
	d := diff(a, b)
	if len(d) == 0 {
		return 0
	}
	return d[len(d)-1].c.Sign()
}

// maxShift bounds the shifts shr computes exactly: floor(n / 2^k) for a
// huge n takes 5^k, about 0.7k digits.
const maxShift = 1 << 16

// shr returns n >> k for a mip level k, and false when the result would
// take a shift beyond maxShift of a value at least 2^k.
func shr(n Num, k Num) (Num, bool) {
	if n.t == nil {
		if k.t != nil || k.u >= 64 {
			return Num{}, true
		}
		return Num{u: n.u >> k.u}, true
	}
	// n < 2^(bits of the top coefficient) × 10^(its exponent), the
	// lower terms being smaller than 10^(that exponent).
	top := n.t[len(n.t)-1]
	if k.t != nil || float64(k.u) > float64(top.c.BitLen())+float64(top.e)*log2Of10+1 {
		return Num{}, true // n < 2^k
	}
	if k.u > maxShift {
		return Num{}, false
	}
	// floor(Σ c×10^e / 2^k): the terms with e >= k divide exactly
	// (10^e / 2^k = 5^k × 10^(e-k)); the others are summed and shifted.
	kk := int64(k.u)
	five := new(big.Int).Exp(big.NewInt(5), big.NewInt(kk), nil)
	low := new(big.Int)
	var ts []term
	for _, t := range n.t {
		if t.e >= kk {
			ts = append(ts, term{c: new(big.Int).Mul(t.c, five), e: t.e - kk})
			continue
		}
		low.Add(low, new(big.Int).Mul(t.c, pow10(t.e)))
	}
	ts = append(ts, term{c: low.Rsh(low, uint(kk))})
	return normalize(ts), true
}

// atLeastOne is max(1, n), the extent rule of a mip level.
func atLeastOne(n Num) Num {
	if n.t == nil && n.u == 0 {
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
	if u, ok := plainUint(s); ok {
		return number{val: Num{u: u}, id: ID{n: u}}, true
	}
	return parseLiteral(s)
}

// parseLiteral is parseNumber for any spelling.
func parseLiteral(s string) (number, bool) {
	neg, intPart, frac, exp, ok := splitNumber(s)
	if !ok {
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
	return integer(digits, exp), true
}

// plainUint reads the common spelling of an id or size: at most 19
// decimal digits, nothing else, which parseNumber would read as the same
// value the long way.
func plainUint(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var u uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	return u, true
}

// splitNumber cuts a JSON number literal into its sign, the digits of its
// integer part and of its fraction, and its exponent (saturated past a
// billion: "huge" either way). It reports false for text that is not a
// number.
func splitNumber(s string) (neg bool, intPart, frac string, exp int64, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	end := digitsEnd(s, i)
	if intPart, i = s[i:end], end; intPart == "" {
		return false, "", "", 0, false
	}
	if i < len(s) && s[i] == '.' {
		end = digitsEnd(s, i+1)
		if frac, i = s[i+1:end], end; frac == "" {
			return false, "", "", 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := i < len(s) && s[i] == '-'
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		end = digitsEnd(s, i)
		if end == i {
			return false, "", "", 0, false
		}
		for ; i < end; i++ {
			if exp < 1e9 {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	return neg, intPart, frac, exp, i == len(s)
}

// digitsEnd is the end of the run of decimal digits at s[i:].
func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// integer is the number digits×10^exp, digits without leading or trailing
// zeros.
func integer(digits string, exp int64) number {
	if width := int64(len(digits)) + exp; width <= 19 {
		u, _ := strconv.ParseUint(digits, 10, 64)
		for e := int64(0); e < exp; e++ {
			u *= 10
		}
		return number{val: Num{u: u}, id: ID{n: u}}
	}
	key := digits + "e" + strconv.FormatInt(exp, 10)
	c, _ := new(big.Int).SetString(digits, 10)
	v := normalize([]term{{c: c, e: exp}})
	if v.t == nil {
		return number{val: v, id: ID{n: v.u}}
	}
	return number{val: v, id: ID{big: key}}
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
