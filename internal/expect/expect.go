// Package expect reads expectations lists and applies them to a run, so
// that an implementer gates on what is new: per implementation (and per
// device), a fixture is expected to fail, may pass or fail (flaky), or is
// not sent at all (skip). The built-in validator is the implementation
// named model.Validator, and the known-failures list (ParseKnownFailures)
// is a list of its expected failures: one mechanism for both.
//
// An expectations file holds one entry a line, '#' starting a comment:
//
//	# IMPLEMENTATION  PATH                     EXPECTATION  [KEY=VALUE...] [# reason]
//	my-runtime        negative/bad_index.json  fail         # bug 12
//	my-runtime@*swiftshader*  positive/draw/   flaky
//	*                 positive/huge.json       skip         # too slow for CI
//	"webgpu.js on node"  negative/x.json       fail
//	my-runtime@*nvidia*  negative/y.json  fail  platform=*windows* version=2.* owner=ana expires=2027-03-31 # bug 13
//
// IMPLEMENTATION is the name an implementation gives in its hello, or "*"
// for every one; NAME@GLOB narrows the entry to the devices whose adapter
// description (model.GPUAdapter.Description) GLOB matches, case-insensitively,
// '*' matching any text. A double-quoted part of a field is a Go string
// literal, so that a name with spaces, '#' or '@' can be written. PATH is
// corpus-relative, or under the corpus's folder as the reports print it
// (ParseUnder); ending in '/', it covers a folder. After the expectation,
// KEY=VALUE fields (Conditions) may narrow the entry to a platform
// (platform=GLOB, over the adapter's platform) and an implementation
// version (version=GLOB), and say who owns it (owner=) and until when it
// is meant to be needed (expires=YYYY-MM-DD, reported as a finding once
// passed); a list written without them reads as before. A malformed line
// is a finding naming the file and the line, and the rest of the list
// still applies.
//
// A list is kept from evidence two ways: Update, after one run, removes
// the entries that run saw pass and adds its new failures, narrowed to the
// device the implementation named; Roll, from the reports of many runs,
// devices and days, narrows each entry to the devices that failed, writes
// flaky only where one fixture both failed and passed at one body and
// version, retires an entry after RetireAfter passes in a row on every
// device it decides, and leaves the lines between "# KEEP" and
// "# KEEP END" alone.
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
	// Conditions are the entry's key=value fields: it applies only where
	// they hold, and says who owns it and until when.
	Conditions
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
	return ParseUnder(r, name, "")
}

// ParseUnder is Parse for a run whose reports print the fixtures' paths
// under corpus (its path from the working directory, slash separated): an
// entry's path under it is taken relative to the corpus.
func ParseUnder(r io.Reader, name, corpus string) (*List, error) {
	l := &List{}
	seen := map[string]int{}
	corpus = cleanPath(corpus)
	err := eachLine(r, name, func(n int, text string) error {
		e, problem := parseLine(text, corpus)
		switch {
		case problem != "":
			l.Problems = append(l.Problems, model.Finding{Kind: FindingMalformed, Path: name,
				Message: fmt.Sprintf("%s:%d: %s; the line is left out", name, n, problem)})
			return nil
		case e == nil:
			return nil
		}
		e.File, e.Line = name, n
		key := e.Implementation + "@" + e.Device + " " + e.Path + " " + e.Platform + "\x00" + e.Version
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
// what is wrong with it. corpus is the corpus's path as the reports print
// it ("" when they print corpus-relative paths): a path under it is taken
// relative to the corpus, so that a path copied from a report names its
// fixture.
func parseLine(text, corpus string) (*Entry, string) {
	if !utf8.ValidString(text) {
		return nil, "not valid UTF-8"
	}
	fields, reason, problem := splitFields(text)
	switch {
	case problem != "":
		return nil, problem
	case len(fields) == 0:
		return nil, ""
	case len(fields) > 3 && isExpectation(fields[len(fields)-1]) && !isExpectation(fields[len(fields)-2]):
		// The line ends as an entry does: what comes before the path is
		// most likely a name with spaces.
		return nil, fmt.Sprintf("%d fields, want IMPLEMENTATION PATH EXPECTATION [KEY=VALUE...] [# reason]; quote a name with spaces, '#' or '@' (\"a name\")", len(fields))
	case len(fields) < 3 || len(fields) > 3 && !isExpectation(fields[2]):
		return nil, fmt.Sprintf("%d fields, want IMPLEMENTATION PATH EXPECTATION [KEY=VALUE...] [# reason]", len(fields))
	}
	name := fields[0]
	e := &Entry{Implementation: name.text, Path: underCorpus(cleanPath(fields[1].text), corpus), Reason: reason}
	if name.at >= 0 {
		e.Implementation, e.Device = name.text[:name.at], name.text[name.at+1:]
		if e.Implementation == "" || e.Device == "" {
			return nil, fmt.Sprintf("%q: want NAME@DEVICE-GLOB, both non-empty", name.text)
		}
	}
	if e.Implementation == "" {
		return nil, "the implementation's name is empty"
	}
	exp, ok := model.ParseExpectation(fields[2].text)
	if !ok {
		return nil, fmt.Sprintf("expectation %q is not fail, flaky or skip", fields[2].text)
	}
	e.Expect = exp
	for _, f := range fields[3:] {
		if problem := e.Conditions.set(f.text); problem != "" {
			return nil, problem
		}
	}
	if e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.HasPrefix(e.Path, "../") {
		return nil, fmt.Sprintf("path %q is not relative to the corpus root", fields[1].text)
	}
	return e, ""
}

func isExpectation(f field) bool {
	_, ok := model.ParseExpectation(f.text)
	return ok
}

// underCorpus is p relative to the corpus when it lies under corpus (the
// corpus's path as the reports print it), else p.
func underCorpus(p, corpus string) string {
	if corpus == "" || corpus == "." {
		return p
	}
	if rest, ok := strings.CutPrefix(p, corpus+"/"); ok && rest != "" {
		return rest
	}
	return p
}

// field is one field of an entry's line, its quotes taken off; at is
// where in text the first '@' outside quotes lies (the device separator
// of the first field), -1 for none.
type field struct {
	text string
	at   int
}

// splitFields splits a line into white-space separated fields and the
// reason after the first '#' outside quotes. A double-quoted part of a
// field is taken as a Go string literal (\" for a quote, \\ for a
// backslash, \t, \n or \u0007 for a control character), so that any name
// a hello may give can be written: white space, '#' and '@' inside quotes
// are text.
func splitFields(text string) (fields []field, reason, problem string) {
	var cur *field
	var b strings.Builder
	end := func() {
		if cur != nil {
			cur.text = b.String()
			fields = append(fields, *cur)
			cur = nil
			b.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '#':
			end()
			return fields, strings.TrimSpace(text[i+1:]), ""
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			end()
			continue
		case cur == nil:
			cur = &field{at: -1}
		}
		switch c {
		case '"':
			n := quotedLen(text[i:])
			s, err := strconv.Unquote(text[i : i+n])
			if err != nil {
				return nil, "", fmt.Sprintf("quoted text %s is not closed or has an unknown escape; write a quote as \\\" and a backslash as \\\\", text[i:i+n])
			}
			b.WriteString(s)
			i += n - 1
		case '@':
			if cur.at < 0 {
				cur.at = b.Len()
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	end()
	return fields, "", ""
}

// quotedLen is the length of the quoted text s starts with, its quotes
// included: up to the first quote no backslash escapes, or all of s when
// none closes it.
func quotedLen(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
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

// Match is the entry that decides the expectation of the fixture of r for
// target t, or nil: of the entries that cover it, the most specific (a
// file over a folder, a longer folder over a shorter, a name over "*", a
// device over any device, a condition over none), then the first listed.
func (l *List) Match(t Target, r *model.Result) *Entry {
	if l == nil {
		return nil
	}
	var best *Entry
	for i := range l.Entries {
		e := &l.Entries[i]
		if !e.covers(r) || !e.applies(t) {
			continue
		}
		if best == nil || specificity(e) > specificity(best) {
			best = e
		}
	}
	return best
}

func specificity(e *Entry) int {
	s := len(e.Path) * 16
	if !strings.HasSuffix(e.Path, "/") {
		s += 1 << 24
	}
	for i, narrowed := range []bool{e.Version != "", e.Platform != "", e.Device != "", e.Implementation != "*"} {
		if narrowed {
			s += 1 << i
		}
	}
	return s
}

// EntryName is an implementation's name as an entry's first field:
// itself when it reads back as itself, else quoted (a name with white
// space, '#', '@', a quote, a backslash or a character that does not
// print, which the quotes show as an escape). ok is
// false for a name no entry can hold: "" (an implementation that gave no
// hello) and "*", which means every implementation.
func EntryName(name string) (text string, ok bool) {
	if name == "" || name == "*" {
		return "", false
	}
	for _, c := range name {
		if c == ' ' || !unicode.IsPrint(c) || strings.ContainsRune("#@\"\\", c) || c == utf8.RuneError {
			return strconv.Quote(name), true
		}
	}
	return name, true
}
