package runner

import (
	"bytes"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/corpusgen"
	"github.com/drp2/drp2-fixtures/internal/jsonpos"
)

// benchStream is the commands array of a generated stream of n commands,
// as the bench's streams are written, and its commands.
func benchStream(b *testing.B, n int) ([]byte, [][]byte) {
	b.Helper()
	var buf bytes.Buffer
	if err := corpusgen.Stream(&buf, "bench", n); err != nil {
		b.Fatal(err)
	}
	start, end, ok := jsonpos.Find(buf.Bytes(), "/commands")
	if !ok {
		b.Fatal("no commands")
	}
	raw := buf.Bytes()[start:end]
	values, ok := jsonpos.Values(raw, nil)
	if !ok {
		b.Fatal("commands are no array")
	}
	commands := make([][]byte, len(values))
	for i, v := range values {
		commands[i] = v
	}
	return raw, commands
}

// BenchmarkCompactSum sums the commands of a 100,000-command stream, as
// the digest of every fixture does.
func BenchmarkCompactSum(b *testing.B) {
	raw, _ := benchStream(b, 100_000)
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		compactSum(raw)
	}
}

// BenchmarkShapeKey keys each command of a 100,000-command stream, as the
// command-schema phase does.
func BenchmarkShapeKey(b *testing.B) {
	_, commands := benchStream(b, 100_000)
	bounds := []int64{0, 1}
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range commands {
			buf, _ = shapeKey(c, bounds, buf[:0])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(commands)), "ns/command")
}
