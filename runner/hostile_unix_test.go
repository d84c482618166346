//go:build unix

package runner

// The cost of hostile numbers is measured in processor time, which
// getrusage gives on Unix only.

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// cpuTime is the processor time the process has used so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hostileNumbers is a fixture of about size bytes whose fourth command
// holds an array of the number tok.
func hostileNumbers(size int, tok string) string {
	var b strings.Builder
	b.WriteString(`{"cmd": "QueueSubmit", "command_buffer_ids": [`)
	for b.Len() < size {
		b.WriteString(tok)
		b.WriteString(", ")
	}
	b.WriteString(`1]}`)
	return fixtureJSON("numbers", success, hello, reply, buffer, b.String())
}

// TestMegabyteOfHostileNumbersIsQuick: each huge number cost the schema
// library about 65 ms, twice; 1,000 of them took minutes. Now such a number
// reaches the library as a stand-in within its limits, so a megabyte of
// them costs about what a megabyte of ordinary numbers costs (measured in
// processor time, logged for comparison), and the verdict is the one the
// values deserve: command 3 names command buffers that do not exist, or,
// for negative or fractional values, is no array of ids.
func TestMegabyteOfHostileNumbersIsQuick(t *testing.T) {
	var plain time.Duration
	for _, c := range []struct {
		tok     string
		hostile bool
	}{
		{"1e308", false}, {"-1e-308", false},
		{"1e9999999", true}, {"-1e-9999999", true}, {"0e99999999999999999999", true},
		{"1" + strings.Repeat("1", 150), true},
	} {
		root := writeCorpus(t, map[string]string{"positive/numbers.json": hostileNumbers(1<<20, c.tok)})
		// Processor time, not wall time: the machine may be shared, and
		// what is measured is the work the fixture costs.
		start := cpuTime(t)
		run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
		took := cpuTime(t) - start
		a := run.Results[0].Actual
		if a.Outcome != model.Error || a.CommandIndex == nil || *a.CommandIndex != 3 {
			t.Errorf("%.20s: %+v", c.tok, a)
		}
		t.Logf("a megabyte of %.20s: %v: %.120s", c.tok, took, a.Message)
		if !c.hostile {
			plain = max(plain, took)
			continue
		}
		if took > 2*plain+200*time.Millisecond {
			t.Errorf("a megabyte of %.20s took %v, against %v for numbers within the limits", c.tok, took, plain)
		}
	}
}
