// Package baseline compares a run with a base run: the base commit of a
// pull request read from the workspace's git objects, a second checkout in
// a folder, or the JSON report of an earlier run. Each source gives a
// model.Run; Compare turns two runs into a model.Comparison, fixture by
// corpus-relative path.
package baseline

import (
	"sort"

	"github.com/drp2/drp2-fixtures/model"
)

// Compare compares head with base fixture by fixture. A fixture is matched
// by its corpus-relative path; a fixture at a new path whose content (the
// whole file, else its commands and expectation) equals that of a base
// fixture whose path is gone is a rename. Base names the baseline in the
// result. The changes are ordered by model.Verdicts (regressions first),
// then by path, so equal inputs give equal output.
func Compare(base, head *model.Run, name string) *model.Comparison {
	c := &model.Comparison{
		Base:              name,
		BaseCommandSchema: base.CommandSchema,
		BaseFixtureSchema: base.FixtureSchema,
	}
	c.CommandSchemaChanged = schemaChanged(base.CommandSchema, head.CommandSchema)
	c.FixtureSchemaChanged = schemaChanged(base.FixtureSchema, head.FixtureSchema)

	baseAt := map[string]*model.Result{}
	for i := range base.Results {
		r := &base.Results[i]
		if _, dup := baseAt[r.RelPath]; !dup {
			baseAt[r.RelPath] = r
		}
	}
	headAt := map[string]bool{}
	for i := range head.Results {
		headAt[head.Results[i].RelPath] = true
	}

	// Rename candidates: base fixtures whose path is gone, and head
	// fixtures at new paths, each in path order so that the pairing is
	// always the same.
	gone := make([]*model.Result, 0)
	for i := range base.Results {
		r := &base.Results[i]
		if !headAt[r.RelPath] && baseAt[r.RelPath] == r {
			gone = append(gone, r)
		}
	}
	sort.SliceStable(gone, func(i, j int) bool { return gone[i].RelPath < gone[j].RelPath })
	heads := make([]*model.Result, 0, len(head.Results))
	seen := map[string]bool{}
	for i := range head.Results {
		// A second result at one path: only the first counts.
		if h := &head.Results[i]; !seen[h.RelPath] {
			seen[h.RelPath] = true
			heads = append(heads, h)
		}
	}
	sort.SliceStable(heads, func(i, j int) bool { return heads[i].RelPath < heads[j].RelPath })
	var added []*model.Result
	for _, h := range heads {
		if baseAt[h.RelPath] == nil {
			added = append(added, h)
		}
	}
	renamedFrom := map[*model.Result]*model.Result{}
	used := map[*model.Result]bool{}
	for j, i := range model.MatchRenames(digests(gone), digests(added)) {
		renamedFrom[added[j]] = gone[i]
		used[gone[i]] = true
	}

	for _, h := range heads {
		ch := model.Change{RelPath: h.RelPath, Path: h.Path, Name: h.Name, Head: side(h)}
		b := baseAt[h.RelPath]
		if b == nil {
			if b = renamedFrom[h]; b != nil {
				ch.Content, ch.From = model.Renamed, b.RelPath
			}
		} else {
			ch.Content = content(b.Digest, h.Digest)
			if h.IsCorpusError() && !b.IsCorpusError() {
				// Unreadable now: its digests differ because the file
				// broke, not because its expectation moved.
				ch.Content = model.Broken
			}
		}
		if b == nil {
			ch.Verdict = model.AddedFailing
			if h.Passed {
				ch.Verdict = model.AddedPassing
			}
		} else {
			ch.Base = side(b)
			ch.Verdict = verdict(b.Passed, h.Passed)
		}
		if ch.Verdict == model.StillPassing && ch.Content == model.ContentSame {
			continue
		}
		c.Changes = append(c.Changes, ch)
	}
	for _, b := range gone {
		if used[b] {
			continue
		}
		c.Changes = append(c.Changes, model.Change{RelPath: b.RelPath, Path: b.Path, Name: b.Name,
			Verdict: model.Removed, Base: side(b)})
	}
	sort.SliceStable(c.Changes, func(i, j int) bool {
		a, b := &c.Changes[i], &c.Changes[j]
		if a.Verdict != b.Verdict {
			return a.Verdict.Less(b.Verdict)
		}
		return a.RelPath < b.RelPath
	})
	return c
}

func side(r *model.Result) *model.Side {
	return &model.Side{Passed: r.Passed, Expected: r.Expected, Actual: r.Actual}
}

func verdict(basePassed, headPassed bool) model.Verdict {
	switch {
	case basePassed && !headPassed:
		return model.Regressed
	case !basePassed && headPassed:
		return model.Fixed
	case headPassed:
		return model.StillPassing
	default:
		return model.StillFailing
	}
}

// content tells how a fixture at one path changed. Without digests on both
// sides (a report from before digests) nothing can be told.
func content(base, head model.Digest) model.ContentChange {
	if base.File == "" || head.File == "" || base.File == head.File {
		return model.ContentSame
	}
	switch {
	case base.Expected != head.Expected:
		return model.ExpectationChanged
	case base.Commands != head.Commands:
		return model.StreamChanged
	default:
		return model.MetadataChanged
	}
}

func digests(rs []*model.Result) []model.Digest {
	out := make([]model.Digest, len(rs))
	for i, r := range rs {
		out[i] = r.Digest
	}
	return out
}

func schemaChanged(base, head model.SchemaSource) bool {
	return base.SHA256 != "" && head.SHA256 != "" && base.SHA256 != head.SHA256
}
