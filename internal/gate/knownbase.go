package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/expect"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// holdKnownToBase lets a known-failures entry excuse a regression only
// when the base had it. The list is read from the pull request's checkout,
// so a change that breaks a fixture could otherwise list it and pass: the
// failure of a fixture that passed on the base (or was not there) and is
// listed only by an entry the base did not have counts, under every
// fail-on, and a finding says why. The comparison records how the list
// differs from the base's, for the headline.
func holdKnownToBase(_ context.Context, r *Resolved, o *Outcome) error {
	run := o.Run
	c := run.Comparison
	if r.known == nil || c == nil || c.Unavailable != "" {
		return nil
	}
	base, known := r.baseKnown(c)
	kc := &model.KnownChange{Unknown: !known}
	if known {
		kc.Added, kc.Removed = listDiff(r.known, base)
	}
	had := map[string]bool{}
	for _, p := range base {
		had[p] = true
	}
	byPath := map[string]*model.Result{}
	for i := range run.Results {
		byPath[run.Results[i].RelPath] = &run.Results[i]
	}
	for _, ch := range c.Changes {
		res := byPath[ch.RelPath]
		if res == nil || res.KnownFailure == "" || (ch.Verdict != model.Regressed && ch.Verdict != model.AddedFailing) || had[expect.Clean(ch.RelPath)] || had[expect.Clean(res.Path)] {
			continue
		}
		// Unmarked: neither the reason nor the entry excuses it now.
		res.KnownFailure, res.Listing = "", nil
		kc.Unexcused = append(kc.Unexcused, ch.RelPath)
		why := "the base " + c.Base + " did not list it"
		if !known {
			why = "the known failures of the base " + c.Base + " are not known"
		}
		run.Findings = append(run.Findings, model.Finding{Kind: model.FindingKnownNotOnBase, Path: res.Path,
			Message: fmt.Sprintf("listed as a known failure in %s, but it %s now and %s: only an entry the base already had excuses a regression; its failure counts",
				r.KnownFailures, newFailureWords(ch.Verdict, c.Base), why)})
	}
	if len(kc.Unexcused) > 0 {
		sort.SliceStable(run.Findings, func(i, j int) bool { return run.Findings[i].Path < run.Findings[j].Path })
		run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
	}
	c.Known = kc
	return nil
}

func newFailureWords(v model.Verdict, base string) string {
	if v == model.Regressed {
		return "fails and passed on the base " + base
	}
	return "fails and was not on the base " + base
}

// baseKnown is the corpus paths the base's known-failures list names,
// read where the base was: at the base commit (the list's path in the
// repository), or in the base folder. known is false when that cannot be
// said: a baseline given as a report, or a list outside the repository.
// A base without the file listed nothing; one whose list does not parse
// excuses nothing either.
func (r *Resolved) baseKnown(c *model.Comparison) (paths []string, known bool) {
	ws := r.Workspace()
	rel, inside := ws.Rel(r.KnownFailures)
	if !inside {
		return nil, false
	}
	var data []byte
	switch {
	case c.Commit != "":
		b, err := baseline.OpenCommit(r.WorkDir, c.Commit)
		if err != nil {
			return nil, false
		}
		var found bool
		if data, found, err = b.ReadFile(filepath.ToSlash(rel), workspace.MaxInputFile); err != nil {
			return nil, false
		} else if !found {
			return nil, true
		}
	case ws.Kind(r.Baseline) == workspace.Folder:
		var err error
		data, err = ws.ReadFile(filepath.Join(r.Baseline, rel), workspace.MaxInputFile)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, true
		} else if err != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	l, err := expect.ParseKnownFailures(bytes.NewReader(data), r.KnownFailures)
	if err != nil {
		return nil, true
	}
	for _, e := range l.Entries {
		paths = append(paths, e.Path)
	}
	return paths, true
}

// listDiff is the entries of the run's list not in base, and the reverse,
// sorted.
func listDiff(head *expect.List, base []string) (added, removed []string) {
	in := map[string]bool{}
	for _, p := range base {
		in[p] = true
	}
	mine := map[string]bool{}
	for _, e := range head.Entries {
		mine[e.Path] = true
		if !in[e.Path] {
			added = append(added, e.Path)
		}
	}
	for _, p := range base {
		if !mine[p] {
			removed = append(removed, p)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	return added, removed
}
