package jsonout

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestDurationsRoundTrip: every result's duration, the validator's and each
// implementation's, each implementation's total and the run's are written
// in milliseconds to the microsecond and read back as they were.
func TestDurationsRoundTrip(t *testing.T) {
	run := sample.WithExpectations()
	run.Results[0].Duration = 1234567 * time.Microsecond
	run.Implementations[0].Duration = 3 * time.Second
	run.Implementations[0].Results[0].Duration = 250 * time.Microsecond
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"duration_ms": 1234.567`, `"duration_ms": 3000,`, `"duration_ms": 0.25`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report does not hold %s", want)
		}
	}
	back, err := ReadReport(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if back.Duration != run.Duration || back.Results[0].Duration != run.Results[0].Duration {
		t.Errorf("the run's durations read back as %v and %v, want %v and %v", back.Duration, back.Results[0].Duration, run.Duration, run.Results[0].Duration)
	}
	im, want := back.Implementations[0], run.Implementations[0]
	if im.Duration != want.Duration || im.Results[0].Duration != want.Results[0].Duration {
		t.Errorf("the implementation's durations read back as %v and %v", im.Duration, im.Results[0].Duration)
	}
}

// TestBadDurationsRefused: a duration that is negative or past any run is
// refused, naming the fixture; the schema refuses one that is no number.
func TestBadDurationsRefused(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.Run()); err != nil {
		t.Fatal(err)
	}
	for from, want := range map[string]string{
		`"duration_ms": 1.2`:    "result 0: fixtures/negative/bind_group_unknown_layout.json: duration_ms -1 is not a duration",
		`"duration_ms": 2.5`:    "duration_ms 1e300 is not a duration",
		"\"duration_ms\": 42\n": "summary: duration_ms 9999999999999 is not a duration",
		`"duration_ms": 0.9`:    `at /results/`,
	} {
		to := map[string]string{`"duration_ms": 1.2`: `"duration_ms": -1`, `"duration_ms": 2.5`: `"duration_ms": 1e300`,
			"\"duration_ms\": 42\n": "\"duration_ms\": 9999999999999\n", `"duration_ms": 0.9`: `"duration_ms": "0.9"`}[from]
		if !strings.Contains(b.String(), from) {
			t.Fatalf("the sample has no %s", from)
		}
		_, err := ReadReport([]byte(strings.Replace(b.String(), from, to, 1)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", to, err, want)
		}
	}
}
