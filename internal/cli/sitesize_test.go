package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// Reports are published by anyone, and four of 240 MB kept the site
// reading and collecting garbage past half an hour, writing nothing. A
// report larger than the bound (32 MiB, or --max-report) is a warning
// naming the file and the bound, the rest still builds, and none is read
// whole on the way.
func TestSiteRefusesAReportLargerThanItsBound(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	if code, _, stderr := run(t, dir, "run", "--json-out", "reports/good.json"); code != ExitMismatch {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "reports", "good.json"))
	// A valid report, made large by white space after its last member.
	padded := func(size int) []byte {
		i := bytes.LastIndexByte(good, '}')
		return append(append(append([]byte{}, good[:i]...), bytes.Repeat([]byte(" "), size-len(good))...), '}')
	}
	os.WriteFile(filepath.Join(dir, "reports", "big.json"), padded(33<<20), 0o644)
	start := time.Now()
	code, stdout, stderr := run(t, dir, "site", "--out", "site", "reports")
	if code != ExitOK || !strings.Contains(stdout, "1 reports") || !strings.Contains(stderr, "big.json is larger than 32 MiB") {
		t.Errorf("a 33 MiB report: exit %d, want %d with it left out, naming it and the bound:\n%s%s", code, ExitOK, stdout, stderr)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the site took %v", d)
	}

	// The bound is the caller's: lowered, a 2 MiB report is refused, and
	// with nothing else to read the site is unusable input.
	os.Remove(filepath.Join(dir, "reports", "big.json"))
	os.WriteFile(filepath.Join(dir, "reports", "good.json"), padded(2<<20), 0o644)
	code, _, stderr = run(t, dir, "site", "--out", "site", "--max-report", "1", "reports")
	if code != ExitUsage || !strings.Contains(stderr, "good.json is larger than 1 MiB") || !strings.Contains(stderr, "no usable report") {
		t.Errorf("--max-report 1 and a 2 MiB report: exit %d, want %d naming it and the bound:\n%s", code, ExitUsage, stderr)
	}
	if code, _, stderr = run(t, dir, "site", "--out", "site", "--max-report", "3", "reports"); code != ExitOK {
		t.Errorf("--max-report 3 and a 2 MiB report: exit %d\n%s", code, stderr)
	}
}
