package drp2

import (
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// exact expands a Num to a big.Int (test only: it costs the value's width).
func exact(n Num) *big.Int {
	if n.t == nil {
		return new(big.Int).SetUint64(n.u)
	}
	v := new(big.Int)
	for _, t := range n.t {
		v.Add(v, new(big.Int).Mul(t.c, pow10(t.e)))
	}
	return v
}

func lit(t *testing.T, s string) Num {
	t.Helper()
	n, ok := parseNumber(s)
	if !ok {
		t.Fatalf("parseNumber(%q) failed", s)
	}
	return n.val
}

// TestNumArithmeticIsExact holds add, mul, sub, cmp and shr on random
// literals of every size (a few digits to exponents of hundreds) to
// big.Int arithmetic on the expanded values.
func TestNumArithmeticIsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	literal := func() string {
		switch rng.Intn(4) {
		case 0:
			return strconv.FormatUint(rng.Uint64()>>uint(rng.Intn(64)), 10)
		case 1:
			return strconv.Itoa(1+rng.Intn(999)) + "e" + strconv.Itoa(rng.Intn(300))
		case 2:
			return strconv.Itoa(rng.Intn(10)) + "e" + strconv.Itoa(15+rng.Intn(10))
		}
		return strconv.Itoa(1 + rng.Intn(20))
	}
	for i := 0; i < 4000; i++ {
		as, bs, cs := literal(), literal(), literal()
		a, b, c := lit(t, as), lit(t, bs), lit(t, cs)
		ea, eb, ec := exact(a), exact(b), exact(c)
		sum := add(a, b)
		if exact(sum).Cmp(new(big.Int).Add(ea, eb)) != 0 {
			t.Fatalf("%s + %s = %s", as, bs, exact(sum))
		}
		if got, want := cmp(sum, c), new(big.Int).Add(ea, eb).Cmp(ec); got != want {
			t.Fatalf("cmp(%s + %s, %s) = %d, want %d", as, bs, cs, got, want)
		}
		if exact(mul(a, b)).Cmp(new(big.Int).Mul(ea, eb)) != 0 {
			t.Fatalf("%s × %s", as, bs)
		}
		want := new(big.Int).Sub(ea, eb)
		if want.Sign() < 0 {
			want.SetInt64(0)
		}
		if exact(sub(a, b)).Cmp(want) != 0 {
			t.Fatalf("%s - %s = %s, want %s", as, bs, exact(sub(a, b)), want)
		}
		k := uint64(rng.Intn(1200))
		got, ok := shr(a, small(k))
		if !ok || exact(got).Cmp(new(big.Int).Rsh(ea, uint(k))) != 0 {
			t.Fatalf("%s >> %d = %s", as, k, exact(got))
		}
	}
}

// TestNumHugeExponents: values no machine could expand are still compared
// exactly, and one value has one canonical form whatever its spelling.
func TestNumHugeExponents(t *testing.T) {
	g := lit(t, "1e999999999")
	if cmp(add(g, small(8)), g) <= 0 || cmp(g, add(g, small(8))) >= 0 {
		t.Error("10^999999999 + 8 is not above 10^999999999")
	}
	if cmp(add(lit(t, "1e999999998"), small(8)), g) >= 0 {
		t.Error("10^999999998 + 8 is not below 10^999999999")
	}
	if cmp(lit(t, "10e999999998"), g) != 0 || cmp(lit(t, "1.0e999999999"), g) != 0 {
		t.Error("two spellings of 10^999999999 differ")
	}
	if cmp(sub(g, small(1)), g) >= 0 || cmp(add(sub(g, small(1)), small(1)), g) != 0 {
		t.Error("10^999999999 - 1 + 1 is not 10^999999999")
	}
	if cmp(mul(g, g), lit(t, "1e1999999998")) != 0 {
		t.Error("10^999999999 squared")
	}
	if h, ok := shr(g, small(1)); !ok || cmp(mul(h, small(2)), g) != 0 {
		t.Error("10^999999999 >> 1 is not half of it")
	}
	if _, ok := shr(g, small(maxShift+1)); ok {
		t.Error("a shift past maxShift of a huge value was computed")
	}
	if s := g.String(); s != "1e999999999" {
		t.Errorf("String() = %q", s)
	}
	if s := add(g, small(3)).String(); s != "about 1e999999999" {
		t.Errorf("String() = %q", s)
	}
}

// TestParseNumberSpellings: every JSON spelling of a non-negative integer
// is read as its value; negative, fractional and malformed text is not.
func TestParseNumberSpellings(t *testing.T) {
	for s, want := range map[string]string{
		"12": "12", "12.0": "12", "1.2e1": "12", "120e-1": "12", "0.12E+2": "12", "0": "0", "-0": "0", "0.0e5": "0",
		"18446744073709551615": "18446744073709551615", "18446744073709551616": "18446744073709551616",
		"1E+40": "1" + strings.Repeat("0", 40), "1e1000000000000": "",
	} {
		n, ok := parseNumber(s)
		if !ok {
			t.Errorf("parseNumber(%q) failed", s)
			continue
		}
		if want != "" && exact(n.val).String() != want {
			t.Errorf("parseNumber(%q) = %s, want %s", s, exact(n.val), want)
		}
	}
	for _, s := range []string{"-1", "1.5", "12e-2", "1.", "1e", "1e+", ".5", "", "-", "1x", "1.2.3", "0x10"} {
		if _, ok := parseNumber(s); ok {
			t.Errorf("parseNumber(%q) succeeded", s)
		}
	}
}

// TestPlainUintIsParseLiteral: the short way of parseNumber reads what the
// long way reads.
func TestPlainUintIsParseLiteral(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	cases := []string{"0", "00", "007", "1", "10", "100", "18446744073709551615", "9999999999999999999", "1000000000000000000", "1e3", "1.0", "-1", ""}
	for i := 0; i < 20000; i++ {
		b := make([]byte, 1+rng.Intn(21))
		for j := range b {
			b[j] = "0123456789"[rng.Intn(10)]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		got, gotOK := parseNumber(c)
		want, wantOK := parseLiteral(c)
		if gotOK != wantOK || got.id != want.id || cmp(got.val, want.val) != 0 || got.val.isBig() != want.val.isBig() {
			t.Fatalf("%q: parseNumber %+v %v, parseLiteral %+v %v", c, got, gotOK, want, wantOK)
		}
	}
}
