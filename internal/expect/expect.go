// Package expect reads expectations lists and applies them to a run, so
// that an implementer gates on what is new: per implementation (and per
// device), a fixture is expected to fail, may pass or fail (flaky), or is
// not sent at all (skip). The built-in validator is the implementation
// named model.Validator, and the known-failures list (ParseKnownFailures)
// is a list of its expected failures: one mechanism for both.
//
// An expectations file holds one entry a line, '#' starting a comment:
//
//	# IMPLEMENTATION  PATH                     EXPECTATION  [# reason]
//	my-runtime        negative/bad_index.json  fail         # bug 12
//	my-runtime@*swiftshader*  positive/draw/   flaky
//	*                 positive/huge.json       skip         # too slow for CI
//
// IMPLEMENTATION is the name an implementation gives in its hello, or "*"
// for every one; NAME@GLOB narrows the entry to the devices whose adapter
// description (model.GPUAdapter.Description) GLOB matches, case-insensitively,
// '*' matching any text. PATH is corpus-relative; ending in '/', it covers
// a folder. A malformed line is a finding naming the file and the line,
// and the rest of the list still applies.
package expect

import (
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
)

// Entry is one line of an expectations list.
type Entry struct {
	// Implementation is the name it covers, or "*" for every one.
	Implementation string
	// Device is the glob over the adapter description; "" for any device.
	Device string
	// Path is a corpus-relative fixture path, or a folder ending in "/".
	Path   string
	Expect model.Expectation
	Reason string
	// File and Line place the entry (1-based line).
	File string
	Line int
	// Known marks an entry of a known-failures list (its own findings).
	Known bool
}

// Where names the entry as file:line.
func (e *Entry) Where() string { return e.File + ":" + strconv.Itoa(e.Line) }

// List is the expectations of a run, from every file given, in order.
type List struct {
	Entries []Entry
	// Problems are the malformed lines, as findings of the run.
	Problems []model.Finding
}

// Add appends the entries and problems of o.
func (l *List) Add(o *List) {
	if o == nil {
		return
	}
	l.Entries = append(l.Entries, o.Entries...)
	l.Problems = append(l.Problems, o.Problems...)
}

// FindingMalformed is the finding of a line that is not an entry.
const FindingMalformed model.FindingKind = "expectation_malformed"

// FindingUnused is the finding of an entry that names no fixture of the
// corpus.
const FindingUnused model.FindingKind = "expectation_unused"

// Parse reads an expectations file; name is its path, for messages. A
// malformed line is a problem (a finding), never an error: the run goes
// on with the entries that are well formed. An error means the file could
// not be read.
func Parse(r io.Reader, name string) (*List, error) {
	l := &List{}
	seen := map[string]int{}
	err := eachLine(r, name, func(n int, text string) error {
		e, problem := parseLine(text)
		switch {
		case problem != "":
			l.Problems = append(l.Problems, model.Finding{Kind: FindingMalformed, Path: name,
				Message: fmt.Sprintf("%s:%d: %s; the line is left out", name, n, problem)})
			return nil
		case e == nil:
			return nil
		}
		e.File, e.Line = name, n
		key := e.Implementation + "@" + e.Device + " " + e.Path
		if first, dup := seen[key]; dup {
			l.Problems = append(l.Problems, model.Finding{Kind: FindingMalformed, Path: name,
				Message: fmt.Sprintf("%s:%d: %s is already listed for %s on line %d; the line is left out", name, n, e.Path, e.Implementation, first)})
			return nil
		}
		seen[key] = n
		l.Entries = append(l.Entries, *e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// parseLine reads one line: an entry, nil for a blank or comment line, or
// what is wrong with it.
func parseLine(text string) (*Entry, string) {
	if !utf8.ValidString(text) {
		return nil, "not valid UTF-8"
	}
	body, reason, _ := strings.Cut(text, "#")
	fields := strings.Fields(body)
	if len(fields) == 0 {
		return nil, ""
	}
	if len(fields) != 3 {
		return nil, fmt.Sprintf("%d fields, want IMPLEMENTATION PATH EXPECTATION [# reason]", len(fields))
	}
	e := &Entry{Implementation: fields[0], Path: cleanPath(fields[1]), Reason: strings.TrimSpace(reason)}
	if name, device, ok := strings.Cut(fields[0], "@"); ok {
		if name == "" || device == "" {
			return nil, fmt.Sprintf("%q: want NAME@DEVICE-GLOB, both non-empty", fields[0])
		}
		e.Implementation, e.Device = name, device
	}
	exp, ok := model.ParseExpectation(fields[2])
	if !ok {
		return nil, fmt.Sprintf("expectation %q is not fail, flaky or skip", fields[2])
	}
	e.Expect = exp
	if e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.HasPrefix(e.Path, "../") {
		return nil, fmt.Sprintf("path %q is not relative to the corpus root", fields[1])
	}
	return e, ""
}

// cleanPath is an entry's path as the reports print it: slash separated,
// without "./", a folder keeping its trailing slash.
func cleanPath(p string) string {
	folder := strings.HasSuffix(p, "/") || strings.HasSuffix(p, "\\")
	p = path.Clean(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"))
	if p == "." {
		return ""
	}
	if folder {
		p += "/"
	}
	return p
}

// covers says whether the entry's path covers the fixture rel (a
// corpus-relative path) or, for a known-failures entry, its display path.
func (e *Entry) covers(r *model.Result) bool {
	if strings.HasSuffix(e.Path, "/") {
		return strings.HasPrefix(r.RelPath, e.Path)
	}
	if e.Known {
		return Clean(r.RelPath) == e.Path || Clean(r.Path) == e.Path
	}
	return r.RelPath == e.Path
}

// applies says whether the entry is for the implementation name on the
// device described by desc.
func (e *Entry) applies(name, desc string) bool {
	if e.Implementation != "*" && e.Implementation != name {
		return false
	}
	return e.Device == "" || Glob(e.Device, desc)
}

// Match is the entry that decides the expectation of the fixture of r for
// implementation name on device desc, or nil: of the entries that cover
// it, the most specific (a file over a folder, a longer folder over a
// shorter, a name over "*", a device over any device), then the first
// listed.
func (l *List) Match(name, desc string, r *model.Result) *Entry {
	if l == nil {
		return nil
	}
	var best *Entry
	for i := range l.Entries {
		e := &l.Entries[i]
		if !e.covers(r) || !e.applies(name, desc) {
			continue
		}
		if best == nil || specificity(e) > specificity(best) {
			best = e
		}
	}
	return best
}

func specificity(e *Entry) int {
	s := len(e.Path) * 4
	if !strings.HasSuffix(e.Path, "/") {
		s += 1 << 20
	}
	if e.Implementation != "*" {
		s += 2
	}
	if e.Device != "" {
		s++
	}
	return s
}

// Glob matches text against pattern, '*' matching any text (none
// included), case-insensitively; anything else matches itself.
func Glob(pattern, text string) bool {
	p, t := []rune(strings.ToLower(pattern)), []rune(strings.ToLower(text))
	// The classic two-pointer wildcard match: linear in practice, no
	// backtracking blow-up on hostile patterns.
	pi, ti, star, mark := 0, 0, -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case pi < len(p) && p[pi] == t[ti]:
			pi++
			ti++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// Writable says whether an implementation's name can be written as an
// entry's first field: a name with white space, '#', '@' or a control
// character would be read back as another entry.
func Writable(name string) bool {
	if name == "" || name == "*" {
		return false
	}
	for _, c := range name {
		if unicode.IsSpace(c) || unicode.IsControl(c) || c == '#' || c == '@' || c == utf8.RuneError {
			return false
		}
	}
	return true
}
