package expect

import (
	"fmt"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// device is one implementation on one device, as the reports name it:
// the implementation's name and its adapter's description.
type device struct{ name, desc string }

// fixtureRef is one fixture on one device.
type fixtureRef struct {
	device
	path string
}

// history is what the reports say of one fixture on one device, in the
// order they ran.
type history struct {
	// clean is, for each run of it, whether it passed at the first try.
	clean []bool
	// seen holds, for each fixture body (commands and expected block) and
	// implementation version, failedBit and passedBit as they happened:
	// both set is a flake at the same fixture and version.
	seen map[string]uint8
}

const (
	failedBit uint8 = 1 << iota
	passedBit
)

// trailing is how many runs at the end passed at the first try.
func (h *history) trailing() int {
	n := 0
	for i := len(h.clean) - 1; i >= 0 && h.clean[i]; i-- {
		n++
	}
	return n
}

// failing says whether the fixture failed on the device and has not since
// passed retireAfter times in a row.
func (h *history) failing(retireAfter int) bool {
	return h.trailing() < min(retireAfter, len(h.clean))
}

// expectation is what an entry for the fixture on the device says: flaky
// when it both failed and passed at one body and version, else fail.
func (h *history) expectation() model.Expectation {
	for _, bits := range h.seen {
		if bits == failedBit|passedBit {
			return model.ExpectFlaky
		}
	}
	return model.ExpectFail
}

// evidence is every fixture's history on every device the reports name,
// and which fixtures each entry of the list decided there.
type evidence struct {
	histories map[fixtureRef]*history
	// targets and adapters are each device's last hello, as entries
	// match it and as an entry's glob is written from it.
	targets  map[device]Target
	adapters map[device]*model.GPUAdapter
	covered  map[*Entry]map[fixtureRef]bool
}

// gather reads the results of every run of sources, in order, against
// the list l. A fixture not sent (skipped, not claimed) and a corpus
// error say nothing of an implementation; one that gave no name in its
// hello cannot have an entry.
func gather(l *List, sources []Source) *evidence {
	ev := &evidence{histories: map[fixtureRef]*history{}, targets: map[device]Target{},
		adapters: map[device]*model.GPUAdapter{}, covered: map[*Entry]map[fixtureRef]bool{}}
	for _, s := range sources {
		run := s.Run
		for i := range run.Results {
			ev.add(l, ValidatorTarget, nil, &run.Results[i])
		}
		for i := range run.Implementations {
			im := &run.Implementations[i]
			t := TargetOf(im)
			if im.Name == "" || len(t.Name)+len(t.Device) > maxField {
				continue
			}
			for j := range im.Results {
				ev.add(l, t, im.Adapter, &im.Results[j])
			}
		}
	}
	return ev
}

// add records one result r of target t.
func (ev *evidence) add(l *List, t Target, a *model.GPUAdapter, r *model.Result) {
	switch r.Actual.Outcome {
	case model.Skipped, model.NotClaimed, model.CorpusError:
		return
	}
	if !listable(r.RelPath) {
		// A report is another job's word: a path no entry could hold is
		// left out rather than written as a line that does not read back.
		return
	}
	d := device{t.Name, t.Device}
	ref := fixtureRef{d, r.RelPath}
	h := ev.histories[ref]
	if h == nil {
		h = &history{seen: map[string]uint8{}}
		ev.histories[ref] = h
	}
	h.clean = append(h.clean, r.Passed && !r.Retried())
	body := r.Digest.Commands + "\x00" + r.Digest.Expected + "\x00" + t.Version
	if !r.Passed || r.Retried() {
		h.seen[body] |= failedBit
	}
	if r.Passed {
		h.seen[body] |= passedBit
	}
	ev.targets[d], ev.adapters[d] = t, a
	if e := l.Match(t, r); e != nil {
		if ev.covered[e] == nil {
			ev.covered[e] = map[fixtureRef]bool{}
		}
		ev.covered[e][ref] = true
	}
}

// maxField bounds the text a roll takes from a report into one field of
// a line: quoted, at most four times as long, a line of three stays well
// within maxLine.
const maxField = maxLine / 16

// listable says whether p is a fixture's path as an entry holds it:
// corpus-relative, clean, and of a length a line can carry.
func listable(p string) bool {
	return p != "" && len(p) <= maxField && cleanPath(p) == p && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "../")
}

// retiredLines are the lines of the fail and flaky entries of l, outside
// the kept lines, that every device they decided passed retireAfter
// times in a row at the end. An entry no report reached stays: a device
// that did not report is no evidence.
func retiredLines(l *List, ev *evidence, keep map[int]bool, retireAfter int) map[int]bool {
	out := map[int]bool{}
	for i := range l.Entries {
		e := &l.Entries[i]
		refs := ev.covered[e]
		if keep[e.Line] || e.Known || e.Expect == model.ExpectSkip || len(refs) == 0 {
			continue
		}
		passing := true
		for ref := range refs {
			passing = passing && ev.histories[ref].trailing() >= retireAfter
		}
		out[e.Line] = passing
	}
	for line, retired := range out {
		if !retired {
			delete(out, line)
		}
	}
	return out
}

// flakyNow are the lines of the fail entries of l, outside the kept
// lines and those retired, to write flaky: on a device they decided, a
// fixture they cover both failed and passed at one body and version. A
// fail entry there would only collect unexpected passes.
func flakyNow(l *List, ev *evidence, keep, retired map[int]bool) map[int]string {
	out := map[int]string{}
	for i := range l.Entries {
		e := &l.Entries[i]
		if keep[e.Line] || retired[e.Line] || e.Known || e.Expect != model.ExpectFail {
			continue
		}
		for ref := range ev.covered[e] {
			if ev.histories[ref].expectation() == model.ExpectFlaky {
				out[e.Line] = rewritten(e, model.ExpectFlaky)
				break
			}
		}
	}
	return out
}

// rewritten is the entry e written anew with the expectation exp, its
// device, conditions and reason kept.
func rewritten(e *Entry, exp model.Expectation) string {
	name := "*"
	if e.Implementation != "*" {
		name, _ = EntryName(e.Implementation)
	}
	if e.Device != "" {
		name += "@" + quoteField(e.Device)
	}
	line := fmt.Sprintf("%s %s %s%s", name, quoteField(e.Path), exp, e.Conditions)
	if e.Reason != "" {
		line += " # " + e.Reason
	}
	return line
}

// proposals are the entries to add, in the order of implementation name,
// fixture path and device: for every fixture failing on a device that no
// entry kept excuses.
func (ev *evidence) proposals(l *List, retired map[int]bool, o RollOptions) []string {
	ranBy := map[fixtureRef][]string{} // (name, path) → the devices that ran it
	var fixtures []fixtureRef
	for ref := range ev.histories {
		key := fixtureRef{device{name: ref.name}, ref.path}
		if ranBy[key] == nil {
			fixtures = append(fixtures, key)
		}
		ranBy[key] = append(ranBy[key], ref.desc)
	}
	sort.Slice(fixtures, func(i, j int) bool {
		if fixtures[i].name != fixtures[j].name {
			return fixtures[i].name < fixtures[j].name
		}
		return fixtures[i].path < fixtures[j].path
	})
	var out []string
	seen := map[string]bool{}
	for _, f := range fixtures {
		descs := ranBy[f]
		sort.Strings(descs)
		for _, line := range ev.fixtureEntries(l, retired, f, descs, o) {
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
	}
	return out
}

// fixtureEntries are the entries to add for the fixture f.path of the
// implementation f.name, which the devices descs ran: one per device
// failing it unexcused, or one for any device when every device failed it
// the same way.
func (ev *evidence) fixtureEntries(l *List, retired map[int]bool, f fixtureRef, descs []string, o RollOptions) []string {
	type need struct {
		desc string
		exp  model.Expectation
	}
	var needs []need
	same := true
	for _, desc := range descs {
		d := device{f.name, desc}
		h := ev.histories[fixtureRef{d, f.path}]
		if !h.failing(o.RetireAfter) {
			continue
		}
		exp := h.expectation()
		if e := l.Match(ev.targets[d], &model.Result{RelPath: f.path, Path: f.path}); e != nil && !retired[e.Line] {
			continue
		}
		same = same && (len(needs) == 0 || needs[0].exp == exp)
		needs = append(needs, need{desc, exp})
	}
	if len(needs) == 0 {
		return nil
	}
	if len(descs) > 1 && len(needs) == len(descs) && same {
		return []string{entryLine(f.name, "", f.path, needs[0].exp, o.Reason)}
	}
	var out []string
	for _, n := range needs {
		out = append(out, entryLine(f.name, ev.glob(device{f.name, n.desc}), f.path, n.exp, o.Reason))
	}
	return out
}

// glob is the device glob of an entry for d: DeviceGlob of its adapter,
// unless that also matches another device the implementation ran on, and
// then its whole description.
func (ev *evidence) glob(d device) string {
	g := DeviceGlob(ev.adapters[d])
	if g == "" {
		return d.desc
	}
	for other := range ev.targets {
		if other.name == d.name && other.desc != d.desc && model.Glob(g, other.desc) {
			return d.desc
		}
	}
	return g
}

// entryLine is an entry as a roll writes it; "" for a name no entry can
// hold.
func entryLine(name, device, path string, exp model.Expectation, reason string) string {
	text, ok := entryField(name, device)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s %s %s # %s", text, quoteField(path), exp, reason)
}
