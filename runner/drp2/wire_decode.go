package drp2

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
)

// decode fills w, which must be zero, from one command object. Commands
// whose members are plain numbers, strings and booleans, and objects and
// lists of them (every command of a long stream, in practice), are read
// directly, member by member, without encoding/json's reflection. A key that names no field is
// skipped, as json.Unmarshal skips it, once its value is known to be valid
// JSON. Any other value, a key with an escape, or a key that could name a
// field but for its case (json.Unmarshal matches keys without regard to
// case), hands the whole command to encoding/json, so that for any input
// json.Valid accepts (every fixture is checked so first) the result, and
// any error, is what json.Unmarshal gives.
func (w *wire) decode(raw []byte, in *interner) error {
	if w.decodeFast(raw, in) {
		return nil
	}
	*w = wire{}
	return json.Unmarshal(raw, w)
}

// decodeFast reports false when it cannot read raw as json.Unmarshal
// would; w is then partly filled. Its strings come from in (nil for none).
func (w *wire) decodeFast(raw []byte, in *interner) bool {
	return wireStruct.read(raw, unsafe.Pointer(w), in)
}

// structFields is how decodeFast reads one struct type of wire: its fields
// by their JSON names, from the same struct tags json.Unmarshal reads, so
// that the two always agree on which key fills which field, and those
// names in lower case.
type structFields struct {
	fields fieldTable
	folded fieldTable
}

func structOf(t reflect.Type) *structFields {
	fields := fieldsOf(t)
	folded := map[string]wireField{}
	for name := range fields {
		folded[strings.ToLower(name)] = wireField{}
	}
	return &structFields{fields: tableOf(fields), folded: tableOf(folded)}
}

// fieldTable finds a field by its JSON name without hashing the whole
// key: an open-addressed table indexed by the key's length and its first,
// middle and last bytes, at most a quarter full.
type fieldTable struct {
	slots []fieldSlot
	mask  int
}

type fieldSlot struct {
	name string
	used bool
	f    wireField
}

func tableOf(fields map[string]wireField) fieldTable {
	n := 16
	for n < 4*len(fields) {
		n *= 2
	}
	t := fieldTable{slots: make([]fieldSlot, n), mask: n - 1}
	for name, f := range fields {
		i := t.start(name)
		for t.slots[i].used {
			i = (i + 1) & t.mask
		}
		t.slots[i] = fieldSlot{name: name, used: true, f: f}
	}
	return t
}

func (t *fieldTable) start(key string) int {
	if key == "" {
		return 0
	}
	h := uint(len(key))*131 + uint(key[0])*31 + uint(key[len(key)/2])*7 + uint(key[len(key)-1])
	return int(h) & t.mask
}

func (t *fieldTable) lookup(key []byte) (wireField, bool) {
	for i := t.start(unsafe.String(unsafe.SliceData(key), len(key))); ; i = (i + 1) & t.mask {
		sl := &t.slots[i]
		if !sl.used {
			return wireField{}, false
		}
		if sl.name == string(key) {
			return sl.f, true
		}
	}
}

// read fills the struct at p, which must be zero, from the object raw.
// A key that names no field is skipped, as json.Unmarshal skips it, once
// its value is known to be valid JSON.
func (sf *structFields) read(raw []byte, p unsafe.Pointer, in *interner) bool {
	it, ok := jsonpos.Object(raw)
	if !ok {
		return false
	}
	for it.Next() {
		if it.Escaped() {
			return false
		}
		f, known := sf.fields.lookup(it.Key())
		if !known {
			if !sf.ignored(it.Key()) || !validValue(it.Value()) {
				return false
			}
			continue
		}
		if !f.read(it.Value(), unsafe.Add(p, f.offset), in) {
			return false
		}
	}
	return !it.Failed()
}

// validValue is json.Valid, answered without it for a plain integer (the
// counts and coordinates of draws and dispatches the checker has no field
// for).
func validValue(v []byte) bool {
	if _, ok := smallNumber(v); ok {
		return true
	}
	return json.Valid(v)
}

// ignored reports whether json.Unmarshal would fill no field of wire from
// key, which names none exactly: it is printable ASCII (encoding/json
// folds some other letters into ASCII ones, the Kelvin sign into k, and
// refuses control characters) and names none without regard to case
// either.
func (sf *structFields) ignored(key []byte) bool {
	var lower [64]byte
	if len(key) > len(lower) {
		// Longer than every field name, whatever its case.
		return !bytes.ContainsFunc(key, func(r rune) bool { return r >= utf8.RuneSelf || r < ' ' })
	}
	for i, c := range key {
		if c >= utf8.RuneSelf || c < ' ' {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	_, folds := sf.folded.lookup(lower[:len(key)])
	return !folds
}

// wireField is how decodeFast reads one field of wire: where it lies in
// the struct, and a reader for its Go type given a pointer to it.
type wireField struct {
	offset uintptr
	read   reader
}

// reader reads one JSON value into the Go value at field, taking strings
// from in.
type reader func(v []byte, field unsafe.Pointer, in *interner) bool

// wireStruct is how decodeFast reads wire.
var wireStruct = structOf(reflect.TypeFor[wire]())

// fieldsOf panics, when the package is loaded, on a field whose name it
// would not read as encoding/json does (no tag, "-", an option, an
// embedded struct): a skipped key must be one json.Unmarshal skips too.
func fieldsOf(t reflect.Type) map[string]wireField {
	fields := make(map[string]wireField, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || opts != "" || f.Anonymous || !f.IsExported() {
			panic("drp2: wire." + f.Name + " needs a plain json tag for decodeFast")
		}
		fields[name] = wireField{offset: f.Offset, read: readerFor(f.Type)}
	}
	return fields
}

// readerFor reads the plain shapes of the fields of a long stream
// directly, and hands any other to json.Unmarshal.
func readerFor(t reflect.Type) reader {
	if read := directReader(t); read != nil {
		return read
	}
	return func(v []byte, p unsafe.Pointer, _ *interner) bool {
		return json.Unmarshal(v, reflect.NewAt(t, p).Interface()) == nil
	}
}

// directReader reads the shapes of t it knows without encoding/json, or
// is nil: numbers, plain strings and booleans, objects of fields it reads,
// and lists and pointers of them. A repeated key whose first value left a
// list or pointer set (encoding/json would decode into what is there) is
// left to json.Unmarshal.
func directReader(t reflect.Type) reader {
	switch t {
	case reflect.TypeFor[json.Number]():
		return func(v []byte, p unsafe.Pointer, in *interner) bool { return numberField(v, (*json.Number)(p), in) }
	case reflect.TypeFor[string]():
		return func(v []byte, p unsafe.Pointer, in *interner) bool { return stringField(v, (*string)(p), in) }
	case reflect.TypeFor[*string]():
		return func(v []byte, p unsafe.Pointer, _ *interner) bool { return stringPtrField(v, (**string)(p)) }
	case reflect.TypeFor[[]string]():
		return func(v []byte, p unsafe.Pointer, in *interner) bool { return stringsField(v, (*[]string)(p), in) }
	case reflect.TypeFor[bool]():
		return func(v []byte, p unsafe.Pointer, _ *interner) bool { return boolField(v, (*bool)(p)) }
	case reflect.TypeFor[json.RawMessage]():
		return func(v []byte, p unsafe.Pointer, _ *interner) bool {
			*(*json.RawMessage)(p) = append(json.RawMessage(nil), v...)
			return true
		}
	}
	switch t.Kind() {
	case reflect.Struct:
		sf := structOf(t)
		return sf.read
	case reflect.Slice:
		if elem := directReader(t.Elem()); elem != nil {
			return sliceReader(t, elem)
		}
	case reflect.Pointer:
		if elem := directReader(t.Elem()); elem != nil {
			return pointerReader(t, elem)
		}
	}
	return nil
}

// boolField reads true, false, or null, which leaves the field as it is.
func boolField(v []byte, out *bool) bool {
	switch string(v) {
	case "true":
		*out = true
	case "false":
		*out = false
	case "null":
	default:
		return false
	}
	return true
}

// sliceReader reads an array, each element with elem into a new slice of
// type t, or null, which sets the slice to nil.
func sliceReader(t reflect.Type, elem reader) reader {
	size := t.Elem().Size()
	return func(v []byte, p unsafe.Pointer, in *interner) bool {
		field := reflect.NewAt(t, p).Elem()
		if string(v) == "null" {
			field.SetZero()
			return true
		}
		if !field.IsNil() {
			return false
		}
		var buf [8]json.RawMessage
		items, ok := jsonpos.AppendValues(buf[:0], v)
		if !ok {
			return false
		}
		list := reflect.MakeSlice(t, len(items), len(items))
		base := list.UnsafePointer()
		for i, item := range items {
			if !elem(item, unsafe.Add(base, uintptr(i)*size), in) {
				return false
			}
		}
		field.Set(list)
		return true
	}
}

// pointerReader reads the value a new pointer of type t points to with
// elem, or null, which sets the pointer to nil.
func pointerReader(t reflect.Type, elem reader) reader {
	return func(v []byte, p unsafe.Pointer, in *interner) bool {
		ptr := (*unsafe.Pointer)(p)
		if string(v) == "null" {
			*ptr = nil
			return true
		}
		if *ptr != nil {
			return false
		}
		target := reflect.New(t.Elem()).UnsafePointer()
		if !elem(v, target, in) {
			return false
		}
		*ptr = target
		return true
	}
}

// numberField reads a number token (null leaves the field empty, as
// json.Unmarshal does); anything else is left to json.Unmarshal.
func numberField(v []byte, out *json.Number, in *interner) bool {
	switch {
	case len(v) == 0:
		return false
	case v[0] == '-' || (v[0] >= '0' && v[0] <= '9'):
		if n, ok := smallNumber(v); ok {
			*out = smallNumbers[n]
			return true
		}
		*out = json.Number(v)
		return true
	}
	return string(v) == "null"
}

// smallNumbers are the spellings of 0 to 999, so that the offsets, sizes,
// counts and slots of a stream cost no allocation each.
var smallNumbers = func() (out [1000]json.Number) {
	for i := range out {
		out[i] = json.Number(strconv.Itoa(i))
	}
	return out
}()

// smallNumber reads v when it is the canonical spelling of a number below
// 1,000 (no sign, no leading zero).
func smallNumber(v []byte) (int, bool) {
	if len(v) > 3 || (len(v) > 1 && v[0] == '0') {
		return 0, false
	}
	n, ok := plainUint(string(v))
	return int(n), ok
}

// plainString returns the content of a string token without escapes in
// valid UTF-8, from in.
func plainString(v []byte, in *interner) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return in.of(v[1 : len(v)-1]), true
}

func stringField(v []byte, out *string, in *interner) bool {
	if string(v) == "null" {
		return true
	}
	s, ok := plainString(v, in)
	*out = s
	return ok
}

// stringPtrField reads a plain string, or null, which sets the field to
// nil as json.Unmarshal does (a repeated key's null undoes the first).
func stringPtrField(v []byte, out **string) bool {
	if string(v) == "null" {
		*out = nil
		return true
	}
	s, ok := plainString(v, nil)
	*out = &s
	return ok
}

// stringsField reads an array of plain strings, or null.
func stringsField(v []byte, out *[]string, in *interner) bool {
	if string(v) == "null" {
		*out = nil
		return true
	}
	var buf [8]json.RawMessage
	items, ok := jsonpos.AppendValues(buf[:0], v)
	if !ok {
		return false
	}
	list := make([]string, len(items))
	for i, item := range items {
		if list[i], ok = plainString(item, in); !ok {
			return false
		}
	}
	*out = list
	return true
}

// interner hands out one string for each short text a decoding goroutine
// reads again and again: a stream names a few dozen commands and values,
// and numbers its objects in a few places each, a million times over. It
// forgets everything once full, which keeps what is recent, and costs a
// stream of texts that never repeat a lookup each. A nil interner makes a
// string every time.
type interner struct {
	m map[string]string
}

const (
	internedMax    = 4096
	internedMaxLen = 32
	// internFrom is the fewest commands a stream decoded on one goroutine
	// has for its strings to be interned; a shorter one repeats too little
	// to pay for the map.
	internFrom = 1024
)

func newInterner() *interner { return &interner{m: make(map[string]string, 64)} }

func (in *interner) of(b []byte) string {
	if in == nil || len(b) > internedMaxLen {
		return string(b)
	}
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	if len(in.m) >= internedMax {
		clear(in.m)
	}
	s := string(b)
	in.m[s] = s
	return s
}
