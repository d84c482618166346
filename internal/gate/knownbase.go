package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/expect"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// holdKnownToBase lets an entry of the known-failures list or of an
// expectations file excuse a failure only when the base had it. The lists
// are read from the pull request's checkout, so a change that breaks a
// fixture, or a runtime, could otherwise list it and pass. The validator's
// new failures (a fixture that passed on the base, or was not there) are
// held; every excuse of an implementation is, since the base's results of
// a runtime are the head's own wherever the fixture did not change, so a
// regression of the runtime is never new: a failure excused by an entry
// the base did not have, a fixture skipped by one, and a pass on a retry
// the base did not list as flaky all count as failures (under fail-on
// mismatch, and a new one under regressions), and a finding says why. On a pull request whose base cannot be read (no
// comparison asked for, or a checkout without the base commit), no excuse
// can be held, so every excused failure counts. The comparison records
// how the lists differ from the base's, for the headline.
func holdKnownToBase(_ context.Context, r *Resolved, o *Outcome) error {
	run := o.Run
	c := run.Comparison
	h := baseHold{r: r, run: run, c: c, base: &expect.List{}, change: &model.KnownChange{}, everyExcuse: true}
	switch {
	case c != nil && c.Unavailable == "":
		// A base report holds results of the implementations of its own;
		// a base commit or folder has the head's, made here.
		h.everyExcuse = c.Commit != "" || r.workspace().Kind(r.Baseline) == workspace.Folder
		h.base, h.known = r.baseLists(c)
		if h.known {
			markRemovedKnown(c, h.base)
		}
		h.why = "the base " + c.Base + " did not list it"
		if !h.known {
			h.why = "the expectations of the base " + c.Base + " are not known"
		} else if r.expect == nil {
			h.known = false
			h.why = "this job was given no expectations file to read the base's: give it the files the job that ran it was given"
		}
	case r.mergeOnly || !baseline.PullRequestEvent(r.env.Getenv):
		return nil
	case c != nil:
		h.why = "the base's expectations cannot be read (" + strings.TrimSuffix(strings.TrimPrefix(c.Unavailable, "no comparison with the base: "), ".") + ")"
	default:
		h.why = "there is no comparison with the base to read its expectations from (compare with baseline auto, with fetch-depth: 2 on actions/checkout)"
	}
	h.change.Unknown = !h.known
	if h.known {
		h.change.Added, h.change.Removed, h.change.Files = listDiff(r.expect, h.base)
	}
	h.holdValidator()
	for i := range run.Implementations {
		h.holdImplementation(&run.Implementations[i])
		h.deltaByLists(&run.Implementations[i])
	}
	if len(h.change.Unexcused) > 0 {
		sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
		run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
	}
	if c != nil && (r.expect != nil || len(h.change.Unexcused) > 0) {
		c.Known = h.change
	}
	return nil
}

// baseHold holds one run's excuses to its base's lists.
type baseHold struct {
	r     *Resolved
	run   *model.Run
	c     *model.Comparison
	base  *expect.List
	known bool
	// why says why an entry the base's list does not match excuses
	// nothing, for the findings.
	why    string
	change *model.KnownChange
	// everyExcuse holds every excuse of an implementation, not only
	// those of its new failures: the base's results of it are the head's
	// own wherever the fixture did not change, or there is no base.
	everyExcuse bool
}

// holdValidator holds the built-in validator's new failures, or with no
// comparison to tell them by, every one of its excused failures.
func (h *baseHold) holdValidator() {
	if h.r.expect == nil {
		return
	}
	if h.c == nil || h.c.Unavailable != "" {
		for i := range h.run.Results {
			if res := &h.run.Results[i]; res.Excused() {
				h.unexcuse(res, model.Validator, "")
			}
		}
		return
	}
	byPath := map[string]*model.Result{}
	for i := range h.run.Results {
		byPath[h.run.Results[i].RelPath] = &h.run.Results[i]
	}
	for _, ch := range h.c.Changes {
		res := byPath[ch.RelPath]
		if res != nil && ch.Content == model.Renamed && !res.Passed {
			h.holdRenamed(res, ch.From, ch.Base)
			continue
		}
		if res == nil || !res.Excused() || (ch.Transition != model.Regressed && ch.Transition != model.AddedFailing) {
			continue
		}
		if had := h.base.Match(expect.ValidatorTarget, res); h.known && had != nil && had.Expect != model.ExpectSkip {
			continue
		}
		h.unexcuse(res, model.Validator, ch.Transition)
	}
}

// holdImplementation holds the excuses of one implementation's results
// (every one, or with a base report, whose results of the implementation
// are its own, those of its new failures), then makes its new failures
// those that fail now without an excuse the base had: a failure whose
// excuse does not hold regressed, the base's own list saying it passed
// there.
func (h *baseHold) holdImplementation(im *model.Implementation) {
	d := h.delta(im.Label())
	isNew := map[string]model.Transition{}
	if d != nil {
		for _, p := range d.Regressed {
			isNew[p] = model.Regressed
		}
		for _, p := range d.AddedFailing {
			isNew[p] = model.AddedFailing
		}
	}
	target := expect.TargetOf(im)
	unheld := map[string]bool{}
	for i := range im.Results {
		res := &im.Results[i]
		if v, ok := isNew[res.Path]; (ok || h.everyExcuse) && h.holdResult(res, target, v) {
			unheld[res.Path] = true
		}
	}
	im.Summary = model.Summarize(im.Summary.Discovered, im.Results, nil)
	if d == nil {
		return
	}
	d.Regressed, d.AddedFailing = nil, nil
	for i := range im.Results {
		res := &im.Results[i]
		switch v, ok := isNew[res.Path]; {
		case res.Passed || res.Excused():
		case ok && v == model.AddedFailing:
			d.AddedFailing = append(d.AddedFailing, res.Path)
		case ok || unheld[res.Path]:
			d.Regressed = append(d.Regressed, res.Path)
		}
	}
}

// deltaByLists compares with the base an implementation that has no
// results on it: one merged from another job's report (docs/webgpu.md's
// two jobs), which ran on the head alone. The base's lists are the base's
// statement of what the implementation fails there, so each failure that
// no entry of the base excuses (after holdImplementation) is one the pull
// request made: it regressed, or was added failing when the fixture is
// not on the base. A job given no list reads none of the base's: the base
// listed nothing, and every failure is new. When the base's lists cannot
// be read, nothing is said.
func (h *baseHold) deltaByLists(im *model.Implementation) {
	if !h.everyExcuse || h.c == nil || h.c.Unavailable != "" || (!h.known && h.r.expect != nil) || h.delta(im.Label()) != nil {
		return
	}
	added := map[string]bool{}
	for _, ch := range h.c.Changes {
		if ch.Transition == model.AddedFailing || ch.Transition == model.AddedPassing {
			added[ch.RelPath] = true
		}
	}
	d := model.ImplementationDelta{Label: im.Label()}
	for i := range im.Results {
		switch res := &im.Results[i]; {
		case res.Kind() != model.KindFailed && res.Kind() != model.KindHarnessError:
		case added[res.RelPath]:
			d.AddedFailing = append(d.AddedFailing, res.Path)
		default:
			d.Regressed = append(d.Regressed, res.Path)
		}
	}
	if d.NewFailures() > 0 {
		h.c.Implementations = append(h.c.Implementations, d)
	}
}

// holdResult holds the excuse of one result of the implementation target
// to the base's list, and reports whether it did not hold: a
// skip the base did not have, a pass on a retry it did not list, a
// failure it did not excuse. v is how the failure is new, "" if it is not.
func (h *baseHold) holdResult(res *model.Result, target expect.Target, v model.Transition) bool {
	name := target.Name
	e := h.base.Match(target, res)
	had := func(kinds ...model.Expectation) bool { return h.known && e != nil && slices.Contains(kinds, e.Expect) }
	switch {
	case res.Actual.Outcome == model.Skipped && !had(model.ExpectSkip):
		h.unskip(res, name)
	case res.Passed && res.Retried() && res.Listed() == model.ExpectPass && !had(model.ExpectFail, model.ExpectFlaky):
		h.unretry(res, name)
	case res.Excused() && !had(model.ExpectFail, model.ExpectFlaky):
		h.unexcuse(res, name, v)
	default:
		return false
	}
	return true
}

// delta is the comparison of the implementation label with itself on the
// base; nil when there is none.
func (h *baseHold) delta(label string) *model.ImplementationDelta {
	if h.c == nil {
		return nil
	}
	for i := range h.c.Implementations {
		if d := &h.c.Implementations[i]; d.Label == label {
			return d
		}
	}
	return nil
}

// unexcuse undoes the excuse of the failure res of the implementation
// name: neither the reason nor the entry excuses it now, and a finding
// says why. v is how the failure is new (Regressed, AddedFailing), ""
// when it is not or cannot be told.
func (h *baseHold) unexcuse(res *model.Result, name string, v model.Transition) {
	where := h.takeExcuse(res)
	how, what := "it fails now", "a failure"
	if v != "" {
		how, what = "it "+newFailureWords(v, h.c.Base)+" now", "a regression"
	}
	h.count(res, fmt.Sprintf("listed as a known failure%s (%s), but %s: only an entry the base already had excuses %s, and %s; its failure counts",
		forName(name), where, how, what, h.why))
}

// takeExcuse unmarks res, which neither the reason nor the entry excuses
// now, and says where its excuse came from: the entry, else the
// known-failures list.
func (h *baseHold) takeExcuse(res *model.Result) (where string) {
	where = h.r.KnownFailures
	if res.Listing != nil {
		where = res.Listing.Entry
	}
	res.KnownFailure, res.Listing = "", nil
	return where
}

// holdRenamed holds the failure of a fixture the change renamed from
// the base's path from, base its result there: an entry excuses it only
// when the base excused it at that path (its report marked it so, or an
// entry of its lists covers the path), so that moving a failure into a
// folder the base excuses does not hide it.
func (h *baseHold) holdRenamed(res *model.Result, from string, base *model.Side) {
	if !res.Excused() || (base != nil && base.KnownFailure) {
		return
	}
	had := h.base.Match(expect.ValidatorTarget, &model.Result{RelPath: from, Path: from})
	if h.known && had != nil && had.Expect != model.ExpectSkip {
		return
	}
	where := h.takeExcuse(res)
	h.count(res, fmt.Sprintf("listed as a known failure (%s), but it fails, renamed from %s: only an entry the base already had excuses a failure at its old path, and %s; its failure counts",
		where, from, h.why))
}

// unskip makes a fixture kept from the implementation by an entry the
// base did not have a failure: which fixtures a runtime is judged on is
// the base's choice, or a pull request could skip the ones it breaks.
func (h *baseHold) unskip(res *model.Result, name string) {
	where := ""
	if res.Listing != nil {
		where = res.Listing.Entry
	}
	res.Listing, res.Passed = nil, false
	res.Actual = model.Actual{Outcome: model.HarnessError,
		Message: "not sent: skipped by " + where + ", an entry the base did not have, so it counts as failed"}
	h.count(res, fmt.Sprintf("skipped%s (%s), but only a skip the base already had keeps a fixture from an implementation, and %s; it counts as failed",
		forName(name), where, h.why))
}

// unretry makes a pass on a retry the failure of its first attempt unless
// the base listed the fixture: a runtime that fails a fixture one run in
// two has a bug the base did not know of.
func (h *baseHold) unretry(res *model.Result, name string) {
	passedOn := len(res.Attempts)
	// The first attempt alone is its result: "failed on all attempts"
	// would be untrue, and the finding says it passed later.
	res.Passed, res.Actual, res.Attempts = false, res.Attempts[0], nil
	h.count(res, fmt.Sprintf("failed%s and passed on attempt %d, but a pass on a retry is flaky only by an entry the base already had, and %s; its first failure counts",
		forName(name), passedOn, h.why))
}

// count records the failure res as one no entry of the base excuses, with
// the finding that says why.
func (h *baseHold) count(res *model.Result, message string) {
	h.change.Unexcused = append(h.change.Unexcused, res.RelPath)
	h.run.Findings = append(h.run.Findings, model.Finding{Kind: model.FindingKnownNotOnBase, Path: res.Path, Message: message})
}

func forName(name string) string {
	if name == model.Validator {
		return ""
	}
	return " for " + name
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
		path, name string
		parse      func(io.Reader, string) (*expect.List, error)
	}
	var files []file
	if r.KnownFailures != "" {
		files = append(files, file{r.KnownFailures, r.KnownFailures, expect.ParseKnownFailures})
	}
	for _, f := range r.Expectations {
		// Named as readExpectations names the head's, so that a file is
		// one file in the headline.
		files = append(files, file{f, r.display(under(r.WorkDir, f)), r.parseExpectations})
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
		if l, err := f.parse(bytes.NewReader(data), f.name); err == nil {
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
// reverse, sorted, each as a line names it, and the files that hold them,
// each once, known-failures list first.
func listDiff(head, base *expect.List) (added, removed []string, files []model.ListFile) {
	in, mine := map[string]*expect.Entry{}, map[string]bool{}
	for i := range base.Entries {
		in[entryKey(&base.Entries[i])] = &base.Entries[i]
	}
	seen := map[model.ListFile]bool{}
	file := func(e *expect.Entry) {
		if f := (model.ListFile{Path: e.File, Known: e.Known}); !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for i := range head.Entries {
		e := &head.Entries[i]
		k := entryKey(e)
		mine[k] = true
		if in[k] == nil {
			added = append(added, k)
			file(e)
		}
	}
	for k, e := range in {
		if !mine[k] {
			removed = append(removed, k)
			file(e)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].Known != files[j].Known {
			return files[i].Known
		}
		return files[i].Path < files[j].Path
	})
	return added, removed, files
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
func markRemovedKnown(c *model.Comparison, base *expect.List) {
	for i := range c.Changes {
		ch := &c.Changes[i]
		if ch.Transition != model.Removed || ch.Base == nil || ch.Base.Passed || ch.Base.KnownFailure ||
			ch.Base.Actual.Outcome == model.CorpusError {
			continue
		}
		e := base.Match(expect.ValidatorTarget, &model.Result{RelPath: ch.RelPath, Path: ch.Path})
		ch.Base.KnownFailure = e != nil && (e.Expect == model.ExpectFail || e.Expect == model.ExpectFlaky)
	}
}
