// Package knownfail reads a known-failures list and applies it to a run, so
// that a project can adopt the gate before it fixes every fixture: a listed
// fixture that fails is reported but excused; one that passes is a finding
// that asks for its entry to be removed.
//
// The list is a text file, one fixture per line: the fixture's
// corpus-relative path (as "corpus_path" in the JSON report) or its display
// path, then whitespace, then the reason. Blank lines and lines starting
// with '#' are ignored.
//
//	# fixture path                           reason
//	negative/invalid_bind_group_extra_entry.json  renderer#123: extra entries not checked yet
package knownfail

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
)

// maxLine bounds one line of the list.
const maxLine = 64 << 10

// Entry is one listed fixture.
type Entry struct {
	Path   string
	Reason string
	// Line is the entry's 1-based line in the list.
	Line int
}

// List is a known-failures list.
type List struct {
	// Name is the list's file name, for messages.
	Name    string
	Entries []Entry
}

// Parse reads a list; name is used in messages. Every problem names the
// file and line.
func Parse(r io.Reader, name string) (*List, error) {
	l := &List{Name: name}
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 {
			// Editors on some systems save a byte-order mark; it would
			// otherwise become part of the first entry's path, which then
			// names no fixture.
			text = strings.TrimPrefix(text, "\ufeff")
		}
		line := strings.TrimSpace(text)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !utf8.ValidString(line) {
			return nil, fmt.Errorf("%s:%d: not valid UTF-8", name, n)
		}
		p, reason := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			p, reason = line[:i], strings.TrimSpace(line[i+1:])
		}
		if reason == "" {
			return nil, fmt.Errorf("%s:%d: %s has no reason; write the reason after the path", name, n, p)
		}
		p = Clean(p)
		if first, dup := seen[p]; dup {
			return nil, fmt.Errorf("%s:%d: %s is already listed on line %d", name, n, p, first)
		}
		seen[p] = n
		l.Entries = append(l.Entries, Entry{Path: p, Reason: reason, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return l, nil
}

// Clean is a listed path as the list keeps it: slash separated, without
// ./ or redundant elements.
func Clean(p string) string {
	return path.Clean(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"))
}

// Apply marks the listed fixtures of run that fail with their reason, adds
// a finding for each listed fixture that passes and, when the whole corpus
// ran, for each entry that names no fixture; then it recomputes the
// summary.
func (l *List) Apply(run *model.Run) {
	if l == nil {
		return
	}
	byPath := map[string]*Entry{}
	for i := range l.Entries {
		byPath[l.Entries[i].Path] = &l.Entries[i]
	}
	used := map[*Entry]bool{}
	for i := range run.Results {
		r := &run.Results[i]
		e := byPath[Clean(r.RelPath)]
		if e == nil {
			e = byPath[Clean(r.Path)]
		}
		if e == nil {
			continue
		}
		used[e] = true
		if !r.Passed {
			r.KnownFailure = e.Reason
			continue
		}
		run.Findings = append(run.Findings, model.Finding{Kind: model.FindingKnownPassing, Path: r.Path,
			Message: fmt.Sprintf("unexpectedly passing: listed as a known failure (%s:%d) but passes; remove it from the list", l.Name, e.Line)})
	}
	// A filtered run leaves listed fixtures out on purpose.
	if run.Summary.Run == run.Summary.Discovered {
		for i := range l.Entries {
			e := &l.Entries[i]
			if !used[e] {
				run.Findings = append(run.Findings, model.Finding{Kind: model.FindingKnownUnused, Path: e.Path,
					Message: fmt.Sprintf("listed as a known failure (%s:%d) but no fixture has this path; remove it from the list", l.Name, e.Line)})
			}
		}
	}
	sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
	run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
}
