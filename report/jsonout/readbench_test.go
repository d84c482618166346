package jsonout

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkReadReportDir reads every report below $DRP2_REPORTS, the
// site's and merge's cost of reading, for profiling.
func BenchmarkReadReportDir(b *testing.B) {
	dir := os.Getenv("DRP2_REPORTS")
	if dir == "" {
		b.Skip("DRP2_REPORTS names no folder of reports")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var data [][]byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	b.ResetTimer()
	for range b.N {
		for _, d := range data {
			if _, err := ReadReport(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
