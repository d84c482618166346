package corpusgen

import (
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// PairResult is what Pair measured: the processor time (user + system) of
// each run of the command under test and of its reference, round by
// round, and the ratio of each round's pair.
type PairResult struct {
	Test, Reference []time.Duration
	Ratios          []float64
}

// Median is the median of the paired ratios: the figure the benchmark
// judges. A busy neighbour slows both runs of a pair alike, and one pair
// it slows unevenly moves the median by at most one place.
func (r PairResult) Median() float64 { return median(r.Ratios) }

// Spread is the least and the greatest of the paired ratios.
func (r PairResult) Spread() (lo, hi float64) {
	if len(r.Ratios) == 0 {
		return 0, 0
	}
	return slices.Min(r.Ratios), slices.Max(r.Ratios)
}

// Pair runs the command under test and its reference alternately, rounds
// times each, after one unmeasured run of each (the page cache), and
// measures the processor time of each child. The order within a round
// alternates too (A B, B A, ...), so that a machine growing busier or
// quieter through the run weighs on both alike. Every run must exit 0: a
// run that fails times something else than it says. Their output goes to
// out.
func Pair(test, reference []string, rounds int, out io.Writer) (PairResult, error) {
	if len(test) == 0 || len(reference) == 0 || rounds < 1 {
		return PairResult{}, fmt.Errorf("pair needs a command under test, a reference and at least one round")
	}
	if _, err := cpuOf(test, out); err != nil {
		return PairResult{}, err
	}
	if _, err := cpuOf(reference, out); err != nil {
		return PairResult{}, err
	}
	var r PairResult
	for i := range rounds {
		first, second := test, reference
		if i%2 == 1 {
			first, second = reference, test
		}
		a, err := cpuOf(first, out)
		if err != nil {
			return r, err
		}
		b, err := cpuOf(second, out)
		if err != nil {
			return r, err
		}
		if i%2 == 1 {
			a, b = b, a
		}
		r.Test, r.Reference = append(r.Test, a), append(r.Reference, b)
		r.Ratios = append(r.Ratios, float64(a)/float64(max(b, time.Microsecond)))
	}
	return r, nil
}

// cpuOf runs argv and returns the user and system time of the child and of
// the children it waited for.
func cpuOf(argv []string, out io.Writer) (time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
