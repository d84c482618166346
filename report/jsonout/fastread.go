package jsonout

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The results are nearly all of a report's bytes, and encoding/json
// spent half of a site's processor time on them: it scans the whole
// document once to check it and again to decode it, by reflection. A
// report checkReport vouched for is valid JSON that meets the schema, so
// its results are decoded here in one pass, and the rest of it, results
// left out, by encoding/json. What this decoder is not sure to read as
// encoding/json does (a member whose name differs from a field's only in
// case, which encoding/json would take for it; an index that is not an
// int) makes it give up, and encoding/json reads the whole report.

// decodeChecked decodes a report checkReportSpans vouched for, whose
// results arrays it found at spans, into doc, as json.Unmarshal would;
// false when it is not sure to.
func decodeChecked(data []byte, spans resultSpanList, doc *Document) bool {
	rest := make([]byte, 0, len(data)-spans.bytes()+2*len(spans))
	at := 0
	for _, s := range spans {
		rest = append(append(rest, data[at:s.from]...), "[]"...)
		at = s.to
	}
	rest = append(rest, data[at:]...)
	if json.Unmarshal(rest, doc) != nil {
		return false
	}
	for _, s := range spans {
		results, ok := decodeResults(data[s.from:s.to], s.length)
		if !ok {
			return false
		}
		switch {
		case s.implementation < 0:
			doc.Results = results
		case s.implementation < len(doc.Implementations):
			doc.Implementations[s.implementation].Results = results
		default:
			return false
		}
	}
	return true
}

// resultSpan is where a results array lies in the report: the top-level
// one (implementation -1) or an implementation's.
type resultSpan struct {
	from, to       int
	implementation int
	// length is the number of results.
	length int
}

type resultSpanList []resultSpan

func (l resultSpanList) bytes() int {
	n := 0
	for _, s := range l {
		n += s.to - s.from
	}
	return n
}

// skip moves past the value at w.pos of a document checkReport vouched
// for, looking at nothing in it but where it ends.
func (w *walker) skip() bool {
	w.space()
	depth := 0
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case '"':
			w.skipString()
			if depth == 0 {
				return true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return true
			}
			depth--
			if depth == 0 {
				w.pos++
				return true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return true
			}
		}
		w.pos++
	}
	return depth == 0
}

func (w *walker) skipString() {
	w.pos++
	for w.pos < len(w.data) {
		w.pos += quoteOrEscape(w.data[w.pos:])
		if w.pos >= len(w.data) {
			return
		}
		switch w.data[w.pos] {
		case '\\':
			w.pos += 2
			continue
		case '"':
			w.pos++
			return
		}
		w.pos++
	}
}

func (w *walker) peek() byte {
	w.space()
	if w.pos < len(w.data) {
		return w.data[w.pos]
	}
	return 0
}

// members calls member with each key of the object at w.pos, positioned
// at its value, which member must read; false when it says so or the
// object is not one.
func (w *walker) members(member func(key []byte) bool) bool {
	if w.peek() != '{' {
		return false
	}
	w.pos++
	if w.peek() == '}' {
		w.pos++
		return true
	}
	for {
		if w.peek() != '"' {
			return false
		}
		key, ok := w.str()
		if !ok || w.peek() != ':' {
			return false
		}
		w.pos++
		if !member(key) || !w.next('}') {
			return false
		}
		if w.data[w.pos-1] == '}' {
			return true
		}
	}
}

// elements calls element with the index of each element of the array at
// w.pos, positioned at it.
func (w *walker) elements(element func(i int) bool) bool {
	if w.peek() != '[' {
		return false
	}
	w.pos++
	if w.peek() == ']' {
		w.pos++
		return true
	}
	for i := 0; ; i++ {
		if !element(i) || !w.next(']') {
			return false
		}
		if w.data[w.pos-1] == ']' {
			return true
		}
	}
}

// decodeResults decodes a results array as json.Unmarshal into []Result.
func decodeResults(data []byte, length int) ([]Result, bool) {
	w := walker{data: data}
	if w.peek() != '[' {
		return nil, false
	}
	out := make([]Result, 0, length)
	ok := w.elements(func(int) bool {
		out = append(out, Result{})
		return w.result(&out[len(out)-1])
	})
	return out, ok
}

// resultFields are the members of a Result, which encoding/json also
// matches in any case.
var resultFields = []string{"fixture_path", "fixture_name", "actual_outcome", "actual_phase", "actual_code", "actual_command_index",
	"passed", "message", "expected_outcome", "expected_phase", "expected_code", "expected_command_index", "class", "corpus_path",
	"corpus_error", "location", "rule", "reason", "fix", "digest", "diagnostics", "known_failure", "detail_left_out", "expectation",
	"attempts", "carried", "duration_ms"}

func (w *walker) result(r *Result) bool {
	return w.members(func(key []byte) bool {
		switch string(key) {
		case "fixture_path":
			return w.text(&r.FixturePath)
		case "fixture_name":
			return w.text(&r.FixtureName)
		case "actual_outcome":
			return w.text(&r.ActualOutcome)
		case "actual_phase":
			return w.optionalText(&r.ActualPhase)
		case "actual_code":
			return w.optionalText(&r.ActualCode)
		case "actual_command_index":
			return w.optionalInt(&r.ActualCommandIndex)
		case "passed":
			return w.boolean(&r.Passed)
		case "message":
			return w.optionalText(&r.Message)
		case "expected_outcome":
			return w.optionalText(&r.ExpectedOutcome)
		case "expected_phase":
			return w.optionalText(&r.ExpectedPhase)
		case "expected_code":
			return w.optionalText(&r.ExpectedCode)
		case "expected_command_index":
			return w.optionalNumber(&r.ExpectedCommandIndex)
		case "class":
			return w.text(&r.Class)
		case "corpus_path":
			return w.text(&r.CorpusPath)
		case "corpus_error":
			return w.boolean(&r.CorpusError)
		}
		return w.resultRest(r, key)
	})
}

func (w *walker) resultRest(r *Result, key []byte) bool {
	switch string(key) {
	case "location":
		return w.location(&r.Location)
	case "rule":
		return w.optionalText(&r.Rule)
	case "reason":
		return w.optionalText(&r.Reason)
	case "fix":
		return w.optionalText(&r.Fix)
	case "digest":
		return w.digest(&r.Digest)
	case "diagnostics":
		return w.diagnostics(&r.Diagnostics)
	case "known_failure":
		return w.optionalText(&r.KnownFailure)
	case "detail_left_out":
		return w.boolean(&r.DetailLeftOut)
	case "expectation":
		return w.expectation(&r.Expectation)
	case "attempts":
		return w.attempts(&r.Attempts)
	case "carried":
		return w.boolean(&r.Carried)
	case "duration_ms":
		return w.number(&r.DurationMS)
	}
	return w.unknown(key, resultFields)
}

// unknown skips a member no field names, unless encoding/json would take
// it for one whose name differs only in case.
func (w *walker) unknown(key []byte, fields []string) bool {
	for _, f := range fields {
		if bytes.EqualFold(key, []byte(f)) {
			return false
		}
	}
	return w.skip()
}

// null moves past a null; encoding/json leaves the field as it was.
func (w *walker) null() bool {
	if w.peek() == 'n' {
		return w.literal("null")
	}
	return false
}

func (w *walker) text(s *string) bool {
	if w.null() {
		return true
	}
	if w.peek() != '"' {
		return false
	}
	b, ok := w.str()
	*s = string(b)
	return ok
}

func (w *walker) optionalText(s **string) bool {
	if w.null() {
		*s = nil
		return true
	}
	var v string
	if !w.text(&v) {
		return false
	}
	*s = &v
	return true
}

func (w *walker) boolean(b *bool) bool {
	switch w.peek() {
	case 'n':
		return w.null()
	case 't':
		*b = true
		return w.literal("true")
	case 'f':
		*b = false
		return w.literal("false")
	}
	return false
}

func (w *walker) number(n *json.Number) bool {
	if w.null() {
		return true
	}
	if c := w.peek(); c != '-' && (c < '0' || c > '9') {
		return false
	}
	tok, _, ok := w.numberToken()
	*n = json.Number(tok)
	return ok
}

func (w *walker) optionalNumber(n **json.Number) bool {
	if w.null() {
		*n = nil
		return true
	}
	var v json.Number
	if !w.number(&v) {
		return false
	}
	*n = &v
	return true
}

// integer reads an int as encoding/json does: a number of no fraction
// and no exponent that fits.
func (w *walker) integer(i *int) bool {
	if w.null() {
		return true
	}
	var n json.Number
	if !w.number(&n) {
		return false
	}
	v, err := strconv.ParseInt(string(n), 10, strconv.IntSize)
	*i = int(v)
	return err == nil
}

func (w *walker) optionalInt(i **int) bool {
	if w.null() {
		*i = nil
		return true
	}
	var v int
	if !w.integer(&v) {
		return false
	}
	*i = &v
	return true
}

func (w *walker) location(s **Span) bool {
	if w.null() {
		*s = nil
		return true
	}
	v := &Span{}
	*s = v
	return w.members(func(key []byte) bool {
		switch string(key) {
		case "line":
			return w.integer(&v.Line)
		case "column":
			return w.integer(&v.Column)
		case "end_line":
			return w.integer(&v.EndLine)
		case "end_column":
			return w.integer(&v.EndColumn)
		}
		return w.unknown(key, []string{"line", "column", "end_line", "end_column"})
	})
}

func (w *walker) digest(d **Digest) bool {
	if w.null() {
		*d = nil
		return true
	}
	v := &Digest{}
	*d = v
	return w.members(func(key []byte) bool {
		switch string(key) {
		case "file":
			return w.text(&v.File)
		case "commands":
			return w.text(&v.Commands)
		case "expected":
			return w.text(&v.Expected)
		}
		return w.unknown(key, []string{"file", "commands", "expected"})
	})
}

func (w *walker) expectation(e **Expectation) bool {
	if w.null() {
		*e = nil
		return true
	}
	v := &Expectation{}
	*e = v
	return w.members(func(key []byte) bool {
		switch string(key) {
		case "expect":
			return w.text(&v.Expect)
		case "reason":
			return w.optionalText(&v.Reason)
		case "entry":
			return w.text(&v.Entry)
		}
		return w.unknown(key, []string{"expect", "reason", "entry"})
	})
}

// diagnostics and attempts are arrays: null leaves them nil, as
// encoding/json does, and [] is empty but not nil.
func (w *walker) diagnostics(ds *[]Diagnostic) bool {
	if w.null() {
		*ds = nil
		return true
	}
	out := []Diagnostic{}
	ok := w.elements(func(int) bool {
		out = append(out, Diagnostic{})
		v := &out[len(out)-1]
		return w.members(func(key []byte) bool {
			switch string(key) {
			case "source":
				return w.text(&v.Source)
			case "message":
				return w.text(&v.Message)
			}
			return w.unknown(key, []string{"source", "message"})
		})
	})
	*ds = out
	return ok
}

func (w *walker) attempts(as *[]Attempt) bool {
	if w.null() {
		*as = nil
		return true
	}
	out := []Attempt{}
	ok := w.elements(func(int) bool {
		out = append(out, Attempt{})
		v := &out[len(out)-1]
		return w.members(func(key []byte) bool {
			switch string(key) {
			case "outcome":
				return w.text(&v.Outcome)
			case "phase":
				return w.optionalText(&v.Phase)
			case "code":
				return w.optionalText(&v.Code)
			case "command_index":
				return w.optionalInt(&v.CommandIndex)
			case "message":
				return w.optionalText(&v.Message)
			}
			return w.unknown(key, []string{"outcome", "phase", "code", "command_index", "message"})
		})
	})
	*as = out
	return ok
}
