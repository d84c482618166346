package model

import (
	"fmt"
	"strings"
)

// Verdict says how a fixture's result moved between a base run and this
// run.
type Verdict string

const (
	// Regressed: passed on the base, fails now.
	Regressed Verdict = "regressed"
	// Fixed: failed on the base, passes now.
	Fixed Verdict = "fixed"
	// AddedFailing and AddedPassing: not in the base.
	AddedFailing Verdict = "added_failing"
	AddedPassing Verdict = "added_passing"
	// Removed: in the base, not here.
	Removed Verdict = "removed"
	// StillFailing: failed on the base and fails now.
	StillFailing Verdict = "still_failing"
	// StillPassing: passed on both; listed only when the content changed.
	StillPassing Verdict = "still_passing"
)

// Verdicts lists the verdicts in report order: regressions first.
var Verdicts = []Verdict{Regressed, Fixed, AddedFailing, AddedPassing, Removed, StillFailing, StillPassing}

// Title is the human name of a verdict, for headings.
func (v Verdict) Title() string {
	switch v {
	case Regressed:
		return "Regressed"
	case Fixed:
		return "Fixed"
	case AddedFailing:
		return "Added, failing"
	case AddedPassing:
		return "Added, passing"
	case Removed:
		return "Removed"
	case StillFailing:
		return "Still failing"
	case StillPassing:
		return "Passing, content changed"
	}
	return string(v)
}

func (v Verdict) rank() int {
	for i, w := range Verdicts {
		if v == w {
			return i
		}
	}
	return len(Verdicts)
}

// Less orders verdicts as Verdicts lists them.
func (v Verdict) Less(w Verdict) bool { return v.rank() < w.rank() }

// ContentChange says how a fixture's file changed, judged by its Digest.
type ContentChange string

const (
	// ContentSame: the file is unchanged, or the change cannot be told
	// (a base without digests).
	ContentSame ContentChange = ""
	// ExpectationChanged: the expected block differs.
	ExpectationChanged ContentChange = "expectation_changed"
	// StreamChanged: the same expectation over different commands.
	StreamChanged ContentChange = "stream_changed"
	// Renamed: the same content at a new path (Change.From is the old one).
	Renamed ContentChange = "renamed"
	// MetadataChanged: commands and expectation unchanged, other members
	// (name, description, tags, ...) differ.
	MetadataChanged ContentChange = "metadata_changed"
	// Broken: readable on the base, a corpus error now (bad JSON, a
	// duplicate key, a truncated file). Its digests differ because the
	// file broke, not because its expectation moved.
	Broken ContentChange = "broken"
)

// Words is the change in the words every report uses, the same in the
// headline, the tables, the text report and the step outputs' names:
// "expectation changed", "stream changed", "renamed", "metadata changed",
// "broken"; "" for ContentSame.
func (c ContentChange) Words() string {
	switch c {
	case ContentSame:
		return ""
	case Broken:
		return "broken"
	}
	return strings.ReplaceAll(string(c), "_", " ")
}

// Side is what one run said about a fixture.
type Side struct {
	Passed   bool
	Expected Expected
	Actual   Actual
}

// Change is one fixture whose verdict or content differs between the base
// and this run, or that fails in both.
type Change struct {
	// RelPath is the corpus-relative path here (the base's for Removed);
	// Path is the display path of the same result.
	RelPath string
	Path    string
	Name    string
	Verdict Verdict
	Content ContentChange
	// From is the base's corpus-relative path of a renamed fixture.
	From string
	// Base and Head are the two results; nil on the side where the
	// fixture does not exist.
	Base, Head *Side
}

// Delta counts a comparison's changes. ExpectationChanged, StreamChanged,
// Renamed and Broken count content changes whatever the verdict.
type Delta struct {
	Regressed          int
	Fixed              int
	StillFailing       int
	AddedPassing       int
	AddedFailing       int
	Removed            int
	ExpectationChanged int
	StreamChanged      int
	Renamed            int
	Broken             int
}

// Added is the number of fixtures added, passing or failing.
func (d Delta) Added() int { return d.AddedPassing + d.AddedFailing }

// Comparison is a run compared with a base run, fixture by fixture, keyed
// by corpus-relative path.
type Comparison struct {
	// Base names the baseline for people: a short commit ("abc1234"), a
	// folder or a report file.
	Base string
	// Commit is the base commit's full hash when the base came from git.
	Commit string
	// Unavailable, when set, says why there is no comparison and what to do
	// about it; every other field is then empty.
	Unavailable string
	// Notes say what of the base could not be read (a corrupt folder of a
	// base commit), the comparison being made with the rest.
	Notes []string

	// CommandSchemaChanged and FixtureSchemaChanged: the schema's sha256
	// differs from the base's.
	CommandSchemaChanged bool
	FixtureSchemaChanged bool
	BaseCommandSchema    SchemaSource
	BaseFixtureSchema    SchemaSource

	// Changes are ordered by Verdicts, then by RelPath.
	Changes []Change
}

// SchemasChanged reports whether either schema differs from the base's.
func (c *Comparison) SchemasChanged() bool {
	return c != nil && (c.CommandSchemaChanged || c.FixtureSchemaChanged)
}

// Delta tallies the changes.
func (c *Comparison) Delta() Delta {
	var d Delta
	for i := range c.Changes {
		ch := &c.Changes[i]
		switch ch.Verdict {
		case Regressed:
			d.Regressed++
		case Fixed:
			d.Fixed++
		case StillFailing:
			d.StillFailing++
		case AddedPassing:
			d.AddedPassing++
		case AddedFailing:
			d.AddedFailing++
		case Removed:
			d.Removed++
		}
		switch ch.Content {
		case ExpectationChanged:
			d.ExpectationChanged++
		case StreamChanged:
			d.StreamChanged++
		case Renamed:
			d.Renamed++
		case Broken:
			d.Broken++
		}
	}
	return d
}

// Headline is the delta in one line of plain text, for titles and lead
// sentences: "2 regressed (1 broken), 3 fixed, 5 added against base
// abc1234". Each fixture is counted once: by its verdict, with how its file
// changed in parentheses, or, when its verdict did not move, by the change
// alone ("1 renamed"). Parts that are zero are left out; with no change it
// says so. It names the base as given, so sinks escape it like any other
// text.
func (c *Comparison) Headline() string {
	if c == nil {
		return ""
	}
	if c.Unavailable != "" {
		return "no comparison with the base"
	}
	// content[v] counts the content changes of the fixtures of verdict v,
	// in the order of contentOrder.
	content := map[Verdict]map[ContentChange]int{}
	count := map[Verdict]int{}
	for i := range c.Changes {
		ch := &c.Changes[i]
		v := ch.Verdict
		if v == AddedPassing {
			v = AddedFailing // one "added" part
		}
		count[v]++
		if ch.Content != ContentSame {
			if content[v] == nil {
				content[v] = map[ContentChange]int{}
			}
			content[v][ch.Content]++
		}
	}
	var parts []string
	changes := func(v Verdict) []string {
		var out []string
		for _, cc := range contentOrder {
			if n := content[v][cc]; n > 0 {
				out = append(out, fmt.Sprintf("%d %s", n, cc.Words()))
			}
		}
		return out
	}
	for _, v := range []Verdict{Regressed, Fixed, AddedFailing, Removed} {
		if count[v] == 0 {
			continue
		}
		word := string(v)
		if v == AddedFailing {
			word = "added"
		}
		part := fmt.Sprintf("%d %s", count[v], word)
		if in := changes(v); len(in) > 0 && v != AddedFailing {
			part += " (" + strings.Join(in, ", ") + ")"
		}
		parts = append(parts, part)
	}
	// Fixtures whose verdict did not move are counted by their change.
	still := map[ContentChange]int{}
	for _, v := range []Verdict{StillFailing, StillPassing} {
		for cc, n := range content[v] {
			still[cc] += n
		}
	}
	for _, cc := range contentOrder {
		if n := still[cc]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, cc.Words()))
		}
	}
	if c.SchemasChanged() {
		parts = append(parts, "schemas changed")
	}
	text := "no change"
	if len(parts) > 0 {
		text = strings.Join(parts, ", ")
	}
	return text + " against base " + c.Base
}

// contentOrder is the order the headline names content changes in: the
// broken file first, the likeliest cause of red. A change of metadata
// alone (a re-indented file, a new description) is left to the tables.
var contentOrder = []ContentChange{Broken, ExpectationChanged, StreamChanged, Renamed}
