package jsonout

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// maxMillis bounds a duration read back: 100 days, far past any run, and
// far below what time.Duration holds, so that a planted report's number
// never overflows the sum of a shard's durations.
const maxMillis = 100 * 24 * 3600 * 1000

// millis is a duration as the report writes it: milliseconds, to the
// microsecond (a fixture the validator checks takes a fraction of one).
// Under SOURCE_DATE_EPOCH the run's clock stands still and every duration
// is 0, as JUnit's times are.
func millis(d time.Duration) json.Number {
	if d < 0 {
		d = 0
	}
	return json.Number(strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', -1, 64))
}

// readMillis reads a duration_ms back; absent (a report written before
// durations) is 0.
func readMillis(n json.Number) (time.Duration, error) {
	if n == "" {
		return 0, nil
	}
	ms, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsNaN(ms) || ms < 0 || ms > maxMillis {
		return 0, fmt.Errorf("duration_ms %.40s is not a duration (0 to %d milliseconds)", n, maxMillis)
	}
	return time.Duration(math.Round(ms*1000)) * time.Microsecond, nil
}
