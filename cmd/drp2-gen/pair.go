package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/drp2/drp2-fixtures/internal/corpusgen"
)

// pair runs a command under test and a reference alternately and judges
// the median of their paired processor-time ratios against -max (the
// benchmark's bounds, scripts/bench --paired). It returns the exit code:
// 0 within the bound, 1 over it, 2 when a run failed or the arguments are
// wrong.
func pair(args []string) int {
	fset := flag.NewFlagSet("drp2-gen pair", flag.ContinueOnError)
	label := fset.String("label", "pair", "the input's name, printed first")
	rounds := fset.Int("rounds", 5, "pairs measured, after one unmeasured run of each")
	bound := fset.Float64("max", 0, "the greatest median ratio that passes (0: print it, judge nothing)")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	// Flag parsing took the first "--"; the second parts the two commands.
	rest := fset.Args()
	cut := slices.Index(rest, "--")
	if cut < 1 || cut == len(rest)-1 {
		fmt.Fprintln(os.Stderr, "drp2-gen pair: want -- TEST ARGS... -- REFERENCE ARGS...")
		return 2
	}
	var out bytes.Buffer
	r, err := corpusgen.Pair(rest[:cut], rest[cut+1:], *rounds, &out)
	if err != nil {
		os.Stderr.Write(tail(out.Bytes(), 4096))
		fmt.Fprintln(os.Stderr, "drp2-gen pair:", *label+":", err)
		return 2
	}
	lo, hi := r.Spread()
	fmt.Printf("%-26s cpu ratio median %5.2fx, spread %.2f-%.2fx over %d pairs (median cpu %.3f s against %.3f s)",
		*label, r.Median(), lo, hi, len(r.Ratios), medianSeconds(r.Test), medianSeconds(r.Reference))
	switch {
	case *bound <= 0:
		fmt.Println()
	case r.Median() > *bound:
		fmt.Printf(": FAIL, bound %.2fx\n", *bound)
		return 1
	default:
		fmt.Printf(": within %.2fx\n", *bound)
	}
	return 0
}

func medianSeconds(ds []time.Duration) float64 {
	s := make([]float64, len(ds))
	for i, d := range ds {
		s[i] = d.Seconds()
	}
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// tail is the end of a run's output, enough to say why it failed.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
