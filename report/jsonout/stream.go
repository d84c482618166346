package jsonout

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// The report is written as it is rendered: the results, which are nearly
// all of it, one at a time and each straight to the writer, so that a run
// of 50,000 fixtures never holds a second copy of itself, nor the
// document, nor the document indented. The bytes are those encoding/json
// writes for the Document indented by two spaces, "#[" escaped as the log
// needs (escape.LogJSON): the rare members go through encoding/json at
// their depth, and a result is written by hand the way it would write it
// (TestStreamMatchesDocument holds the two together).

// stream writes one document. Its first error sticks: every later write
// is skipped and Write returns it.
type stream struct {
	w       *bufio.Writer
	scratch bytes.Buffer
	enc     *json.Encoder
	err     error
}

func newStream(w io.Writer) *stream {
	s := &stream{w: bufio.NewWriterSize(w, 64<<10)}
	s.enc = json.NewEncoder(&s.scratch)
	return s
}

// indentation is what starts a line at depth d: two spaces a level.
func indentation(d int) string {
	const spaces = "                                        "
	if 2*d > len(spaces) {
		return strings.Repeat("  ", d)
	}
	return spaces[:2*d]
}

func (s *stream) raw(b string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(b)
	}
}

// value writes v as encoding/json writes it at depth d of the document.
func (s *stream) value(d int, v any) {
	if s.err != nil {
		return
	}
	s.scratch.Reset()
	s.enc.SetIndent(indentation(d), "  ")
	if s.err = s.enc.Encode(v); s.err != nil {
		return
	}
	b := bytes.TrimSuffix(s.scratch.Bytes(), []byte("\n"))
	if bytes.Contains(b, []byte("#[")) {
		b = escape.LogJSON(b)
	}
	_, s.err = s.w.Write(b)
}

// plainJSON says whether encoding/json writes s as it is between quotes:
// printable ASCII, none of it escaped ('"', '\\', and '<', '>', '&' as
// HTML-safe JSON), and no "#[" for the log to escape. Most strings of a
// report are, so it skips the words of eight bytes that hold none of
// those bytes nor a '#' (fastscan.go) and looks at the rest a byte at a
// time; a byte at a time throughout, it was a third of writing a report.
func plainJSON(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		// What a string's bytes in a report may not be (unplain), and
		// what encoding/json or the log escapes besides.
		stop := unplain(x) | zeroBytes(x^(0x7f*lows)) | zeroBytes(x^('<'*lows)) |
			zeroBytes(x^('>'*lows)) | zeroBytes(x^('&'*lows)) | zeroBytes(x^('#'*lows))
		if stop != 0 {
			break
		}
	}
	return plainJSONBytes(s[i:])
}

// plainJSONBytes is plainJSON a byte at a time, its definition.
func plainJSONBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		case c == '#' && i+1 < len(s) && s[i+1] == '[':
			return false
		}
	}
	return true
}

func (s *stream) str(v string) {
	if !plainJSON(v) {
		s.value(0, v)
		return
	}
	s.raw(`"`)
	s.raw(v)
	s.raw(`"`)
}

func (s *stream) int(n int) {
	if s.err == nil {
		var b [24]byte
		_, s.err = s.w.Write(strconv.AppendInt(b[:0], int64(n), 10))
	}
}

func (s *stream) bool(b bool) {
	if b {
		s.raw("true")
	} else {
		s.raw("false")
	}
}

// object is an object or array being written at depth d, with n members
// so far.
type object struct {
	s     *stream
	d     int
	n     int
	close string
}

func (s *stream) open(d int, brackets string) *object {
	s.raw(brackets[:1])
	return &object{s: s, d: d, close: brackets[1:]}
}

// next starts a member or element on its own line.
func (o *object) next() {
	if o.n > 0 {
		o.s.raw(",")
	}
	o.n++
	o.s.raw("\n")
	o.s.raw(indentation(o.d + 1))
}

// key starts the member name; its value follows.
func (o *object) key(name string) {
	o.next()
	o.s.raw(`"`)
	o.s.raw(name)
	o.s.raw(`": `)
}

func (o *object) end() {
	if o.n > 0 {
		o.s.raw("\n")
		o.s.raw(indentation(o.d))
	}
	o.s.raw(o.close)
}

func (o *object) str(name, v string) { o.key(name); o.s.str(v) }

// optional is a string member written null when empty, as the Document's
// *string members are.
func (o *object) optional(name, v string) {
	o.key(name)
	if v == "" {
		o.s.raw("null")
		return
	}
	o.s.str(v)
}

// omitted is a string member left out when empty (omitempty).
func (o *object) omitted(name, v string) {
	if v != "" {
		o.str(name, v)
	}
}

func (o *object) int(name string, n int) { o.key(name); o.s.int(n) }

func (o *object) intOrNull(name string, n *int) {
	o.key(name)
	if n == nil {
		o.s.raw("null")
		return
	}
	o.s.int(*n)
}

func (o *object) bool(name string, b bool) { o.key(name); o.s.bool(b) }

// value is a member that encoding/json writes.
func (o *object) value(name string, v any) { o.key(name); o.s.value(o.d+1, v) }

// number writes a json.Number as encoding/json does; one that is not a
// plain integer or a duration of millis goes through it, which refuses a
// malformed one as it always did.
func (o *object) number(name string, n json.Number) {
	o.key(name)
	if isDecimal(string(n)) {
		o.s.raw(string(n))
		return
	}
	o.s.value(o.d+1, n)
}

// isDecimal reports whether s is digits with at most one '.' inside them
// and no leading zero before another digit: a JSON number as millis and
// command indexes write them.
func isDecimal(s string) bool {
	whole, frac, hasFrac := strings.Cut(s, ".")
	if !isDigits(whole) || len(whole) > 1 && whole[0] == '0' {
		return false
	}
	return !hasFrac || isDigits(frac)
}

// Write writes the run as indented JSON followed by a newline: the
// Document's members, in its order, with its omissions.
//
// The output is printed to an Actions log by "run --format json", where
// the runner executes "##[command]" anywhere in a line. So every '#'
// before a '[' is written as the JSON escape \u0023: the document decodes
// to the same values and no line carries "##[". No line can start with
// "::" either: each starts with indentation and a quote, brace or bracket.
func Write(w io.Writer, run *model.Run) error {
	s := newStream(w)
	var parity []model.ParityRow
	if len(run.Implementations) > 0 {
		parity = model.Parity(run)
	}
	doc := s.open(0, "{}")
	doc.str("report_version", ReportVersion)
	doc.value("summary", summary(run))
	doc.key("results")
	s.results(1, run.Results)
	doc.key("findings")
	list := s.open(1, "[]")
	for _, f := range run.Findings {
		list.next()
		s.value(2, Finding(f))
	}
	list.end()
	if len(run.Implementations) > 0 {
		doc.key("implementations")
		list := s.open(1, "[]")
		for i := range run.Implementations {
			list.next()
			s.implementation(2, implementationRecord(&run.Implementations[i], parity), run.Implementations[i].Results)
		}
		list.end()
		if len(run.FixtureReadbacks) > 0 {
			doc.key("fixture_readbacks")
			writeMap(s, 1, run.FixtureReadbacks)
		}
		if len(parity) > 0 {
			doc.key("level3_preview")
			list := s.open(1, "[]")
			for _, row := range parityRows(parity) {
				list.next()
				s.value(2, row)
			}
			list.end()
		}
	}
	s.checks(doc, run.Comparison, buildManifest(run.Manifest), buildCoverage(run.Coverage), verdict(run))
	doc.end()
	s.raw("\n")
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// checks are the members after the results: the comparison, the
// manifest, the coverage and the verdict, each when there is one.
func (s *stream) checks(doc *object, cmp *model.Comparison, m *ManifestCheck, c *Coverage, v *Verdict) {
	if head := comparisonHead(cmp); head != nil {
		doc.key("comparison")
		s.comparison(1, head, cmp)
	}
	if m != nil {
		doc.value("manifest", m)
	}
	if c != nil {
		doc.value("coverage", c)
	}
	if v != nil {
		doc.value("verdict", v)
	}
}

func (s *stream) results(d int, rs []model.Result) {
	list := s.open(d, "[]")
	for i := range rs {
		list.next()
		s.result(d+1, &rs[i])
	}
	list.end()
}

// result writes one fixture's record as the Result it converts to
// (result) is written.
func (s *stream) result(d int, r *model.Result) {
	o := s.open(d, "{}")
	o.str("fixture_path", r.Path)
	o.str("fixture_name", r.Name)
	o.str("actual_outcome", string(r.Actual.Outcome))
	o.optional("actual_phase", string(r.Actual.Phase))
	o.optional("actual_code", r.Actual.Code)
	o.intOrNull("actual_command_index", r.Actual.CommandIndex)
	o.bool("passed", r.Passed)
	o.optional("message", r.Actual.Message)
	o.optional("expected_outcome", r.Expected.Outcome)
	o.optional("expected_phase", r.Expected.Phase)
	o.optional("expected_code", r.Expected.Code)
	if n := expectedIndex(r.Expected); n != nil {
		o.number("expected_command_index", *n)
	} else {
		o.key("expected_command_index")
		s.raw("null")
	}
	o.str("class", r.Class.String())
	o.str("corpus_path", r.RelPath)
	o.bool("corpus_error", r.IsCorpusError())
	o.key("location")
	s.span(d+1, r.Span)
	o.omitted("rule", r.Actual.Rule)
	o.omitted("reason", r.Reason)
	o.omitted("fix", r.Fix)
	if r.Digest != (model.Digest{}) {
		o.key("digest")
		dg := s.open(d+1, "{}")
		dg.str("file", r.Digest.File)
		dg.omitted("commands", r.Digest.Commands)
		dg.omitted("expected", r.Digest.Expected)
		dg.end()
	}
	// The members few results have.
	if len(r.Diagnostics) > 0 {
		o.value("diagnostics", convert(r.Diagnostics, toDiagnostic))
	}
	o.omitted("known_failure", r.KnownFailure)
	if r.DetailLeftOut {
		o.bool("detail_left_out", true)
	}
	if e := expectation(r.Listing); e != nil {
		o.value("expectation", e)
	}
	if as := attempts(r.Attempts); len(as) > 0 {
		o.value("attempts", as)
	}
	if r.Carried {
		o.bool("carried", true)
	}
	o.number("duration_ms", millis(r.Duration))
	o.end()
}

func (s *stream) span(d int, sp *model.Span) {
	if sp == nil {
		s.raw("null")
		return
	}
	o := s.open(d, "{}")
	o.int("line", sp.Line)
	o.int("column", sp.Column)
	o.int("end_line", sp.EndLine)
	o.int("end_column", sp.EndColumn)
	o.end()
}

// implementation writes an implementation's record: encoding/json writes
// its members but the results, which are streamed in their place, and the
// Level 2 and readback maps and the Level 3 images, written after them
// (the record's last members).
func (s *stream) implementation(d int, rec Implementation, results []model.Result) {
	level2, readbacks, images := rec.Level2, rec.Readbacks, rec.Images
	rec.Level2, rec.Readbacks, rec.Images, rec.Results = nil, nil, nil, []Result{}
	o := s.spliced(d, rec, "results")
	if o == nil {
		return
	}
	s.results(d+1, results)
	if len(level2) > 0 {
		o.key("level2")
		writeMap(s, d+1, level2)
	}
	if len(readbacks) > 0 {
		o.key("readbacks")
		writeMap(s, d+1, readbacks)
	}
	if len(images) > 0 {
		o.value("images", images)
	}
	o.end()
}

// comparison writes the comparison, its changes streamed.
func (s *stream) comparison(d int, c *Comparison, m *model.Comparison) {
	tail := c.Implementations
	c.Changes, c.Implementations = []Change{}, nil
	o := s.spliced(d, c, "changes")
	if o == nil {
		return
	}
	list := s.open(d+1, "[]")
	for i := range m.Changes {
		list.next()
		s.value(d+2, change(&m.Changes[i]))
	}
	list.end()
	if len(tail) > 0 {
		o.value("implementations", tail)
	}
	o.end()
}

// spliced writes the members of v, an object at depth d, up to the member
// named last, which it leaves open for its value: v must hold that member
// as an empty array and nothing after it. In the indented encoding the
// member starts a line at depth d+1, and no string can hold a line break,
// so the line found is the member's own.
func (s *stream) spliced(d int, v any, last string) *object {
	if s.err != nil {
		return nil
	}
	s.scratch.Reset()
	s.enc.SetIndent(indentation(d), "  ")
	if s.err = s.enc.Encode(v); s.err != nil {
		return nil
	}
	b := s.scratch.Bytes()
	member := ",\n" + indentation(d+1) + `"` + last + `": []` + "\n" + indentation(d) + "}\n"
	head, ok := bytes.CutSuffix(b, []byte(member))
	if !ok {
		s.err = fmt.Errorf("jsonout: %s is not the last member of its object", last)
		return nil
	}
	if bytes.Contains(head, []byte("#[")) {
		head = escape.LogJSON(head)
	}
	if _, s.err = s.w.Write(head); s.err != nil {
		return nil
	}
	o := &object{s: s, d: d, n: 1, close: "}"}
	o.key(last)
	return o
}

// writeMap writes a map as encoding/json does, its keys sorted, each
// value at its depth.
func writeMap[V any](s *stream, d int, m map[string]V) {
	o := s.open(d, "{}")
	for _, k := range slices.Sorted(maps.Keys(m)) {
		o.next()
		s.str(k)
		s.raw(": ")
		s.value(d+1, m[k])
	}
	o.end()
}
