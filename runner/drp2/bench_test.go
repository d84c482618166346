package drp2

import (
	"strconv"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestGeneratedStreamIsValid(t *testing.T) {
	for _, n := range []int{0, 1, 2, 17, 100, 5000} {
		s := GenerateStream(n)
		if len(s.Commands) != n {
			t.Fatalf("GenerateStream(%d) has %d commands", n, len(s.Commands))
		}
		if n == 0 {
			continue
		}
		if f := verdictOf(New(), s); f != nil {
			t.Fatalf("GenerateStream(%d): %s at %d: %s", n, f.Code, f.CommandIndex, f.Message)
		}
	}
}

// BenchmarkCheckLongStream shows linear time: ns/command stays flat from 10k
// to 1M commands.
func BenchmarkCheckLongStream(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		s := GenerateStream(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchmarkCheck(b, New(), s) })
		b.Run(strconv.Itoa(n)+"/serial", func(b *testing.B) { benchmarkCheck(b, serialChecker, s) })
	}
}

// benchmarkCheck checks the valid stream s b.N times.
func benchmarkCheck(b *testing.B, c *Checker, s model.Stream) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f := verdictOf(c, s); f != nil {
			b.Fatalf("%s at %d: %s", f.Code, f.CommandIndex, f.Message)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.Commands)), "ns/command")
}
