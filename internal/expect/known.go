package expect

// The known-failures list of --known-failures: the built-in validator's
// expected failures, in the format it had before expectations lists, read
// strictly (a bad line is an error), as it always was.
//
// The list is a text file, one fixture per line: the fixture's
// corpus-relative path (as "corpus_path" in the JSON report) or its display
// path, then whitespace, then the reason. Blank lines and lines starting
// with '#' are ignored.
//
//	# fixture path                           reason
//	negative/invalid_bind_group_extra_entry.json  renderer#123: extra entries not checked yet

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/model"
)

// maxLine bounds one line of the list.
const maxLine = 64 << 10

// ParseKnownFailures reads a known-failures list into entries of the
// built-in validator's expected failures; name is used in messages.
// Every problem names the file and line.
func ParseKnownFailures(r io.Reader, name string) (*List, error) {
	l := &List{}
	seen := map[string]int{}
	err := eachLine(r, name, func(n int, text string) error {
		line := strings.TrimSpace(text)
		if line == "" || strings.HasPrefix(line, "#") {
			return nil
		}
		if !utf8.ValidString(line) {
			return fmt.Errorf("%s:%d: not valid UTF-8", name, n)
		}
		p, reason := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			p, reason = line[:i], strings.TrimSpace(line[i+1:])
		}
		if reason == "" {
			return fmt.Errorf("%s:%d: %s has no reason; write the reason after the path", name, n, p)
		}
		p = Clean(p)
		if first, dup := seen[p]; dup {
			return fmt.Errorf("%s:%d: %s is already listed on line %d", name, n, p, first)
		}
		seen[p] = n
		l.Entries = append(l.Entries, Entry{Implementation: model.Validator, Path: p, Expect: model.ExpectFail,
			Reason: reason, File: name, Line: n, Known: true})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// eachLine calls line with every line of a list and its 1-based number,
// each at most maxLine bytes, until line returns an error; name is the
// list's, for messages.
func eachLine(r io.Reader, name string, line func(n int, text string) error) error {
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
		if err := line(n, text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Clean is a listed path as the list keeps it: slash separated, without
// ./ or redundant elements.
func Clean(p string) string {
	return path.Clean(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"))
}
