package jsonpos

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Limits bound the numbers Decode accepts. JSON puts no limit on a number's
// size, but the schema library turns every number into an exact rational,
// which costs time in proportion to its exponent and the square of its
// digits and fails outright past an exponent of about a million: a nine-byte
// literal such as 1e9999999 could stall or crash whatever reads it next.
type Limits struct {
	// MaxDigits bounds the digits of the mantissa (before the exponent).
	MaxDigits int
	// MaxExponent bounds the decimal order of magnitude: a non-zero value
	// v must satisfy 10^-MaxExponent <= |v| < 10^(MaxExponent+1). A zero
	// written with an exponent beyond it counts too.
	MaxExponent int
	// StandIns, when set, makes Decode replace a number outside the limits
	// by a stand-in within them (see StandIn) instead of refusing it.
	StandIns bool
}

// OutOfRange is the first number Decode refused.
type OutOfRange struct {
	// Pointer is the JSON pointer of the number within the decoded value.
	Pointer string
	// Number is the number as written, shortened when long.
	Number string
	// Offset is the byte offset of the number in the decoded input.
	Offset int
}

// Decode decodes JSON that json.Valid already accepted into the values
// encoding/json produces with UseNumber (map[string]any, []any, string,
// json.Number, bool, nil). It stops at the first number outside lim (zero
// limits check nothing) and reports it instead of a value.
//
// It is a plain recursive parser because a json.Decoder per command costs
// more than the parse itself on long streams. Recursion is bounded:
// json.Valid refuses documents nested deeper than 10,000 levels.
// FuzzDecode holds it to encoding/json's result.
func Decode(raw []byte, lim Limits) (any, *OutOfRange) {
	d := decoder{scanner: scanner{data: raw}, lim: lim}
	v := d.value()
	if d.bad != nil {
		return nil, d.bad
	}
	return v, nil
}

type decoder struct {
	scanner
	lim Limits
	// path holds the keys and indexes leading to the value being read; it
	// is turned into a pointer only when a number is refused.
	path     []pathElem
	bad      *OutOfRange
	standIns []Substitute
}

// Substitute is a number DecodeStandIns replaced, and what it put instead.
type Substitute struct {
	OutOfRange
	StandIn string
}

// DecodeStandIns is Decode with lim.StandIns set: it never refuses a
// number, and reports the numbers it replaced, in document order.
func DecodeStandIns(raw []byte, lim Limits) (any, []Substitute) {
	lim.StandIns = true
	d := decoder{scanner: scanner{data: raw}, lim: lim}
	v := d.value()
	return v, d.standIns
}

type pathElem struct {
	key   string
	index int
	array bool
}

func (d *decoder) value() any {
	d.space()
	if d.pos >= len(d.data) || d.bad != nil {
		return nil
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		return d.str()
	case 't':
		d.pos += 4
		return true
	case 'f':
		d.pos += 5
		return false
	case 'n':
		d.pos += 4
		return nil
	default:
		return d.number()
	}
}

func (d *decoder) object() map[string]any {
	d.pos++
	m := map[string]any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m
	}
	d.path = append(d.path, pathElem{})
	for d.pos < len(d.data) && d.bad == nil {
		d.space()
		k := d.str()
		d.space()
		d.pos++ // ':'
		d.path[len(d.path)-1].key = k
		m[k] = d.value()
		if d.closes('}') {
			break
		}
	}
	d.path = d.path[:len(d.path)-1]
	return m
}

func (d *decoder) array() []any {
	d.pos++
	a := []any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return a
	}
	d.path = append(d.path, pathElem{array: true})
	for d.pos < len(d.data) && d.bad == nil {
		d.path[len(d.path)-1].index = len(a)
		a = append(a, d.value())
		if d.closes(']') {
			break
		}
	}
	d.path = d.path[:len(d.path)-1]
	return a
}

// closes reads the separator after a member or an element, and reports
// whether it ends the container (or the input does).
func (d *decoder) closes(end byte) bool {
	d.space()
	if d.pos >= len(d.data) {
		return true
	}
	sep := d.data[d.pos]
	d.pos++
	return sep == end
}

// number reads a number token, refusing or replacing one outside the
// limits.
func (d *decoder) number() any {
	start := d.pos
	for d.pos < len(d.data) && !scalarEnd[d.data[d.pos]] {
		d.pos++
	}
	tok := d.data[start:d.pos]
	if InRange(tok, d.lim) {
		return json.Number(tok)
	}
	bad := OutOfRange{Pointer: d.pointer(), Number: clip(tok), Offset: start}
	if d.lim.StandIns {
		stand := StandIn(tok, d.lim)
		d.standIns = append(d.standIns, Substitute{OutOfRange: bad, StandIn: stand})
		return json.Number(stand)
	}
	d.bad = &bad
	return nil
}

func (d *decoder) pointer() string {
	var b strings.Builder
	for _, e := range d.path {
		b.WriteByte('/')
		if e.array {
			b.WriteString(strconv.Itoa(e.index))
		} else {
			b.WriteString(EscapeToken(e.key))
		}
	}
	return b.String()
}

// clip shortens a long number for messages: its head, its length, its tail.
func clip(tok []byte) string {
	const keep = 24
	if len(tok) <= 2*keep+16 {
		return string(tok)
	}
	return string(tok[:keep]) + "…(" + strconv.Itoa(len(tok)) + " characters)…" + string(tok[len(tok)-keep:])
}

// str reads a string token ("" for one that does not end).
func (d *decoder) str() string {
	v, _ := d.scanner.str()
	return v
}

// InRange reports whether the JSON number tok lies within lim. It reads the
// token once and does no arithmetic on its value, so that judging a number
// never costs what the number would.
func InRange(tok []byte, lim Limits) bool {
	if lim.MaxDigits <= 0 && lim.MaxExponent <= 0 {
		return true
	}
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	// order is the decimal order of the first non-zero digit: 0 for 5, 2
	// for 500, -3 for 0.005; set once that digit is seen.
	digits, order, nonZero := 0, 0, false
	intStart := i
	for ; i < len(tok) && tok[i] >= '0' && tok[i] <= '9'; i++ {
		digits++
	}
	intDigits := i - intStart
	for k := intStart; k < i; k++ {
		if tok[k] != '0' {
			nonZero, order = true, intDigits-1-(k-intStart)
			break
		}
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		for frac := 1; i < len(tok) && tok[i] >= '0' && tok[i] <= '9'; i, frac = i+1, frac+1 {
			digits++
			if !nonZero && tok[i] != '0' {
				nonZero, order = true, -frac
			}
		}
	}
	if lim.MaxDigits > 0 && digits > lim.MaxDigits {
		return false
	}
	if lim.MaxExponent <= 0 {
		return true
	}
	exp := 0
	if j, neg, ok := exponent(tok, i); ok {
		i = j
		for i < len(tok) && tok[i] == '0' {
			i++
		}
		if len(tok)-i > 9 {
			// More than nine significant exponent digits: beyond any
			// limit, and beyond what an int holds on every platform.
			return false
		}
		for ; i < len(tok); i++ {
			exp = exp*10 + int(tok[i]-'0')
		}
		if neg {
			exp = -exp
		}
	}
	if nonZero {
		exp += order
	}
	return exp >= -lim.MaxExponent && exp <= lim.MaxExponent
}

// exponent reads the start of the exponent part of the number token tok at
// i, as JSON writes it: e or E, then an optional sign. It returns the index
// of the exponent's first digit and whether the exponent is negative, or
// false when tok has no exponent at i.
func exponent(tok []byte, i int) (digits int, neg, ok bool) {
	if i >= len(tok) || (tok[i] != 'e' && tok[i] != 'E') {
		return i, false, false
	}
	i++
	if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
		return i + 1, tok[i] == '-', true
	}
	return i, false, true
}

// StandIn returns a number within lim that every JSON Schema numeric
// keyword of a sane schema judges as it judges tok: the same sign, the
// same answer to "is it an integer", the same order against 0, 1 and any
// bound below 10^(MaxDigits-2). The value itself is kept when it can be
// written within lim (a long spelling of a short value, such as 1.000…0);
// otherwise a huge integer stands in as 10^(MaxDigits-1), a huge fraction
// as 10^(MaxDigits-2)+0.5, a tiny one as 10^-MaxExponent, and a fraction with
// too many digits keeps its integer part and leading digits, with a last
// non-zero digit so that it stays a fraction. lim needs MaxDigits >= 3
// and MaxExponent >= MaxDigits.
func StandIn(tok []byte, lim Limits) string {
	i, sign := 0, ""
	if i < len(tok) && tok[i] == '-' {
		sign, i = "-", 1
	}
	// The significant digits, and point: the value is 0.D × 10^point.
	var sig []byte
	point, seenPoint := int64(0), false
	for ; i < len(tok); i++ {
		c := tok[i]
		if c == '.' {
			seenPoint = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		if len(sig) == 0 && c == '0' {
			if seenPoint {
				point--
			}
			continue
		}
		sig = append(sig, c)
		if !seenPoint {
			point++
		}
	}
	exp := int64(0)
	if j, neg, ok := exponent(tok, i); ok {
		i = j
		for ; i < len(tok); i++ {
			if exp < 1e15 { // saturate: past this, any limit is far away
				exp = exp*10 + int64(tok[i]-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	for len(sig) > 0 && sig[len(sig)-1] == '0' {
		sig = sig[:len(sig)-1]
	}
	if len(sig) == 0 {
		return "0"
	}
	point += exp
	n, x := int64(lim.MaxDigits), int64(lim.MaxExponent)
	order := point - 1
	integer := point >= int64(len(sig))
	switch {
	case int64(len(sig)) <= n && order >= -x && order <= x:
		return sign + string(sig) + "e" + strconv.FormatInt(point-int64(len(sig)), 10)
	case order < -x:
		return sign + "1e-" + strconv.FormatInt(x, 10)
	case integer && (point > n || order > x):
		return sign + "1e" + strconv.FormatInt(n-1, 10)
	case point >= n || order > x:
		return sign + "1" + strings.Repeat("0", int(n-2)) + ".5"
	}
	// A fraction of moderate size with more than n significant digits:
	// its integer part has fewer than n digits, so the first n-1
	// significant digits and a final 1 keep the integer part and a
	// non-zero fraction.
	kept := append(append([]byte(nil), sig[:n-1]...), '1')
	return sign + string(kept) + "e" + strconv.FormatInt(point-n, 10)
}
