package explore

import (
	"context"
	"testing"
)

// BenchmarkGenerate measures streams generated and judged by the built-in
// validator alone, the figure scripts/bench checks (2,000 a second).
func BenchmarkGenerate(b *testing.B) {
	cfg := testConfig(b, 1)
	cfg.Count = 2000
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cfg.Count*b.N)/b.Elapsed().Seconds(), "streams/s")
}
