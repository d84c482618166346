//go:build unix

package jsonpos

// The cost of the hostile numbers is measured in processor time, which
// getrusage gives on Unix only.

import (
	"bytes"
	"encoding/json"
	"syscall"
	"testing"
	"time"
)

// TestHostileNumbersCostLittle: a megabyte of numbers of every hostile kind
// is judged in a few milliseconds, not in the minutes exact arithmetic on
// them would take.
func TestHostileNumbersCostLittle(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("[")
	for b.Len() < 1<<20 {
		b.WriteString("1e9999999,-1e-99999999,1.5e308,0e0,")
	}
	b.WriteString("0]")
	start := cpuTime(t)
	if !json.Valid(b.Bytes()) {
		t.Fatal("invalid test input")
	}
	n := 0
	for _, tok := range bytes.Split(bytes.Trim(b.Bytes(), "[]"), []byte(",")) {
		if !InRange(tok, limits) {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no number refused")
	}
	// Processor time, not wall time: the machine may be shared.
	if d := cpuTime(t) - start; d > 500*time.Millisecond {
		t.Errorf("judging 1 MB of numbers took %v", d)
	}
}

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
