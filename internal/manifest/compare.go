package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// The kinds of change a fixture goes through between the manifest and
// the corpus (model.ManifestChange.Kind).
const (
	Added   = "added"
	Removed = "removed"
	// Renamed: a fixture is gone from one path and one with the same
	// commands and expected block appeared at another.
	Renamed = "renamed"
	Changed = "changed"
)

// The parts of a fixture that can change (model.ManifestChange.Aspects).
const (
	AspectExpected     = "expected"
	AspectCommands     = "commands"
	AspectCapabilities = "capabilities"
	AspectVersion      = "version"
	// AspectOther: the file changed elsewhere (name, description, tags,
	// notes, formatting).
	AspectOther = "other"
	// AspectUnusable: the fixture is now a corpus error, so what it
	// expects cannot be told.
	AspectUnusable = "unusable"
)

// semantic reports whether a change to the aspect can change what the
// fixture means: its stream, the capabilities its stream is checked
// against, the version it declares, or its expectation.
func semantic(aspect string) bool { return aspect != AspectOther }

// Compare compares the corpus as it is now (cur, from Build) with the
// recorded manifest, as the model carries the comparison to every report
// (the caller sets Path and CheckClean). Changes come in path order. When
// rec is frozen, a removed or renamed fixture, a change to an existing
// fixture's expectation, stream, capabilities or version, a changed schema
// and a changed DRP2 version are violations; added fixtures never are.
func Compare(rec, cur *Manifest) *model.ManifestCheck {
	c := &model.ManifestCheck{Frozen: rec.Frozen, DRP2Version: rec.DRP2Version}
	if cur.DRP2Version != rec.DRP2Version {
		c.CurrentVersion = cur.DRP2Version
		if c.CurrentVersion == "" {
			c.CurrentVersion = "(mixed)"
		}
		if rec.Frozen {
			c.Violations++
		}
	}
	compareSchemas(c, rec, cur)
	compareFixtures(c, rec, cur)
	for i := range c.Changes {
		ch := &c.Changes[i]
		ch.Violation = rec.Frozen && breaksFreeze(ch)
		if ch.Violation {
			c.Violations++
		}
		if ch.Description == "" {
			ch.Description = describe(ch)
		}
	}
	c.Headline = headline(c)
	return c
}

// compareSchemas adds the schemas whose recorded path or bytes differ.
func compareSchemas(c *model.ManifestCheck, rec, cur *Manifest) {
	for _, s := range []struct {
		which    string
		rec, cur Schema
	}{{"command", rec.Schemas.Command, cur.Schemas.Command}, {"fixture", rec.Schemas.Fixture, cur.Schemas.Fixture}} {
		changed, files := model.SchemaChange(s.rec.source(), s.cur.source())
		same := !changed
		if same && s.rec.Path == s.cur.Path {
			continue
		}
		// A schema found at another path with the same content is the
		// same schema: only its content (the files of its closure) can
		// break a freeze.
		ch := model.ManifestSchema{Which: s.which, RecordedPath: s.rec.Path, RecordedSHA256: s.rec.SHA256,
			CurrentPath: s.cur.Path, CurrentSHA256: s.cur.SHA256, Violation: rec.Frozen && !same,
			RecordedClosure: s.rec.Closure, CurrentClosure: s.cur.Closure, Files: files, Span: rec.schemaSpans[s.which]}
		if ch.Violation {
			c.Violations++
		}
		c.SchemasChanged = append(c.SchemasChanged, s.which)
		c.Schemas = append(c.Schemas, ch)
	}
}

// compareFixtures adds the fixtures changed, renamed, added and removed,
// in path order, and counts those unchanged.
func compareFixtures(c *model.ManifestCheck, rec, cur *Manifest) {
	old := map[string]*Fixture{}
	for i := range rec.Fixtures {
		old[rec.Fixtures[i].Path] = &rec.Fixtures[i]
	}
	now := map[string]*Fixture{}
	for i := range cur.Fixtures {
		now[cur.Fixtures[i].Path] = &cur.Fixtures[i]
	}
	var added, removed []*Fixture
	for i := range cur.Fixtures {
		f := &cur.Fixtures[i]
		r, ok := old[f.Path]
		if !ok {
			added = append(added, f)
			continue
		}
		if ch, changed := diff(r, f); changed {
			c.Changes = append(c.Changes, ch)
		} else {
			c.Unchanged++
		}
	}
	for i := range rec.Fixtures {
		if _, ok := now[rec.Fixtures[i].Path]; !ok {
			removed = append(removed, &rec.Fixtures[i])
		}
	}
	c.Changes = append(c.Changes, renames(&added, &removed)...)
	for _, f := range added {
		c.Changes = append(c.Changes, model.ManifestChange{Kind: Added, Path: f.Path, Span: f.span})
	}
	for _, f := range removed {
		c.Changes = append(c.Changes, model.ManifestChange{Kind: Removed, Path: f.Path, Span: f.span, InManifest: true})
	}
	sort.SliceStable(c.Changes, func(i, j int) bool { return c.Changes[i].Path < c.Changes[j].Path })
}

// count returns how many fixture changes are of kind k.
func count(c *model.ManifestCheck, kind string) int {
	n := 0
	for _, ch := range c.Changes {
		if ch.Kind == kind {
			n++
		}
	}
	return n
}

func breaksFreeze(ch *model.ManifestChange) bool {
	switch ch.Kind {
	case Added:
		return false
	case Removed, Renamed:
		return true
	}
	for _, a := range ch.Aspects {
		if semantic(a) {
			return true
		}
	}
	return false
}

// diff compares one fixture as recorded and as it is now.
func diff(rec, cur *Fixture) (model.ManifestChange, bool) {
	ch := model.ManifestChange{Kind: Changed, Path: cur.Path, Span: cur.span}
	if cur.unusable != "" {
		if rec.SHA256.File == cur.SHA256.File {
			return ch, false
		}
		ch.Aspects = []string{AspectUnusable}
		ch.Description = "now unusable: " + cur.unusable
		return ch, true
	}
	if canonical(rec.Expected) != canonical(cur.Expected) {
		ch.Aspects = append(ch.Aspects, AspectExpected)
		ch.Expected = members(rec.Expected, cur.Expected)
	}
	if rec.SHA256.Commands != cur.SHA256.Commands {
		ch.Aspects = append(ch.Aspects, AspectCommands)
		if len(ch.Aspects) == 1 {
			ch.Span = cur.commandsSpan
		}
	}
	if rec.SHA256.Capabilities != cur.SHA256.Capabilities {
		ch.Aspects = append(ch.Aspects, AspectCapabilities)
	}
	if rec.Version != cur.Version {
		ch.Aspects = append(ch.Aspects, AspectVersion)
	}
	if len(ch.Aspects) == 0 && (rec.SHA256.File != cur.SHA256.File || rec.Name != cur.Name || rec.Class != cur.Class) {
		ch.Aspects = append(ch.Aspects, AspectOther)
	}
	return ch, len(ch.Aspects) > 0
}

// members lists the members of two expected blocks that differ, in
// member order, as "member: old → new".
func members(rec, cur any) []string {
	a, aok := rec.(map[string]any)
	b, bok := cur.(map[string]any)
	if !aok || !bok {
		return []string{fmt.Sprintf("%s → %s", show(rec), show(cur))}
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		av, inA := a[k]
		bv, inB := b[k]
		if inA && inB && canonical(av) == canonical(bv) {
			continue
		}
		old, now := "(absent)", "(absent)"
		if inA {
			old = show(av)
		}
		if inB {
			now = show(bv)
		}
		out = append(out, fmt.Sprintf("%s: %s → %s", k, old, now))
	}
	return out
}

func show(v any) string {
	if v == nil {
		return "(absent)"
	}
	return canonical(v)
}

// renames pairs removed and added fixtures that are one fixture moved
// (model.MatchRenames). Paired fixtures leave both lists, which are in
// path order.
func renames(added, removed *[]*Fixture) []model.ManifestChange {
	from := model.MatchRenames(digests(*removed), digests(*added))
	var out []model.ManifestChange
	var left []*Fixture
	gone := map[int]bool{}
	for j, f := range *added {
		i, ok := from[j]
		if !ok {
			left = append(left, f)
			continue
		}
		gone[i] = true
		out = append(out, model.ManifestChange{Kind: Renamed, Path: f.Path, From: (*removed)[i].Path, Span: f.span})
	}
	var still []*Fixture
	for i, f := range *removed {
		if !gone[i] {
			still = append(still, f)
		}
	}
	*added, *removed = left, still
	return out
}

// digests are the fixtures' sums as the runner's digests; an unusable
// fixture has none, so it is never taken for a rename.
func digests(fs []*Fixture) []model.Digest {
	out := make([]model.Digest, len(fs))
	for i, f := range fs {
		if f.unusable == "" {
			out[i] = model.Digest{File: f.SHA256.File, Commands: f.SHA256.Commands, Expected: f.SHA256.Expected}
		}
	}
	return out
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// describe says in words what a change is, for text and annotations: for
// a changed fixture, what changed.
func describe(ch *model.ManifestChange) string {
	switch ch.Kind {
	case Added:
		return "added"
	case Removed:
		return "removed"
	case Renamed:
		return "renamed from " + ch.From
	}
	parts := make([]string, 0, len(ch.Aspects))
	for _, a := range ch.Aspects {
		switch a {
		case AspectExpected:
			s := "expected block"
			if len(ch.Expected) > 0 {
				s += " (" + strings.Join(ch.Expected, "; ") + ")"
			}
			parts = append(parts, s)
		case AspectOther:
			parts = append(parts, "other members")
		default:
			parts = append(parts, a)
		}
	}
	return strings.Join(parts, ", ")
}
