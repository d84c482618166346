package corpusgen

import (
	"crypto/sha256"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary stand for a child of Pair: with
// PAIR_TEST_WORK=N it hashes N blocks and exits, a cost in processor time
// proportional to N.
func TestMain(m *testing.M) {
	if n, err := strconv.Atoi(os.Getenv("PAIR_TEST_WORK")); err == nil {
		sum := sha256.Sum256(nil)
		for range n {
			sum = sha256.Sum256(sum[:])
		}
		workSink = sum
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var workSink [32]byte

func worker(t *testing.T, blocks int) []string {
	t.Setenv("PAIR_TEST_WORK", "")
	return []string{"/usr/bin/env", "PAIR_TEST_WORK=" + strconv.Itoa(blocks), os.Args[0]}
}

func TestPairJudgesProcessorTimeOfEachChild(t *testing.T) {
	if _, err := os.Stat("/usr/bin/env"); err != nil {
		t.Skip("no /usr/bin/env here")
	}
	// Four times the work: the ratio stays well above 1 however busy the
	// machine is, since only the children's own processor time counts
	// (starting the test binary, the same for both, keeps it below 4); each
	// pair's runs must be told apart even though odd rounds run the
	// reference first.
	r, err := Pair(worker(t, 800_000), worker(t, 200_000), 3, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Ratios) != 3 || len(r.Test) != 3 || len(r.Reference) != 3 {
		t.Fatalf("want 3 pairs, got %+v", r)
	}
	for i := range r.Ratios {
		if r.Test[i] <= r.Reference[i] {
			t.Errorf("round %d: the command under test took %v, the reference %v: the pair is swapped", i, r.Test[i], r.Reference[i])
		}
	}
	if m := r.Median(); m < 1.8 || m > 6 {
		t.Errorf("median ratio %.2f for four times the work, want 1.8-6 (pairs %v)", m, r.Ratios)
	}
	t.Logf("paired ratios %.2f, median %.2f", r.Ratios, r.Median())
	if lo, hi := r.Spread(); lo > r.Median() || hi < r.Median() {
		t.Errorf("spread %.2f-%.2f does not hold the median %.2f", lo, hi, r.Median())
	}
}

func TestPairFailsOnAFailedRun(t *testing.T) {
	_, err := Pair([]string{"/nonexistent/gate", "run"}, []string{"/nonexistent/floor"}, 1, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/gate run") {
		t.Fatalf("want an error naming the failed command, got %v", err)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{9, 1, 1, 1, 9}, 1}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
