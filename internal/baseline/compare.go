// Package baseline compares a run with a base run: the base commit of a
// pull request read from the workspace's git objects, a second checkout in
// a folder, or the JSON report of an earlier run. Each source gives a
// model.Run; Compare turns two runs into a model.Comparison, fixture by
// corpus-relative path.
package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Compare compares head with base fixture by fixture. A fixture is matched
// by its corpus-relative path; a fixture at a new path whose content (the
// whole file, else its commands and expectation) equals that of a base
// fixture whose path is gone is a rename. Base names the baseline in the
// result. The changes are ordered by model.Transitions (regressions first),
// then by path, so equal inputs give equal output.
func Compare(base, head *model.Run, name string) *model.Comparison {
	c := &model.Comparison{
		Base:              name,
		BaseCommandSchema: base.CommandSchema,
		BaseFixtureSchema: base.FixtureSchema,
	}
	c.CommandSchemaChanged, c.CommandSchemaFiles = model.SchemaChange(base.CommandSchema, head.CommandSchema)
	c.FixtureSchemaChanged, c.FixtureSchemaFiles = model.SchemaChange(base.FixtureSchema, head.FixtureSchema)

	baseAt := firstByPath(base.Results)
	heads := uniqueHeads(head.Results)
	gone := goneFromHead(base.Results, baseAt, heads)
	renamedFrom, used := renames(gone, heads, baseAt)

	for _, h := range heads {
		if ch, changed := headChange(h, baseAt[h.RelPath], renamedFrom[h]); changed {
			c.Changes = append(c.Changes, ch)
		}
	}
	for _, b := range gone {
		if used[b] {
			continue
		}
		c.Changes = append(c.Changes, model.Change{RelPath: b.RelPath, Path: b.Path, Name: b.Name,
			Transition: model.Removed, Base: baseSide(b)})
	}
	sort.SliceStable(c.Changes, func(i, j int) bool {
		a, b := &c.Changes[i], &c.Changes[j]
		if a.Transition != b.Transition {
			return a.Transition.Less(b.Transition)
		}
		return a.RelPath < b.RelPath
	})
	if c.SchemasChanged() {
		c.SchemaFailure = schemaFailure(c.Changes)
	}
	return c
}

// firstByPath indexes results by corpus-relative path; of two results at
// one path only the first counts.
func firstByPath(results []model.Result) map[string]*model.Result {
	at := map[string]*model.Result{}
	for i := range results {
		r := &results[i]
		if _, dup := at[r.RelPath]; !dup {
			at[r.RelPath] = r
		}
	}
	return at
}

// uniqueHeads is the first head result at each path, in path order so that
// rename pairing and the changes are always the same.
func uniqueHeads(results []model.Result) []*model.Result {
	heads := make([]*model.Result, 0, len(results))
	seen := map[string]bool{}
	for i := range results {
		if h := &results[i]; !seen[h.RelPath] {
			seen[h.RelPath] = true
			heads = append(heads, h)
		}
	}
	sort.SliceStable(heads, func(i, j int) bool { return heads[i].RelPath < heads[j].RelPath })
	return heads
}

// goneFromHead is the base fixtures whose path head no longer has, in path
// order: the rename candidates on the base side.
func goneFromHead(results []model.Result, baseAt map[string]*model.Result, heads []*model.Result) []*model.Result {
	headAt := make(map[string]bool, len(heads))
	for _, h := range heads {
		headAt[h.RelPath] = true
	}
	gone := make([]*model.Result, 0)
	for i := range results {
		r := &results[i]
		if !headAt[r.RelPath] && baseAt[r.RelPath] == r {
			gone = append(gone, r)
		}
	}
	sort.SliceStable(gone, func(i, j int) bool { return gone[i].RelPath < gone[j].RelPath })
	return gone
}

// renames pairs head fixtures at new paths with gone base fixtures of the
// same content: renamedFrom maps a head result to its base, used marks the
// base results so paired.
func renames(gone, heads []*model.Result, baseAt map[string]*model.Result) (renamedFrom map[*model.Result]*model.Result, used map[*model.Result]bool) {
	var added []*model.Result
	for _, h := range heads {
		if baseAt[h.RelPath] == nil {
			added = append(added, h)
		}
	}
	renamedFrom = map[*model.Result]*model.Result{}
	used = map[*model.Result]bool{}
	for j, i := range model.MatchRenames(digests(gone), digests(added)) {
		renamedFrom[added[j]] = gone[i]
		used[gone[i]] = true
	}
	return renamedFrom, used
}

// headChange describes head fixture h against its base at the same path b,
// else the base it was renamed from; changed is false for a fixture that
// still passes with the same content.
func headChange(h, b, renamedFrom *model.Result) (ch model.Change, changed bool) {
	ch = model.Change{RelPath: h.RelPath, Path: h.Path, Name: h.Name, Head: side(h)}
	if b == nil {
		if b = renamedFrom; b != nil {
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
		ch.Transition = model.AddedFailing
		if h.Passed {
			ch.Transition = model.AddedPassing
		}
	} else {
		ch.Base = baseSide(b)
		ch.Transition = transition(b.Passed, h.Passed)
	}
	return ch, ch.Transition != model.StillPassing || ch.Content != model.ContentSame
}

func side(r *model.Result) *model.Side {
	return &model.Side{Passed: r.Passed, Expected: r.Expected, Actual: r.Actual}
}

// baseSide is the base's result, marked when an entry excused its failure
// there (a baseline given as a report; the gate marks a base commit's).
// The head's excuses are held to the base after the comparison, so its
// side is not marked.
func baseSide(r *model.Result) *model.Side {
	s := side(r)
	s.KnownFailure = !r.Passed && r.Excused()
	return s
}

func transition(basePassed, headPassed bool) model.Transition {
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

// schemaFailure is the schema error the most fixtures newly fail with, at
// whichever command (the first in the changes' order of those tied), or
// nil when none does.
// A fixture newly fails a schema phase when it was on the base with the
// same file (so the schema is what moved), fails one now, and did not
// fail with the same message on the base.
func schemaFailure(changes []model.Change) *model.SchemaFailure {
	var first []*model.Change // the first change of each message, in order
	count := map[string]int{}
	all := 0
	for i := range changes {
		ch := &changes[i]
		h := ch.Head
		if h == nil || ch.Base == nil || h.Passed || ch.Content != model.ContentSame || !schemaPhase(h.Actual.Phase) ||
			ch.Base.Actual.Message == h.Actual.Message || sameVerdictLeftOut(ch.Base, h) {
			continue
		}
		all++
		if count[schemaError(h.Actual)] == 0 {
			first = append(first, ch)
		}
		count[schemaError(h.Actual)]++
	}
	if all == 0 {
		return nil
	}
	best := first[0]
	for _, ch := range first[1:] {
		if count[schemaError(ch.Head.Actual)] > count[schemaError(best.Head.Actual)] {
			best = ch
		}
	}
	msg := schemaError(best.Head.Actual)
	return &model.SchemaFailure{Message: msg, Path: best.Path, Fixtures: count[msg], All: all}
}

// schemaError is a schema phase's message without the "command N: " the
// runner puts before it (runner/commands.go), so that one error at
// different commands of different fixtures counts as one.
func schemaError(a model.Actual) string {
	if a.CommandIndex == nil {
		return a.Message
	}
	return strings.TrimPrefix(a.Message, fmt.Sprintf("command %d: ", *a.CommandIndex))
}

func schemaPhase(p model.Phase) bool { return p == model.PhaseSchema || p == model.PhaseEnvelope }

// sameVerdictLeftOut reports whether the base failed as the head does but
// without a message: a base report leaves the message out past its first
// failures in full (model.Result.DetailLeftOut), and a schema phase always
// says one otherwise. The same phase and code then read as the same
// failure rather than a new schema error.
func sameVerdictLeftOut(base, head *model.Side) bool {
	return base.Actual.Message == "" && !base.Passed && base.Actual.Phase == head.Actual.Phase && base.Actual.Code == head.Actual.Code
}

// maxStreamsDescribed bounds the fixtures whose two files are read again
// to say which commands changed: the reports show a few rows of changes,
// and a corpus rewritten wholesale must not be read twice more.
const maxStreamsDescribed = 200

// DescribeStreams sets Stream on the first maxStreamsDescribed changes
// whose stream changed, from their files in base and head (each rooted at
// its corpus), so that a report says which commands changed rather than
// that some did. Either may be nil (a base given as a report has no
// files); a file that cannot be read or decoded leaves its change as it
// was.
func DescribeStreams(c *model.Comparison, base, head fs.FS) {
	if c == nil || base == nil || head == nil {
		return
	}
	described := 0
	for i := range c.Changes {
		ch := &c.Changes[i]
		if ch.Content != model.StreamChanged || described == maxStreamsDescribed {
			continue
		}
		described++
		b, okB := commandsOf(base, ch.RelPath)
		h, okH := commandsOf(head, ch.RelPath)
		if okB && okH {
			ch.Stream = diffStreams(b, h)
		}
	}
}

// commandsOf is the fixture's commands, each without the white space
// between its tokens, as the digests compare them.
func commandsOf(fsys fs.FS, rel string) ([]string, bool) {
	data, err := fs.ReadFile(fsys, rel)
	if err != nil {
		return nil, false
	}
	var fx struct {
		Commands []json.RawMessage `json:"commands"`
	}
	if json.Unmarshal(data, &fx) != nil {
		return nil, false
	}
	out := make([]string, len(fx.Commands))
	var buf bytes.Buffer
	for i, raw := range fx.Commands {
		buf.Reset()
		if json.Compact(&buf, raw) != nil {
			return nil, false
		}
		out[i] = buf.String()
	}
	return out, true
}

// diffStreams finds the commands the two streams share at their start
// and at their end; what lies between is changed in place as far as both
// have commands there, and added or removed beyond that. Nil when the
// streams are equal.
func diffStreams(base, head []string) *model.StreamDiff {
	prefix := 0
	for prefix < len(base) && prefix < len(head) && base[prefix] == head[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(base)-prefix && suffix < len(head)-prefix && base[len(base)-1-suffix] == head[len(head)-1-suffix] {
		suffix++
	}
	midBase, midHead := len(base)-prefix-suffix, len(head)-prefix-suffix
	if midBase == 0 && midHead == 0 {
		return nil
	}
	return &model.StreamDiff{First: prefix, BaseCommands: len(base), HeadCommands: len(head),
		Changed: min(midBase, midHead), Added: max(0, midHead-midBase), Removed: max(0, midBase-midHead)}
}
