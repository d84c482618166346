package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/expect"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// holdKnownToBase lets an entry of the known-failures list or of an
// expectations file excuse a new failure (of the built-in validator, or of
// an implementation against itself on the base) only when the base had
// it. The lists are read from the pull request's checkout, so a change
// that breaks a fixture could otherwise list it and pass: the failure of a
// fixture that passed on the base (or was not there) and is excused only
// by an entry the base did not have counts, under every fail-on, and a
// finding says why. The comparison records how the lists differ from the
// base's, for the headline.
func holdKnownToBase(_ context.Context, r *Resolved, o *Outcome) error {
	run := o.Run
	c := run.Comparison
	if r.expect == nil || len(r.expect.Entries) == 0 || c == nil || c.Unavailable != "" {
		return nil
	}
	h := baseHold{r: r, run: run, c: c}
	h.base, h.known = r.baseLists(c)
	h.change = &model.KnownChange{Unknown: !h.known}
	if h.known {
		h.change.Added, h.change.Removed = listDiff(r.expect, h.base)
	}
	byPath := map[string]*model.Result{}
	for i := range run.Results {
		byPath[run.Results[i].RelPath] = &run.Results[i]
	}
	for _, ch := range c.Changes {
		res := byPath[ch.RelPath]
		switch {
		case res == nil:
		case ch.Content == model.Renamed && !res.Passed:
			h.holdRenamed(res, ch.From, ch.Base)
		case ch.Transition == model.Regressed || ch.Transition == model.AddedFailing:
			h.hold(res, model.Validator, "", ch.Transition)
		}
	}
	for i := range c.Implementations {
		h.holdImplementation(&c.Implementations[i])
	}
	if len(h.change.Unexcused) > 0 {
		sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
		run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
	}
	c.Known = h.change
	return nil
}

// baseHold holds one run's excuses of new failures to its base's lists.
type baseHold struct {
	r      *Resolved
	run    *model.Run
	c      *model.Comparison
	base   *expect.List
	known  bool
	change *model.KnownChange
}

// hold decides a new failure of the implementation name on device desc
// (the validator's: model.Validator, ""): it counts unless an entry
// excuses it that the base had too. It reports whether it counts.
func (h *baseHold) hold(res *model.Result, name, desc string, v model.Transition) bool {
	if !res.Excused() {
		return true
	}
	if had := h.base.Match(name, desc, res); h.known && had != nil && had.Expect != model.ExpectSkip {
		return false
	}
	why := "the base " + h.c.Base + " did not list it"
	if !h.known {
		why = "the known failures of the base " + h.c.Base + " are not known"
	}
	who := ""
	if name != model.Validator {
		who = " for " + name
	}
	h.unexcuse(res, func(where string) string {
		return fmt.Sprintf("listed as a known failure%s (%s), but it %s now and %s: only an entry the base already had excuses a regression; its failure counts",
			who, where, newFailureWords(v, h.c.Base), why)
	})
	return true
}

// holdRenamed decides the failure of a fixture the change renamed from
// the base's path from, base its result there: an entry excuses it only
// when the base excused it at that path (its report marked it so, or an
// entry of its lists covers the path), so that moving a failure into a
// folder the base excuses does not hide it.
func (h *baseHold) holdRenamed(res *model.Result, from string, base *model.Side) {
	if !res.Excused() || (base != nil && base.KnownFailure) {
		return
	}
	had := h.base.Match(model.Validator, "", &model.Result{RelPath: from, Path: from})
	if h.known && had != nil && had.Expect != model.ExpectSkip {
		return
	}
	why := "which no entry of the base " + h.c.Base + " excused"
	if !h.known {
		why = "and the known failures of the base " + h.c.Base + " are not known"
	}
	h.unexcuse(res, func(where string) string {
		return fmt.Sprintf("listed as a known failure (%s), but it fails, renamed from %s, %s: only an entry the base already had excuses a failure; its failure counts",
			where, from, why)
	})
}

// unexcuse takes back the excuse of a failure an entry the base did not
// have excuses, and adds the finding message gives, told where the
// excuse came from.
func (h *baseHold) unexcuse(res *model.Result, message func(where string) string) {
	where := h.r.KnownFailures
	if res.Listing != nil {
		where = res.Listing.Entry
	}
	// Unmarked: neither the reason nor the entry excuses it now.
	res.KnownFailure, res.Listing = "", nil
	h.change.Unexcused = append(h.change.Unexcused, res.RelPath)
	h.run.Findings = append(h.run.Findings, model.Finding{Kind: model.FindingKnownNotOnBase, Path: res.Path, Message: message(where)})
}

// holdImplementation holds the new failures of one implementation's
// comparison with itself on the base: an excuse the base had takes the
// fixture out of its new failures, one it did not have is undone.
func (h *baseHold) holdImplementation(d *model.ImplementationDelta) {
	var im *model.Implementation
	for i := range h.run.Implementations {
		if h.run.Implementations[i].Label() == d.Label {
			im = &h.run.Implementations[i]
			break
		}
	}
	if im == nil {
		return
	}
	desc := im.Adapter.Description()
	byPath := map[string]*model.Result{}
	for i := range im.Results {
		byPath[im.Results[i].Path] = &im.Results[i]
	}
	keep := func(paths []string, v model.Transition) []string {
		var out []string
		for _, p := range paths {
			if res := byPath[p]; res == nil || h.hold(res, im.Name, desc, v) {
				out = append(out, p)
			}
		}
		return out
	}
	d.Regressed = keep(d.Regressed, model.Regressed)
	d.AddedFailing = keep(d.AddedFailing, model.AddedFailing)
	im.Summary = model.Summarize(im.Summary.Discovered, im.Results, nil)
}

func newFailureWords(v model.Transition, base string) string {
	if v == model.Regressed {
		return "fails and passed on the base " + base
	}
	return "fails and was not on the base " + base
}

// baseLists is the known-failures list and the expectations files as the
// base had them: each file at its path at the base commit, or in the base
// folder. known is false when that cannot be said: a baseline given as a
// report, or a list outside the repository. A base without a file listed
// nothing in it; a file that does not parse there excuses nothing.
func (r *Resolved) baseLists(c *model.Comparison) (base *expect.List, known bool) {
	type file struct {
		path  string
		parse func(io.Reader, string) (*expect.List, error)
	}
	var files []file
	if r.KnownFailures != "" {
		files = append(files, file{r.KnownFailures, expect.ParseKnownFailures})
	}
	for _, f := range r.Expectations {
		files = append(files, file{f, expect.Parse})
	}
	base = &expect.List{}
	read := r.baseReader(c)
	if read == nil {
		return base, false
	}
	for _, f := range files {
		data, found, ok := read(f.path)
		if !ok {
			return base, false
		}
		if !found {
			continue
		}
		if l, err := f.parse(bytes.NewReader(data), f.path); err == nil {
			base.Add(l)
		}
	}
	return base, true
}

// baseReader reads a file (a path the job was given) as the base had it,
// from the base commit (opened once) or the base folder; found is false
// when the base has no such file, ok false when the base's version cannot
// be known. It is nil when no file of the base can be read: a baseline
// given as a report, or a base commit that cannot be opened.
func (r *Resolved) baseReader(c *model.Comparison) func(file string) (data []byte, found, ok bool) {
	ws := r.workspace()
	var at func(rel string) ([]byte, bool, bool)
	switch {
	case c.Commit != "":
		b, err := baseline.OpenCommit(r.WorkDir, c.Commit)
		if err != nil {
			return nil
		}
		at = func(rel string) ([]byte, bool, bool) {
			data, found, err := b.ReadFile(filepath.ToSlash(rel), workspace.MaxInputFile)
			return data, found, err == nil
		}
	case ws.Kind(r.Baseline) == workspace.Folder:
		at = func(rel string) ([]byte, bool, bool) {
			data, err := ws.ReadFile(filepath.Join(r.Baseline, rel), workspace.MaxInputFile)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, false, true
			}
			return data, err == nil, err == nil
		}
	default:
		return nil
	}
	return func(file string) ([]byte, bool, bool) {
		rel, inside := ws.Rel(file)
		if !inside {
			return nil, false, false
		}
		return at(rel)
	}
}

// listDiff is the entries of the run's lists not in base, and the
// reverse, sorted, each as a line names it.
func listDiff(head, base *expect.List) (added, removed []string) {
	in, mine := map[string]bool{}, map[string]bool{}
	for i := range base.Entries {
		in[entryKey(&base.Entries[i])] = true
	}
	for i := range head.Entries {
		k := entryKey(&head.Entries[i])
		mine[k] = true
		if !in[k] {
			added = append(added, k)
		}
	}
	for k := range in {
		if !mine[k] {
			removed = append(removed, k)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	return added, removed
}

// entryKey names an entry by what it says, not where: a known failure by
// its path, an expectation by its implementation, path and expectation.
func entryKey(e *expect.Entry) string {
	if e.Known {
		return e.Path
	}
	impl := e.Implementation
	if e.Device != "" {
		impl += "@" + e.Device
	}
	return impl + " " + e.Path + " " + e.Expect.String()
}

// markRemovedKnown marks each fixture the change removed that failed on
// the base and that the base's lists excused there, so that the headline
// tells a known failure removed from a failure removed. The base commit or
// folder ran without lists; a baseline given as a report carries its own
// marks.
func markRemovedKnown(_ context.Context, r *Resolved, o *Outcome) error {
	c := o.Run.Comparison
	if c == nil || c.Unavailable != "" || (r.KnownFailures == "" && len(r.Expectations) == 0) {
		return nil
	}
	var base *expect.List
	for i := range c.Changes {
		ch := &c.Changes[i]
		if ch.Transition != model.Removed || ch.Base == nil || ch.Base.Passed || ch.Base.KnownFailure ||
			ch.Base.Actual.Outcome == model.CorpusError {
			continue
		}
		if base == nil {
			known := false
			if base, known = r.baseLists(c); !known {
				return nil
			}
		}
		e := base.Match(model.Validator, "", &model.Result{RelPath: ch.RelPath, Path: ch.Path})
		ch.Base.KnownFailure = e != nil && (e.Expect == model.ExpectFail || e.Expect == model.ExpectFlaky)
	}
	return nil
}
