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
	path []pathElem
	bad  *OutOfRange
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
			d.space()
			if d.pos >= len(d.data) {
				break
			}
			sep := d.data[d.pos]
			d.pos++
			if sep == '}' {
				break
			}
		}
		d.path = d.path[:len(d.path)-1]
		return m
	case '[':
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
			d.space()
			if d.pos >= len(d.data) {
				break
			}
			sep := d.data[d.pos]
			d.pos++
			if sep == ']' {
				break
			}
		}
		d.path = d.path[:len(d.path)-1]
		return a
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
		start := d.pos
		for d.pos < len(d.data) && !scalarEnd[d.data[d.pos]] {
			d.pos++
		}
		tok := d.data[start:d.pos]
		if !InRange(tok, d.lim) {
			d.bad = &OutOfRange{Pointer: d.pointer(), Number: clip(tok), Offset: start}
			return nil
		}
		return json.Number(tok)
	}
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
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		neg := false
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			neg = tok[i] == '-'
			i++
		}
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
