package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/jsoncompact"
	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// DefaultMaxFileSize bounds the size of one fixture file, so that a stray
// huge file costs a clear error instead of the machine's memory.
const DefaultMaxFileSize = 32 << 20

// corpusError is a fixture that cannot be used: the file and the place.
type corpusError struct {
	msg    string
	offset int // byte offset of the problem, or -1
	span   *model.Span
}

func (e *corpusError) Error() string { return e.msg }

// fixture is a fixture file decoded far enough to run it.
type fixture struct {
	data []byte
	doc  map[string]any
	// commands are the commands as written: slices of data, so that the
	// command-schema phase and the Checker share one index of the stream.
	commands []json.RawMessage
	// members are the top-level members and the byte ranges of their
	// values, in the file's order (a fixture has a handful).
	members []jsonpos.Member
	// envelopeIndex maps the commands the envelope phase saw to their
	// indexes in the stream, when it saw a summary (see envelopeView).
	envelopeIndex []int
	// tight is set when no command holds white space between its tokens
	// (jsonpos.Checked.Tight): the commands member without white space is
	// then the commands joined, which is how its sum is made.
	tight bool
}

// readFixture reads one file into mem, refusing anything that is not a
// regular file or is larger than limit.
func readFixture(fsys fs.FS, rel string, limit int64, mem *fixtureMemory) ([]byte, *corpusError) {
	if !utf8.ValidString(rel) {
		return nil, &corpusError{msg: "the file name is not valid UTF-8: rename it", offset: -1}
	}
	if why := misnamed(rel); why != "" {
		return nil, &corpusError{msg: why, offset: -1}
	}
	f, err := fsys.Open(rel)
	if err != nil {
		return nil, &corpusError{msg: fmt.Sprintf("cannot open: %v", unwrapPath(err)), offset: -1}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &corpusError{msg: fmt.Sprintf("cannot stat: %v", unwrapPath(err)), offset: -1}
	}
	if !st.Mode().IsRegular() {
		return nil, &corpusError{msg: fmt.Sprintf("not a regular file (%s)", st.Mode().Type()), offset: -1}
	}
	if st.Size() > limit {
		return nil, &corpusError{msg: fmt.Sprintf("file is %d bytes, over the %d-byte limit for one fixture (raise it with --max-fixture-size)", st.Size(), limit), offset: -1}
	}
	// One buffer of the file's size plus one byte: reading into a growing
	// buffer would hold up to twice the file at once, and the extra byte
	// tells a file that grew since Stat from one that did not. Reading
	// stops at limit+1 bytes whatever happens to the file meanwhile.
	data := mem.fileBuffer(st.Size() + 1)
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew while read: let append pick the size
		}
		want := min(int64(cap(data)), limit+1) - int64(len(data))
		n, err := f.Read(data[len(data) : int64(len(data))+want])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &corpusError{msg: fmt.Sprintf("cannot read: %v", unwrapPath(err)), offset: -1}
		}
		// A short read that completes the size Stat gave is the end of the
		// file: one that grew since would have filled the extra byte. It
		// spares the read that would only say EOF, one per fixture.
		if int64(n) < want && int64(len(data)) == st.Size() {
			break
		}
	}
	if int64(len(data)) > limit {
		return nil, &corpusError{msg: fmt.Sprintf("file is over the %d-byte limit for one fixture (raise it with --max-fixture-size)", limit), offset: -1}
	}
	return data, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// decodeFixture checks that data is one JSON object in UTF-8 without
// duplicate keys, and decodes the envelope, keeping numbers exact.
//
// Command bodies are not decoded here: the envelope phase sees each command
// as an object holding only its cmd (all the envelope may say of commands,
// FORMAT.md), and the command-schema phase decodes one command at a time.
// A stream of a million commands thus never exists as a million decoded
// trees at once.
func decodeFixture(data []byte, mem *fixtureMemory) (*fixture, *corpusError) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &corpusError{msg: "the file is empty: a fixture is one JSON object", offset: 0}
	}
	if schema.IsLFSPointer(data) {
		return nil, &corpusError{msg: "the file is a Git LFS pointer, not the fixture: " + schema.LFSFetch, offset: 0}
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, &corpusError{msg: "the file starts with a UTF-8 byte-order mark, which JSON text must not have: save it without BOM", offset: 0}
	}
	// One pass checks the encoding and the syntax of the whole file, and
	// finds duplicate keys, the top-level members and where each command
	// lies; the standard library's checks run only to explain a failure.
	offsets := mem.elementOffsets(data)
	if offsets == nil {
		elements := elementBuffers.Get().(*[]uint32)
		defer func() { putElements(elements, offsets) }()
		offsets = *elements
	}
	c := jsonpos.Check(data, "commands", offsets)
	offsets = c.Elements // what Check grew goes back to the pool
	if !c.Valid {
		if !utf8.Valid(data) {
			off := firstInvalidUTF8(data)
			return nil, &corpusError{msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", data[off]), offset: off}
		}
		if !json.Valid(data) {
			var v any
			return nil, syntaxError(data, json.Unmarshal(data, &v))
		}
		// Not reached while Check is right (FuzzCheck): if it is not, the
		// scan decides, and ValuesN indexes the commands.
		c = jsonpos.Checked{Valid: true}
		c.Object, c.Key, c.Offset, c.Found, c.Outline = jsonpos.Scan(data)
	}
	if ch := data[firstNonSpace(data)]; ch != '{' {
		return nil, &corpusError{msg: fmt.Sprintf("the top-level value is %s; a fixture is a JSON object", kindOf(ch)), offset: firstNonSpace(data)}
	}
	if c.Found {
		where := "the top-level object"
		if c.Object != "" {
			where = c.Object
		}
		return nil, &corpusError{msg: fmt.Sprintf("duplicate key %q in %s: JSON readers disagree on which value wins", c.Key, where), offset: c.Offset}
	}
	outline := c.Outline
	members := outline.Members
	doc := make(map[string]any, len(members))
	fx := &fixture{data: data, doc: doc, members: members}
	for i, m := range members {
		raw := data[m.Start:m.End]
		if m.Key != "commands" || raw[0] != '[' {
			if len(raw) > 2*maxEnvelopeValues && jsonpos.CountValues(raw, maxEnvelopeValues) > maxEnvelopeValues {
				return nil, &corpusError{msg: fmt.Sprintf("fixture envelope: %q holds more than %d JSON values, beyond the runner's work budget for the envelope", m.Key, maxEnvelopeValues), offset: m.Start}
			}
			v, bad := jsonpos.Decode(raw, numberLimits)
			if bad != nil {
				return nil, &corpusError{msg: "fixture envelope: " + outOfRange("/"+jsonpos.EscapeToken(m.Key)+bad.Pointer, bad.Number), offset: m.Start + bad.Offset}
			}
			doc[m.Key] = v
			continue
		}
		commands, fromCheck, ok := indexCommands(data, m, outline.Lengths[i], c.Elements, mem)
		if !ok {
			return nil, &corpusError{msg: "the commands array could not be located in the file", offset: m.Start}
		}
		doc["commands"], fx.envelopeIndex = envelopeView(commands)
		fx.commands, fx.tight = commands, fromCheck && c.Tight
	}
	return fx, nil
}

// member is the value of the top-level member key, as written.
func (f *fixture) member(key string) ([]byte, bool) {
	for _, m := range f.members {
		if m.Key == key {
			return f.data[m.Start:m.End], true
		}
	}
	return nil, false
}

// indexCommands returns the n commands of the member m, an array, as
// slices of data in an index from mem: from the offsets Check found
// (fromCheck), or, should they not be its n elements, through ValuesN.
func indexCommands(data []byte, m jsonpos.Member, n int, elements []uint32, mem *fixtureMemory) (commands []json.RawMessage, fromCheck, ok bool) {
	alloc := func(n int) []json.RawMessage { return mem.commandIndex(data, n) }
	if len(elements) != 2*n || (n > 0 && (int(elements[0]) < m.Start || int(elements[2*n-1]) > m.End)) {
		commands, ok = jsonpos.ValuesN(data[m.Start:m.End], n, alloc)
		return commands, false, ok
	}
	commands = alloc(n)
	for k := 0; k < n; k++ {
		start, end := elements[2*k], elements[2*k+1]
		commands = append(commands, data[start:end:end])
	}
	return commands, true, true
}

// elementBuffers hold the offsets of a fixture's commands between the
// pass that finds them and the index made from them.
var elementBuffers = sync.Pool{New: func() any { return new([]uint32) }}

// putElements keeps b, which grew to grown, for the next fixture unless a
// long stream grew it.
func putElements(b *[]uint32, grown []uint32) {
	if cap(grown) <= 1<<16 {
		*b = grown[:0]
		elementBuffers.Put(b)
	}
}

// digest sums the file as written, and its commands and expected members
// without the white space between tokens: re-indenting a fixture changes
// neither its stream nor its expectation. A file that failed to decode has
// only its file sum.
func digest(data []byte, fx *fixture) model.Digest {
	if data == nil {
		return model.Digest{}
	}
	d := memberSums(data, fx)
	d.File = sum(data)
	return d
}

// memberSums is the digest of the members of a decoded fixture (none when
// fx is nil).
func memberSums(data []byte, fx *fixture) model.Digest {
	var d model.Digest
	if fx != nil {
		if raw, ok := fx.member("commands"); ok {
			if fx.tight {
				d.Commands = joinedSum(fx.commands)
			} else {
				d.Commands = compactSum(raw)
			}
		}
		if raw, ok := fx.member("expected"); ok {
			d.Expected = compactSum(raw)
		}
	}
	return d
}

// asideBytes is the size from which a fixture's digest is summed on
// another goroutine: the file's sum beside its decoding, the members' beside
// the phases. On a long stream the sums are about a tenth of the run, which
// the second core can take.
var asideBytes = 1 << 20

// digester sums the digest of one fixture: in line for a small one, for a
// large one on another goroutine from start on. wait waits for it; it must
// run before the fixture's bytes are freed, and does after a panic too. A
// panic of the sums is raised again in wait, on the fixture's goroutine,
// where it costs one fixture as any other.
type digester struct {
	data    []byte
	out     *model.Digest
	fixture chan *fixture // nil when summing in line
	done    chan any
	told    bool
}

// start begins with the file's sum, once data is read (nil if it was not).
func (d *digester) start(data []byte, out *model.Digest) {
	d.data, d.out = data, out
	if len(data) < asideBytes {
		return
	}
	d.fixture, d.done = make(chan *fixture, 1), make(chan any, 1)
	go func() {
		defer func() { d.done <- recover() }()
		file := sum(data)
		members := memberSums(data, <-d.fixture)
		members.File = file
		*out = members
	}()
}

// decoded gives the decoded fixture (nil if it was not) for its members'
// sums.
func (d *digester) decoded(fx *fixture) {
	if d.fixture == nil {
		*d.out = digest(d.data, fx)
		return
	}
	d.fixture <- fx
	d.told = true
}

func (d *digester) wait() {
	if d.fixture == nil {
		return
	}
	if !d.told {
		d.fixture <- nil // decoding panicked: the file's sum alone
		d.told = true
	}
	if p := <-d.done; p != nil {
		panic(p)
	}
}

// compactBuffers hold compacted text on its way to the hash: made once per
// worker rather than cleared for every sum.
var compactBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// compactSum is the SHA-256 of valid JSON with the white space between
// tokens left out, computed in one pass with a small buffer (a stream's
// commands can be most of a large file).
func compactSum(b []byte) string {
	h := newPieceHash()
	for run := range jsoncompact.Compact(b) {
		h.add(run)
	}
	return h.sum()
}

// joinedSum is compactSum of an array whose elements hold no white space
// between their tokens: the sum of the elements joined by commas in
// brackets, made without reading their tokens again.
func joinedSum(elements []json.RawMessage) string {
	h := newPieceHash()
	h.add(openBracket)
	for i, e := range elements {
		if i > 0 {
			h.add(comma)
		}
		h.add(e)
	}
	h.add(closeBracket)
	return h.sum()
}

var openBracket, comma, closeBracket = []byte("["), []byte(","), []byte("]")

// pieceHash sums text given in pieces, most of them small, through a
// buffer kept between sums: a Write per 32 KiB rather than per piece.
type pieceHash struct {
	h   hash.Hash
	buf *[]byte
	out []byte
}

func newPieceHash() pieceHash {
	buf := compactBuffers.Get().(*[]byte)
	return pieceHash{h: sha256.New(), buf: buf, out: (*buf)[:0]}
}

func (p *pieceHash) add(piece []byte) {
	if len(p.out)+len(piece) > cap(p.out) {
		p.h.Write(p.out)
		p.out = p.out[:0]
	}
	if len(piece) > cap(p.out) {
		p.h.Write(piece)
		return
	}
	p.out = append(p.out, piece...)
}

// sum is the hex digest of the pieces; p is not used after.
func (p *pieceHash) sum() string {
	p.h.Write(p.out)
	compactBuffers.Put(p.buf)
	return hex.EncodeToString(p.h.Sum(nil))
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// envelopeCommands is how many commands of a stream the envelope phase
// sees one by one; past it, it sees one stand-in of each kind.
//
// The schema library keeps a map entry per array element for each schema
// that applies to the array: a stream of a million commands cost some 40 MB
// there, on top of the stand-ins, to check what the envelope may say about
// commands at all (FORMAT.md: an array of command objects, a positive one
// opening with the handshake). Those are rules about each element's kind
// and about the first elements, which the summary keeps: every element up
// to envelopeCommands as it is, and after it one stand-in per distinct
// stand-in, in stream order. A fixture schema that bounded the number of
// commands beyond envelopeCommands would not be judged on that bound.
const envelopeCommands = 4096

// envelopeView returns what the envelope phase sees of the commands, and,
// when that is a summary, the stream index of each element it holds.
func envelopeView(commands []json.RawMessage) ([]any, []int) {
	n := min(len(commands), envelopeCommands)
	view := make([]any, n)
	for i := range n {
		view[i] = standIn(commands[i])
	}
	if len(commands) <= envelopeCommands {
		return view, nil
	}
	index := make([]int, n)
	for i := range index {
		index[i] = i
	}
	seen := map[string]bool{}
	var key []byte
	for i := n; i < len(commands); i++ {
		var ok bool
		if key, ok = standInKey(key[:0], commands[i]); ok {
			// Indexing with the converted bytes makes no string; only a
			// new key is kept as one.
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
		}
		view = append(view, standIn(commands[i]))
		index = append(index, i)
	}
	return view, index
}

// standInKey appends to buf the name of the stand-in of a command, when
// it can be named cheaply: the cmd token of an object whose cmd is a plain
// string, or the whole of a short value, each after a byte of its own.
// Two commands with one key have equal stand-ins.
func standInKey(buf, raw []byte) ([]byte, bool) {
	if len(raw) > 0 && raw[0] == '{' {
		if start, end, ok := jsonpos.MemberValue(raw, "cmd"); ok {
			v := raw[start:end]
			if len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 {
				return append(append(buf, 'c'), v...), true
			}
		} else {
			return append(buf, 'n'), true
		}
	}
	if len(raw) <= 256 {
		return append(append(buf, 'r'), raw...), true
	}
	return buf, false
}

// envelopePointer turns a pointer into what the envelope phase saw into a
// pointer into the file.
func (f *fixture) envelopePointer(pointer string) string {
	rest, ok := strings.CutPrefix(pointer, "/commands/")
	if !ok || f.envelopeIndex == nil {
		return pointer
	}
	tok, tail, _ := strings.Cut(rest, "/")
	k, err := strconv.Atoi(tok)
	if err != nil || k < 0 || k >= len(f.envelopeIndex) {
		return pointer
	}
	if tail != "" {
		tail = "/" + tail
	}
	return "/commands/" + strconv.Itoa(f.envelopeIndex[k]) + tail
}

// standIn is what the envelope phase sees of one command: an object with
// only its cmd, or the value itself when it is not an object.
func standIn(raw []byte) any {
	if len(raw) == 0 || raw[0] != '{' {
		return kindOnly(raw)
	}
	start, end, ok := jsonpos.MemberValue(raw, "cmd")
	if !ok {
		return map[string]any{}
	}
	v := raw[start:end]
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return map[string]any{"cmd": kindOnly(v)}
	}
	return standIns.of(v)
}

// standIns are the stand-ins of commands whose cmd is a plain string,
// shared by every fixture of the process: the validator only reads them,
// and a corpus names few commands, so a run costs one map per name rather
// than one per name and fixture. Past maxSharedStandIns names (a hostile
// corpus may name millions), a stand-in is made for its command alone.
var standIns = sharedStandIns{byToken: map[string]map[string]any{}}

const maxSharedStandIns = 1024

type sharedStandIns struct {
	sync.RWMutex
	byToken map[string]map[string]any // by the cmd token, quotes included
}

func (c *sharedStandIns) of(token []byte) map[string]any {
	c.RLock()
	obj, ok := c.byToken[string(token)]
	c.RUnlock()
	if ok {
		return obj
	}
	obj = map[string]any{"cmd": string(token[1 : len(token)-1])}
	c.Lock()
	defer c.Unlock()
	if shared, ok := c.byToken[string(token)]; ok {
		return shared
	}
	if len(c.byToken) < maxSharedStandIns {
		c.byToken[string(token)] = obj
	}
	return obj
}

// kindOnly decodes a value for the envelope phase, which may judge its kind
// but not its size: a number out of range stands in as 0, and the command
// schema phase reports it against its command.
func kindOnly(raw []byte) any {
	v, bad := jsonpos.Decode(raw, numberLimits)
	if bad != nil {
		return json.Number("0")
	}
	return v
}

// maxEnvelopeValues bounds the JSON values of one envelope member (the
// name, the expected block, the capabilities...) that is decoded and given
// to the schema library, as maxCommandValues does for a command.
const maxEnvelopeValues = 1 << 18

// numberLimits bound every number before it reaches the schema library,
// which computes with numbers exactly and so pays for a huge exponent or a
// long mantissa in time, or panics past an exponent of about a million.
// DRP2's numeric fields are ids, counts, sizes and offsets, and viewport,
// depth and level-of-detail values (COMMANDS.md); JSON readers agree on
// numbers only within the IEEE 754 double range (RFC 8259, section 6),
// whose largest value is about 1.8e308 and which carries 17 significant
// digits. Past either bound a command's number reaches the schema library
// as a stand-in of the same sign, kind and bounds (jsonpos.StandIn), so it
// is still judged by its value; the envelope's numbers are refused past
// them: the envelope is the fixture's own contract, which readers that
// disagree on it would not share.
var numberLimits = jsonpos.Limits{MaxDigits: 100, MaxExponent: 308}

// outOfRange is the verdict on a number beyond numberLimits.
func outOfRange(pointer, number string) string {
	return fmt.Sprintf("%s: the number %s is out of range: no DRP2 field holds a number of magnitude outside 1e-%d to 1e%d, or with more than %d digits",
		pointer, number, numberLimits.MaxExponent, numberLimits.MaxExponent, numberLimits.MaxDigits)
}

// kindOf names the kind of JSON value that starts with c.
func kindOf(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func syntaxError(data []byte, err error) *corpusError {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := int(se.Offset)
		if off > 0 {
			off-- // Offset counts the bytes read, including the bad one.
		}
		if se.Error() == "unexpected end of JSON input" {
			return &corpusError{msg: "malformed JSON: the file ends in the middle of a value (truncated?)", offset: len(data)}
		}
		if msg := se.Error(); strings.HasSuffix(msg, "after object key:value pair") || strings.HasSuffix(msg, "after array element") {
			// A missing comma: the decoder stops at the next member, but
			// the fix is at the end of the value before it, usually the
			// end of the previous line.
			end := off
			for end > 0 && strings.IndexByte(" \t\r\n", data[end-1]) >= 0 {
				end--
			}
			return &corpusError{msg: "malformed JSON: a comma is missing here, after the value that ends this line (" + msg + ")", offset: end}
		}
		return &corpusError{msg: "malformed JSON: " + se.Error(), offset: off}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &corpusError{msg: "malformed JSON: the file ends in the middle of a value (truncated?)", offset: len(data)}
	default:
		return &corpusError{msg: "malformed JSON: " + err.Error(), offset: -1}
	}
}

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return 0
}

func firstNonSpace(data []byte) int {
	return len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
}

// expected reads the expected block, keeping the fixture's own values.
// The envelope schema has already checked its shape.
func (f *fixture) expected() model.Expected {
	m, _ := f.doc["expected"].(map[string]any)
	e := model.Expected{}
	e.Outcome, _ = m["outcome"].(string)
	e.Phase, _ = m["phase"].(string)
	e.Code, _ = m["code"].(string)
	if n, ok := m["command_index"].(json.Number); ok {
		idx, asDecimal := indexOf(n)
		e.CommandIndex, e.BigCommandIndex = &idx, asDecimal
	}
	return e
}

// indexOf reads a command index by its value, as JSON means a number: 2,
// 2.0 and 2e0 are index 2. An index too large for an int can match no
// command: it becomes the largest int rather than disappearing, and
// asDecimal keeps its value for the reports. (The envelope schema has
// refused negative and fractional ones, and numberLimits bounds the
// exponent, so the exact reading is cheap.)
func indexOf(n json.Number) (idx int, asDecimal string) {
	r, ok := new(big.Rat).SetString(string(n))
	switch {
	case !ok || !r.IsInt() || r.Sign() < 0:
		return maxInt, string(n) // not an index; the schema normally says so first
	case !r.Num().IsInt64() || r.Num().Int64() > int64(maxInt):
		return maxInt, r.Num().String()
	}
	return int(r.Num().Int64()), ""
}

const maxInt = int(^uint(0) >> 1)

func (f *fixture) str(key string) string {
	s, _ := f.doc[key].(string)
	return s
}

func (f *fixture) tags() []string {
	list, _ := f.doc["tags"].([]any)
	var out []string
	for _, t := range list {
		if s, ok := t.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// classify applies RUNNER.md, Fixture Classes: by outcome and phase only.
func classify(e model.Expected) model.Class {
	switch {
	case e.Outcome == string(model.Success):
		return model.ClassPositive
	case e.Outcome == string(model.Error) && e.Phase == string(model.PhaseSchema):
		return model.ClassSchemaNegative
	case e.Outcome == string(model.Error):
		return model.ClassNegative
	}
	return model.ClassUnknown
}

// spanAt locates a byte offset, or returns nil for an unknown offset.
func spanAt(data []byte, off int) *model.Span {
	if off < 0 {
		return nil
	}
	line, col := jsonpos.LineColumn(data, off)
	return &model.Span{Line: line, Column: col, EndLine: line, EndColumn: col}
}

// spanOf locates the value at pointer, or returns nil.
func spanOf(data []byte, pointer string) *model.Span {
	start, end, ok := jsonpos.Find(data, pointer)
	if !ok {
		return nil
	}
	s := model.Span(jsonpos.Span(data, start, end))
	return &s
}
