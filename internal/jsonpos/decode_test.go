package jsonpos

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func stdDecode(raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v)
	return v
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"cmd": "CreateBuffer", "id": 18446744073709551616, "size": 1e400, "usage": ["COPY_DST"]}`,
		`  [1, -2.5e-3, true, false, null, "a\"b\\u00e9\n", {}, [], {"": [[]]}]  `,
		`"\ud83d\ude00 and \/"`, `0`, `-0.0E+1`, `{"a":{"b":{"c":[1,{"d":null}]}}}`,
		`"\ud800 lone"`, "\"\xff\"",
	} {
		got, bad := Decode([]byte(s), Limits{})
		if bad != nil {
			t.Fatalf("Decode(%s) refused %+v with no limits", s, bad)
		}
		if want := stdDecode([]byte(s)); !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%s) = %#v, want %#v", s, got, want)
		}
	}
}

var limits = Limits{MaxDigits: 100, MaxExponent: 308}

func TestInRange(t *testing.T) {
	for _, c := range []struct {
		tok string
		ok  bool
	}{
		{"0", true}, {"-0", true}, {"5", true}, {"18446744073709551616", true},
		{"1e308", true}, {"9.99e308", true}, {"1e309", false}, {"10e308", false},
		{"1000e306", false}, {"0.001e311", true}, {"0.001e312", false},
		{"1e-308", true}, {"1e-309", false}, {"0.01e-306", true}, {"0.01e-307", false},
		{"-1e9999999", false}, {"1e-9999999", false}, {"1E+0000000000000000000001", true},
		{"1e00000000001000000000", false}, {"0e400", false}, {"0e308", true}, {"0.0e-308", true},
		{strings.Repeat("9", 100), true}, {strings.Repeat("9", 101), false},
		{"1." + strings.Repeat("0", 100), false}, {"1." + strings.Repeat("0", 99), true}, {"0." + strings.Repeat("0", 98) + "1", true},
	} {
		if got := InRange([]byte(c.tok), limits); got != c.ok {
			t.Errorf("InRange(%q) = %v, want %v", c.tok, got, c.ok)
		}
	}
	if !InRange([]byte("1e9999999"), Limits{}) {
		t.Error("zero limits refused a number")
	}
}

func TestDecodeNamesTheRefusedNumber(t *testing.T) {
	raw := []byte(`{"cmd": "CreateBuffer", "a/b": [1, {"size": 1e9999999}], "later": 1e9999999}`)
	v, bad := Decode(raw, limits)
	if v != nil || bad == nil {
		t.Fatalf("Decode = %v, %v", v, bad)
	}
	if bad.Pointer != "/a~1b/1/size" || bad.Number != "1e9999999" || string(raw[bad.Offset:bad.Offset+9]) != "1e9999999" {
		t.Errorf("refused %+v", bad)
	}
	long := []byte(`[` + strings.Repeat("7", 1<<20) + `]`)
	_, bad = Decode(long, limits)
	if bad == nil || bad.Pointer != "/0" || len(bad.Number) > 100 || !strings.Contains(bad.Number, "1048576 characters") {
		t.Errorf("long number refused as %+v", bad)
	}
}

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

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"cmd": "Draw", "n": [1, 2.5, "x\\y"], "ok": true, "z": null}`))
	f.Add([]byte(`"\u00e9"`))
	f.Add([]byte(`[1e9999999, -0.5E-3, 12345678901234567890123]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		got, bad := Decode(raw, Limits{})
		if bad != nil {
			t.Fatalf("refused %+v with no limits", bad)
		}
		if want := stdDecode(raw); !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q) = %#v, want %#v", raw, got, want)
		}
		// With limits, a refusal names a number that is really there.
		if _, bad := Decode(raw, limits); bad != nil {
			if !isNumberByte(raw[bad.Offset]) || InRange(raw[bad.Offset:bad.Offset+len(bad.Number)], limits) && !strings.Contains(bad.Number, "…") {
				t.Fatalf("refused %+v", bad)
			}
		}
	})
}

// isNumberByte reports whether c can occur in a JSON number.
func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// TestStandIn: a stand-in has the sign, the integer-ness and the order
// against 0 and 1 of the number it replaces, and a value that can be
// written within the limits is kept exactly.
func TestStandIn(t *testing.T) {
	lim := Limits{MaxDigits: 100, MaxExponent: 308}
	zeros := func(n int) string { return strings.Repeat("0", n) }
	for _, c := range []struct{ tok, want string }{
		{"1" + zeros(100), "1e100"},                          // 101 digits, written exactly
		{"1" + zeros(99) + "1", "1e99"},                      // 101 significant digits
		{"-1" + zeros(99) + "1", "-1e99"},                    // its negative
		{"1e9999999", "1e99"},                                // a huge exponent
		{"1" + zeros(150) + ".5", "1" + zeros(98) + ".5"},    // a huge fraction
		{"1." + zeros(150), "1e0"},                           // a long spelling of 1
		{"1." + zeros(150) + "1", "1" + zeros(98) + "1e-99"}, // just above 1
		{"0." + zeros(150) + "1", "1e-151"},                  // small, but writable
		{"1e-99999", "1e-308"},                               // tiny
		{"-1e-99999", "-1e-308"},                             // tiny and negative
		{"0e99999999999", "0"},                               // zero
		{"-0." + zeros(200), "0"},                            // zero
		{"12" + zeros(120) + "e-60", "12e60"},                // a long spelling of 1.2e61
	} {
		got := StandIn([]byte(c.tok), lim)
		if got != c.want {
			t.Errorf("StandIn(%.40s…) = %.60s, want %.60s", c.tok, got, c.want)
		}
		if !InRange([]byte(got), lim) {
			t.Errorf("StandIn(%.40s…) = %.60s is itself out of range", c.tok, got)
		}
	}
}
