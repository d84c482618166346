package model

// Transition says how a fixture's result moved between a base run and this
// run.
type Transition string

const (
	// Regressed: passed on the base, fails now.
	Regressed Transition = "regressed"
	// Fixed: failed on the base, passes now.
	Fixed Transition = "fixed"
	// AddedFailing and AddedPassing: not in the base.
	AddedFailing Transition = "added_failing"
	AddedPassing Transition = "added_passing"
	// Removed: in the base, not here.
	Removed Transition = "removed"
	// StillFailing: failed on the base and fails now.
	StillFailing Transition = "still_failing"
	// StillPassing: passed on both; listed only when the content changed.
	StillPassing Transition = "still_passing"
)

// Transitions lists the transitions in report order: regressions first.
var Transitions = []Transition{Regressed, Fixed, AddedFailing, AddedPassing, Removed, StillFailing, StillPassing}

func (v Transition) rank() int {
	for i, w := range Transitions {
		if v == w {
			return i
		}
	}
	return len(Transitions)
}

// Less orders transitions as Transitions lists them.
func (v Transition) Less(w Transition) bool { return v.rank() < w.rank() }

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

// Side is what one run said about a fixture.
type Side struct {
	Passed   bool
	Expected Expected
	Actual   Actual
	// KnownFailure says, of the base's side, that the fixture failed and
	// an entry of the base's lists excused it: a known failure the change
	// removed reads apart from a failure removed.
	KnownFailure bool
}

// Change is one fixture whose result moved or whose content differs
// between the base and this run, or that fails in both.
type Change struct {
	// RelPath is the corpus-relative path here (the base's for Removed);
	// Path is the display path of the same result.
	RelPath    string
	Path       string
	Name       string
	Transition Transition
	Content    ContentChange
	// From is the base's corpus-relative path of a renamed fixture.
	From string
	// Base and Head are the two results; nil on the side where the
	// fixture does not exist.
	Base, Head *Side
	// Stream says which commands differ, for a StreamChanged fixture
	// whose base and head files could both be read; nil otherwise.
	Stream *StreamDiff
}

// StreamDiff is how the commands of one fixture changed: everything from
// the first command that differs up to the last, counted as commands
// changed in place and commands added or removed.
type StreamDiff struct {
	// First is the index of the first command that differs.
	First int
	// BaseCommands and HeadCommands are the lengths of the two streams.
	BaseCommands, HeadCommands int
	Changed, Added, Removed    int
}

// Delta counts a comparison's changes. ExpectationChanged, StreamChanged,
// Renamed and Broken count content changes whatever the transition.
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
	// Known is how the known-failures list and expectations files differ
	// from the base's, when the run has them: only an entry the base had
	// excuses a regression, or any failure of an implementation.
	Known *KnownChange

	// CommandSchemaChanged and FixtureSchemaChanged: the schema's sha256
	// differs from the base's.
	CommandSchemaChanged bool
	FixtureSchemaChanged bool
	BaseCommandSchema    SchemaSource
	BaseFixtureSchema    SchemaSource
	// CommandSchemaFiles and FixtureSchemaFiles name the files of each
	// schema's closure that differ from the base's: changed, added or
	// removed, in path order (SchemaFilesChanged).
	CommandSchemaFiles []string
	FixtureSchemaFiles []string
	// SchemaFailure is the schema error the most fixtures newly fail with,
	// when a schema changed and fixtures now fail the schema phases: what
	// the schema change did, in one example.
	SchemaFailure *SchemaFailure

	// Changes are ordered by Transitions, then by RelPath.
	Changes []Change
	// Implementations compare each implementation of the run with the
	// base's, in the run's order; none when the run has none.
	Implementations []ImplementationDelta
}

// IsCommitHash reports whether s looks like a git commit hash, whole or
// abbreviated: seven or more lowercase hex digits.
func IsCommitHash(s string) bool {
	if len(s) < 7 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// SchemaFailure is a schema error that fixtures fail with now and did not
// on the base.
type SchemaFailure struct {
	// Message is the error, without the index of the command it was
	// found at, which may differ from fixture to fixture; Path is the
	// display path of the first fixture that fails with it.
	Message string
	Path    string
	// Fixtures counts the fixtures that newly fail with Message; All those
	// that newly fail a schema phase with any message.
	Fixtures int
	All      int
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
		switch ch.Transition {
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

// ImplementationDelta is one implementation of the run compared with the
// same implementation on the base, fixture by fixture: matched by the name
// it says in its hello (its version may differ: the pull request builds a
// new one), else by its command line when it says no name. A fixture it
// does not claim on either side is left out; one the base implementation
// has no result for is added.
type ImplementationDelta struct {
	// Label is the implementation's (Implementation.Label); Base the
	// label of the base implementation it was matched with, "" when the
	// base has none, every fixture then added.
	Label string
	Base  string
	// Regressed, Fixed and AddedFailing are the display paths of the
	// fixtures that passed on the base and fail now, that failed and
	// pass, that fail and have no base result, in the run's order.
	Regressed    []string
	Fixed        []string
	AddedFailing []string
	AddedPassing int
}

// NewFailures counts the fixtures that fail for the implementation now
// and did not on the base: regressed, and added failing.
func (d *ImplementationDelta) NewFailures() int { return len(d.Regressed) + len(d.AddedFailing) }

// KnownChange is how a run's known-failures list and expectations files
// differ from the ones its base had (read at the base commit, or in the
// base folder), and which failures an entry the base did not have excused.
type KnownChange struct {
	// Unknown says the base's list cannot be known (a baseline given as
	// a report, a list outside the repository): then no entry excuses a
	// regression.
	Unknown bool
	// Added and Removed are the corpus paths listed here and not on the
	// base, and the reverse, sorted.
	Added, Removed []string
	// Files are the lists that hold the entries added and removed, as
	// they were given.
	Files []ListFile
	// Unexcused are the corpus paths of the failures an entry excused
	// that the base did not have (or whose base list cannot be read),
	// fixtures skipped and passes on a retry among them: their failure
	// counts.
	Unexcused []string
}

// ListFile is one list of expectations, named as it was given.
type ListFile struct {
	Path string
	// Known: the known-failures list, not an expectations file.
	Known bool
}

// Changed says whether the list differs from the base's.
func (k *KnownChange) Changed() bool { return k != nil && (len(k.Added) > 0 || len(k.Removed) > 0) }
