package expect

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// DefaultRetireAfter is how many passes in a row on every device an entry
// covers retire it, unless told otherwise: one pass is luck for a flake,
// and a few in a row are evidence.
const DefaultRetireAfter = 3

// RollOptions say how Roll reads the evidence.
type RollOptions struct {
	// RetireAfter is how many passes in a row, on every device it covers,
	// retire a fail or flaky entry; also how many a failure must be
	// followed by before it needs no entry.
	RetireAfter int
	// Reason is the comment of an entry added; NewReason when empty.
	Reason string
	// BugPattern, when set, is what every entry's reason must match (a
	// bug link); an entry without one is a problem.
	BugPattern *regexp.Regexp
	// Now is the day expiry is judged on; the zero time judges none.
	Now time.Time
}

// Source is one report read: its name, for messages and ordering, and
// its run.
type Source struct {
	Name string
	Run  *model.Run
}

// Rolled is what Roll proposes.
type Rolled struct {
	// Out is the list as proposed; Diff the change as a unified diff of
	// the file with itself ("" when there is none).
	Out  []byte
	Diff string
	// Added and Retired count the entries added and removed, Flaky the
	// fail entries written flaky.
	Added, Retired, Flaky int
	// Problems are the list's own problems, each naming file:line: lines
	// that are not entries, entries expired, and entries without the bug
	// link BugPattern asks for (Unlinked counts those).
	Problems []string
	Unlinked int
}

// Roll is the expectations list src, named file, as the runs of sources
// say it should be, taken in the order they started (then by name):
//
//   - a fail or flaky entry is retired when every device it covers passed
//     the fixtures it covers RetireAfter times in a row at the end, with
//     no retry; an entry no run reached stays;
//   - a fixture that failed on a device and has not since passed
//     RetireAfter times there, and that no entry excuses, gets an entry
//     narrowed to that device (DeviceGlob), one per device; one for any
//     device only when every device that ran it failed it the same way;
//   - the entry is flaky only when the fixture both failed and passed on
//     that device with the same commands and expected block and the same
//     implementation version (the attempts of one run count), else fail;
//     a fail entry whose fixture did so on a device it decides is written
//     flaky, its device, conditions and reason kept;
//   - the lines between "# KEEP" and "# KEEP END" are kept as they are,
//     and everything else outside the retired entries byte for byte.
//
// The same list and reports give the same bytes. An error means the list
// could not be read (a line over the longest a list may have).
func Roll(src []byte, file string, sources []Source, o RollOptions) (*Rolled, error) {
	if o.RetireAfter < 1 {
		o.RetireAfter = DefaultRetireAfter
	}
	if o.Reason == "" {
		o.Reason = NewReason
	}
	l, err := Parse(bytes.NewReader(src), file)
	if err != nil {
		return nil, err
	}
	keep := keptLines(src)
	ev := gather(l, sortSources(sources))
	retired := retiredLines(l, ev, keep, o.RetireAfter)
	flaky := flakyNow(l, ev, keep, retired)
	added := ev.proposals(l, retired, o)
	lines := splitLines(string(src))
	var out []string
	var ops []op
	for i, line := range lines {
		switch now, ok := flaky[i+1]; {
		case retired[i+1]:
			ops = append(ops, op{'-', line})
			continue
		case ok:
			ops = append(ops, op{'-', line})
			line = now
			ops = append(ops, op{'+', line})
		default:
			ops = append(ops, op{' ', line})
		}
		out = append(out, line)
	}
	for _, line := range added {
		out = append(out, line)
		ops = append(ops, op{'+', line})
	}
	text := strings.Join(out, "\n")
	if len(out) > 0 {
		text += "\n"
	}
	rolled := &Rolled{Out: []byte(text), Diff: unified(file, ops), Added: len(added), Retired: len(retired), Flaky: len(flaky)}
	// Every line added reads back as an entry (quoted where it must be,
	// and only of paths a list can hold), so this reads what was read.
	proposed, err := Parse(strings.NewReader(text), file)
	if err != nil {
		return nil, err
	}
	rolled.Problems, rolled.Unlinked = Lint(proposed, o)
	return rolled, nil
}

// sortSources orders the reports as they ran: by start, then by name, so
// that shards and retries read in any order give one history.
func sortSources(sources []Source) []Source {
	s := append([]Source(nil), sources...)
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i].Run.Started, s[j].Run.Started
		if !a.Equal(b) {
			return a.Before(b)
		}
		return s[i].Name < s[j].Name
	})
	return s
}

// Lint is what is wrong with the list l itself: its malformed lines, its
// entries expired on the day o.Now, and, with o.BugPattern, its fail and
// flaky entries whose reason has no bug link (counted in unlinked), each
// naming file:line, in line order.
func Lint(l *List, o RollOptions) (problems []string, unlinked int) {
	for _, p := range l.Problems {
		problems = append(problems, p.Message)
	}
	for i := range l.Entries {
		e := &l.Entries[i]
		if e.ExpiredOn(o.Now) {
			problems = append(problems, expired(e).Message)
		}
		if o.BugPattern != nil && !o.BugPattern.MatchString(e.Reason) {
			unlinked++
			problems = append(problems, fmt.Sprintf("%s: expectation %s for %s has no bug link matching %s in its reason", e.Where(), e.Expect, e.Path, o.BugPattern))
		}
	}
	return problems, unlinked
}

// keptLines are the line numbers between a "# KEEP" line and the next
// "# KEEP END" line (or the end of the file), both included: a block a
// person keeps, which no roll changes.
func keptLines(src []byte) map[int]bool {
	out := map[int]bool{}
	in := false
	for i, line := range splitLines(string(src)) {
		switch strings.TrimSpace(line) {
		case "# KEEP":
			in = true
		case "# KEEP END":
			out[i+1] = in
			in = false
			continue
		}
		if in {
			out[i+1] = true
		}
	}
	return out
}
