package jsonout

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// checkReport reports whether the report's bytes hold one JSON value the
// published schema accepts, with no key twice in any object. False means
// only that the fast check does not vouch for it: the reader and
// jsonschema then judge it, and say what is wrong. It never reads past
// the data, and gives up (false) past a depth no report reaches.
func checkReport(data []byte) bool {
	_, _, ok := checkReportSpans(data)
	return ok
}

// checkReportSpans is checkReport, which also finds on its way where the
// report's results arrays lie, for decodeChecked. decodable is false when
// a member's name differs from "results" or "implementations" only in
// case: encoding/json would take it for that member, and decodeChecked
// leaves such a report to encoding/json.
func checkReportSpans(data []byte) (spans resultSpanList, decodable, ok bool) {
	root, err := reportCheck()
	if err != nil {
		return nil, false, false
	}
	w := walker{data: data}
	if !w.value(root) {
		return nil, false, false
	}
	w.space()
	return w.spans, !w.undecodable, w.pos == len(w.data)
}

// maxCheckDepth bounds the walk's recursion; a report nests about 8 deep.
const maxCheckDepth = 64

type walker struct {
	data  []byte
	pos   int
	depth int
	// unescaped holds a string with escapes, decoded.
	unescaped string
	// element is the index of the element an array's walk is at, read
	// by the object that element is, before it walks anything else.
	element int
	// spans are the results arrays the check walked past, and
	// undecodable says that a member may be taken for one (spanRole).
	spans       resultSpanList
	undecodable bool
	// length is that of the array the walk last left.
	length int
}

func (w *walker) space() {
	// Past the end is possible: an escape's backslash as the last byte
	// moves the walk two bytes on.
	if w.pos >= len(w.data) || w.data[w.pos] > ' ' {
		return
	}
	w.pos += spaceRun(w.data[w.pos:])
}

func (w *walker) value(n *checkNode) bool {
	w.space()
	if w.pos >= len(w.data) || n.never || w.depth >= maxCheckDepth {
		return false
	}
	c := w.data[w.pos]
	// The schema's enums are of strings only (compileCheck).
	if n.enum != nil && c != '"' {
		return false
	}
	w.depth++
	defer func() { w.depth-- }()
	switch {
	case c == '{':
		return n.allows(kindObject) && w.object(n)
	case c == '[':
		return n.allows(kindArray) && w.array(n)
	case c == '"':
		s, ok := w.str()
		return ok && n.allows(kindString) && n.stringOK(s)
	case c == 't':
		return n.allows(kindBoolean) && w.literal("true")
	case c == 'f':
		return n.allows(kindBoolean) && w.literal("false")
	case c == 'n':
		return n.allows(kindNull) && w.literal("null")
	default:
		tok, integral, ok := w.numberToken()
		return ok && n.numberOK(tok, integral)
	}
}

func (n *checkNode) allows(kind uint8) bool { return n.kinds == 0 || n.kinds&kind != 0 }

func (w *walker) literal(word string) bool {
	if len(w.data)-w.pos < len(word) || string(w.data[w.pos:w.pos+len(word)]) != word {
		return false
	}
	w.pos += len(word)
	return true
}

func (w *walker) object(n *checkNode) bool {
	w.pos++
	implementation := -1
	if n.spanRole == implementationObject {
		implementation = w.element
	}
	var seen uint64
	var others keySet
	for first := true; ; first = false {
		w.space()
		if first && w.pos < len(w.data) && w.data[w.pos] == '}' {
			w.pos++
			break
		}
		if w.pos >= len(w.data) || w.data[w.pos] != '"' {
			return false
		}
		key, ok := w.str()
		w.space()
		if !ok || w.pos >= len(w.data) || w.data[w.pos] != ':' {
			return false
		}
		w.pos++
		member := n.additional
		if i, named := n.props[string(key)]; named {
			if seen&(1<<i) != 0 {
				return false
			}
			seen |= 1 << i
			member = n.propNodes[i]
		} else if !others.add(key) {
			return false
		}
		if member == nil {
			member = &openNode
		}
		if n.spanRole != 0 && string(key) == "results" {
			w.space()
			from := w.pos
			if !w.value(member) {
				return false
			}
			w.spans = append(w.spans, resultSpan{from: from, to: w.pos, implementation: implementation, length: w.length})
		} else {
			if n.spanRole != 0 && n.spanRole.mistakable(key) {
				w.undecodable = true
			}
			if !w.value(member) {
				return false
			}
		}
		if !w.next('}') {
			return false
		}
		if w.data[w.pos-1] == '}' {
			break
		}
	}
	return seen&n.required == n.required
}

// openNode is the schema of a member no keyword constrains: its value is
// walked only for its syntax and its keys.
var openNode = checkNode{open: true, minLength: -1}

func (w *walker) array(n *checkNode) bool {
	w.pos++
	items := n.items
	if items == nil {
		items = &openNode
	}
	w.space()
	if w.pos < len(w.data) && w.data[w.pos] == ']' {
		w.pos++
		w.length = 0
		return true
	}
	for i := 0; ; i++ {
		w.element = i
		if !w.value(items) || !w.next(']') {
			return false
		}
		if w.data[w.pos-1] == ']' {
			w.length = i + 1
			return true
		}
	}
}

// next moves past the comma before another element, or past the close.
func (w *walker) next(close byte) bool {
	w.space()
	if w.pos < len(w.data) && (w.data[w.pos] == ',' || w.data[w.pos] == close) {
		w.pos++
		return true
	}
	return false
}

// str reads a string at w.pos and returns its value: the bytes
// themselves when they are valid UTF-8 without escapes, else the value
// encoding/json decodes (the one jsonschema is given), held in w.unescaped.
func (w *walker) str() ([]byte, bool) {
	start := w.pos
	w.pos++
	w.pos += plainRun(w.data[w.pos:])
	if w.pos < len(w.data) && w.data[w.pos] == '"' {
		w.pos++
		return w.data[start+1 : w.pos-1], true
	}
	plain := true
	for w.pos < len(w.data) {
		c := w.data[w.pos]
		switch {
		case c == '"':
			w.pos++
			if raw := w.data[start+1 : w.pos-1]; plain || utf8.Valid(raw) && !hasByte(raw, '\\') {
				return raw, true
			}
			if json.Unmarshal(w.data[start:w.pos], &w.unescaped) != nil {
				return nil, false
			}
			return []byte(w.unescaped), true
		case c == '\\':
			plain = false
			w.pos += 2
		case c < 0x20:
			return nil, false
		default:
			plain = plain && c < utf8.RuneSelf
			w.pos++
		}
	}
	return nil, false
}

func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// numberToken reads a number as JSON writes one, and says whether it has
// neither a fraction nor an exponent.
func (w *walker) numberToken() (tok []byte, integral, ok bool) {
	start := w.pos
	if w.pos < len(w.data) && w.data[w.pos] == '-' {
		w.pos++
	}
	switch {
	case w.pos < len(w.data) && w.data[w.pos] == '0':
		w.pos++
	case !w.digits():
		return nil, false, false
	}
	integral = true
	if w.pos < len(w.data) && w.data[w.pos] == '.' {
		w.pos++
		integral = false
		if !w.digits() {
			return nil, false, false
		}
	}
	if w.pos < len(w.data) && (w.data[w.pos] == 'e' || w.data[w.pos] == 'E') {
		w.pos++
		integral = false
		if w.pos < len(w.data) && (w.data[w.pos] == '+' || w.data[w.pos] == '-') {
			w.pos++
		}
		// A long exponent is left to jsonschema, whose rational would
		// hold every digit of it.
		at := w.pos
		if !w.digits() || w.pos-at > 4 {
			return nil, false, false
		}
	}
	return w.data[start:w.pos], integral, true
}

func (w *walker) digits() bool {
	at := w.pos
	for w.pos < len(w.data) && w.data[w.pos] >= '0' && w.data[w.pos] <= '9' {
		w.pos++
	}
	return w.pos > at
}

func (n *checkNode) stringOK(s []byte) bool {
	if n.open {
		return true
	}
	if n.enum != nil && !inList(n.enum, s) {
		return false
	}
	if n.minLength > 0 && utf8.RuneCount(s) < n.minLength {
		return false
	}
	return n.pattern == nil || n.pattern.Match(s)
}

func inList(list []string, s []byte) bool {
	for _, e := range list {
		if e == string(s) {
			return true
		}
	}
	return false
}

// numberOK checks a number's type and bounds as jsonschema does, on the
// exact rational the token writes; a short integer is compared without
// one.
func (n *checkNode) numberOK(tok []byte, integral bool) bool {
	if n.open || n.kinds == 0 && n.minimum == nil && n.maximum == nil {
		return true
	}
	var exact *big.Rat
	rat := func() *big.Rat {
		if exact == nil {
			exact, _ = new(big.Rat).SetString(string(tok))
		}
		return exact
	}
	switch {
	case n.allows(kindNumber):
	case n.allows(kindInteger):
		if !integral && !rat().IsInt() {
			return false
		}
	default:
		return false
	}
	if integral && len(tok) <= 18 && n.intBounds {
		i, err := strconv.ParseInt(string(tok), 10, 64)
		return err == nil && i >= n.intMin && i <= n.intMax
	}
	if !integral && n.intBounds && n.boundsWhole {
		if within, ok := decimalWithin(tok, n.intMin, n.intMax); ok {
			return within
		}
	}
	return (n.minimum == nil || rat().Cmp(n.minimum) >= 0) && (n.maximum == nil || rat().Cmp(n.maximum) <= 0)
}

// keySet holds the keys of one object that its schema does not name, to
// find one twice.
type keySet struct {
	list []string
	set  map[string]struct{}
}

func (k *keySet) add(key []byte) bool {
	if k.set != nil {
		if _, dup := k.set[string(key)]; dup {
			return false
		}
		k.set[string(key)] = struct{}{}
		return true
	}
	for _, s := range k.list {
		if s == string(key) {
			return false
		}
	}
	k.list = append(k.list, string(key))
	if len(k.list) > 16 {
		k.set = make(map[string]struct{}, 2*len(k.list))
		for _, s := range k.list {
			k.set[s] = struct{}{}
		}
	}
	return true
}

// decimalWithin says whether a number written with a fraction and no
// exponent (a duration: 1025.598) lies within whole bounds, from its
// whole part I and whether its fraction f is 0: I+f >= lo when I >= lo,
// and I+f <= hi when I < hi or I == hi with f == 0 (mirrored for a
// negative number). ok is false for any other token, left to big.Rat.
func decimalWithin(tok []byte, lo, hi int64) (within, ok bool) {
	negative := len(tok) > 0 && tok[0] == '-'
	if negative {
		tok = tok[1:]
	}
	dot := bytes.IndexByte(tok, '.')
	if dot < 1 || dot > 18 || bytes.ContainsAny(tok, "eE") {
		return false, false
	}
	whole, err := strconv.ParseInt(string(tok[:dot]), 10, 64)
	if err != nil {
		return false, false
	}
	fractionZero := len(bytes.Trim(tok[dot+1:], "0")) == 0
	if !negative {
		return whole >= lo && (whole < hi || whole == hi && fractionZero), true
	}
	// -(I+f) >= lo: I+f <= -lo; -(I+f) <= hi: I+f >= -hi. The bounds are
	// within ±2^63-1 here once they are not the int64 extremes.
	if lo == math.MinInt64 || hi == math.MinInt64 {
		return false, false
	}
	return (whole < -lo || whole == -lo && fractionZero) && whole >= -hi, true
}
