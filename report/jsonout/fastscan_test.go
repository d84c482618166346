package jsonout

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The word-at-a-time scans against their definitions, a byte at a time,
// over slices of every length up to 40 drawn from the bytes that matter
// beside ordinary ones, at every alignment.
func TestScansAgreeWithTheirDefinitions(t *testing.T) {
	alphabet := []byte{'a', 'Z', ' ', '\t', '\n', '\r', '"', '\\', 0x00, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xc3, 0xff, '!', '#', '[', ']', '<', '>', '&', '%', '$', '\'', '=', '?'}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 48)
	for round := 0; round < 200000; round++ {
		n := rng.IntN(41)
		// Mostly ordinary bytes, so that the runs are long enough to
		// cross words.
		for i := range n + 7 {
			if rng.IntN(8) == 0 {
				buf[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				buf[i] = alphabet[rng.IntN(2)]
				if rng.IntN(3) == 0 {
					buf[i] = ' '
				}
			}
		}
		b := buf[rng.IntN(8):][:n]
		if got, want := plainRun(b), slowRun(b, plainByte); got != want {
			t.Fatalf("plainRun(%q) = %d, want %d", b, got, want)
		}
		if got, want := quoteOrEscape(b), slowRun(b, func(c byte) bool { return c != '"' && c != '\\' }); got != want {
			t.Fatalf("quoteOrEscape(%q) = %d, want %d", b, got, want)
		}
		if got, want := spaceRun(b), slowRun(b, func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }); got != want {
			t.Fatalf("spaceRun(%q) = %d, want %d", b, got, want)
		}
		if got, want := plainJSON(string(b)), plainJSONBytes(string(b)); got != want {
			t.Fatalf("plainJSON(%q) = %v, want %v", b, got, want)
		}
	}
}

func slowRun(b []byte, keep func(byte) bool) int {
	for i, c := range b {
		if !keep(c) {
			return i
		}
	}
	return len(b)
}

// decimalWithin against the exact rationals the schema's bounds are
// compared with otherwise.
func TestDecimalWithinAgreesWithRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bounds := []int64{math.MinInt64, -3, -1, 0, 1, 2, 5, math.MaxInt64}
	wholes := []string{"0", "1", "2", "3", "4", "5", "6", "999999999999999999"}
	fractions := []string{"0", "00", "5", "05", "50", "999", "001"}
	for round := 0; round < 20000; round++ {
		tok := wholes[rng.IntN(len(wholes))] + "." + fractions[rng.IntN(len(fractions))]
		if rng.IntN(2) == 0 {
			tok = "-" + tok
		}
		lo, hi := bounds[rng.IntN(len(bounds))], bounds[rng.IntN(len(bounds))]
		within, ok := decimalWithin([]byte(tok), lo, hi)
		if !ok {
			if lo != math.MinInt64 && hi != math.MinInt64 || tok[0] != '-' {
				t.Fatalf("decimalWithin(%s, %d, %d) gave up", tok, lo, hi)
			}
			continue
		}
		v, _ := new(big.Rat).SetString(tok)
		want := v.Cmp(new(big.Rat).SetInt64(lo)) >= 0 && v.Cmp(new(big.Rat).SetInt64(hi)) <= 0
		if within != want {
			t.Fatalf("decimalWithin(%s, %d, %d) = %v, want %v", tok, lo, hi, within, want)
		}
	}
	for _, tok := range []string{"1e5", "1.5e2", "15", "-", ".5", "1234567890123456789.5"} {
		if _, ok := decimalWithin([]byte(tok), 0, 10); ok {
			t.Errorf("decimalWithin(%s) did not leave it to big.Rat", tok)
		}
	}
}
