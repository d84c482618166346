package expect

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// NewReason is the reason of an entry Update adds for a new failure.
const NewReason = "new"

// Update is the expectations file src, named file, as it should be after
// run: the entries of file that expected a failure where every result
// they cover passed (their unexpected passes) removed, an entry added at
// the end for every failure no entry excuses ("NAME PATH fail # new",
// "NAME PATH flaky # new" when a retry passed),
// and everything else (comments, order, reasons, blank lines) kept byte
// for byte. The same file and run give the same bytes. diff is the change
// as a unified diff, "" when there is none.
func Update(src []byte, file string, l *List, run *model.Run) (out []byte, diff string) {
	stale := staleLines(l, file, run)
	lines := splitLines(string(src))
	var keep []string
	var ops []op
	for i, line := range lines {
		if stale[i+1] {
			ops = append(ops, op{'-', line})
			continue
		}
		keep = append(keep, line)
		ops = append(ops, op{' ', line})
	}
	for _, line := range newEntries(run) {
		keep = append(keep, line)
		ops = append(ops, op{'+', line})
	}
	text := strings.Join(keep, "\n")
	if len(keep) > 0 {
		text += "\n"
	}
	return []byte(text), unified(file, ops)
}

// splitLines splits a file into its lines, without their ends; a last
// line without an end is a line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimSuffix(line, "\r")
	}
	return lines
}

// staleLines are the lines of file whose entries expected a failure and
// saw only passes: at least one result they cover, none failing.
func staleLines(l *List, file string, run *model.Run) map[int]bool {
	passed, failed := map[string]bool{}, map[string]bool{}
	each(run, func(_ *model.Implementation, r *model.Result) {
		if r.Listing == nil || r.Listing.Expect != model.ExpectFail {
			return
		}
		if r.Passed {
			passed[r.Listing.Entry] = true
		} else {
			failed[r.Listing.Entry] = true
		}
	})
	out := map[int]bool{}
	if l == nil {
		return out
	}
	for i := range l.Entries {
		e := &l.Entries[i]
		if e.File == file && !e.Known && passed[e.Where()] && !failed[e.Where()] {
			out[e.Line] = true
		}
	}
	return out
}

// newEntries are the entries of the results no entry covers that did not
// pass at the first try, in the run's order: the built-in validator's,
// then each implementation's. What the attempts showed is written: a
// fixture that failed and then passed on a retry is flaky, one that never
// passed fails. An implementation's entry names the device it described in
// its hello (DeviceGlob), so that a list written on one device does not
// excuse the same failures on another. Corpus errors are the corpus's, for
// no list to excuse, and an implementation without a name (it gave no
// hello) gets none.
func newEntries(run *model.Run) []string {
	var out []string
	seen := map[string]bool{}
	each(run, func(im *model.Implementation, r *model.Result) {
		exp := model.ExpectFail
		switch k := r.Kind(); {
		case r.Listing != nil:
			return
		case k == model.KindFlaky && r.Passed && r.Retried():
			exp = model.ExpectFlaky
		case k != model.KindFailed && k != model.KindHarnessError:
			return
		}
		name, device := model.Validator, ""
		if im != nil {
			name, device = im.Name, DeviceGlob(im.Adapter)
		}
		text, ok := entryField(name, device)
		if !ok {
			return
		}
		line := fmt.Sprintf("%s %s %s # %s", text, r.RelPath, exp, NewReason)
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	})
	return out
}

// each calls f on every result of run with the implementation that ran
// it, nil for the built-in validator.
func each(run *model.Run, f func(im *model.Implementation, r *model.Result)) {
	for i := range run.Results {
		f(nil, &run.Results[i])
	}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		for j := range im.Results {
			f(im, &im.Results[j])
		}
	}
}

// op is one line of a diff: ' ' kept, '-' removed, '+' added.
type op struct {
	kind byte
	line string
}

// diffContext is the lines of context around a change, as diff -u.
const diffContext = 3

// unified writes ops as a unified diff of file with itself.
func unified(file string, ops []op) string {
	var b strings.Builder
	for start := 0; start < len(ops); {
		first := nextChange(ops, start)
		if first < 0 {
			break
		}
		lo := max(first-diffContext, 0)
		// A hunk runs on while the next change is within twice the
		// context of the last, so hunks never overlap.
		hi := first
		for {
			next := nextChange(ops, hi+1)
			if next < 0 || next-hi > 2*diffContext {
				break
			}
			hi = next
		}
		hi = min(hi+diffContext, len(ops)-1)
		if b.Len() == 0 {
			fmt.Fprintf(&b, "--- %s\n+++ %s\n", file, file)
		}
		writeHunk(&b, ops, lo, hi)
		start = hi + 1
	}
	return b.String()
}

func nextChange(ops []op, from int) int {
	for i := from; i < len(ops); i++ {
		if ops[i].kind != ' ' {
			return i
		}
	}
	return -1
}

// writeHunk writes ops[lo..hi] with its header; line numbers count the
// old file's lines (kept and removed) and the new one's (kept and added).
func writeHunk(b *strings.Builder, ops []op, lo, hi int) {
	oldStart, newStart := 1, 1
	for _, o := range ops[:lo] {
		if o.kind != '+' {
			oldStart++
		}
		if o.kind != '-' {
			newStart++
		}
	}
	oldN, newN := 0, 0
	for _, o := range ops[lo : hi+1] {
		if o.kind != '+' {
			oldN++
		}
		if o.kind != '-' {
			newN++
		}
	}
	if oldN == 0 {
		oldStart--
	}
	if newN == 0 {
		newStart--
	}
	fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", oldStart, oldN, newStart, newN)
	for _, o := range ops[lo : hi+1] {
		fmt.Fprintf(b, "%c%s\n", o.kind, o.line)
	}
}
