package model

// Shard is one part of a run split across jobs: the Index-th (from 1) of
// Count parts. A fixture's part depends on its corpus path alone
// (runner.ShardOf), so adding or removing a fixture never moves another
// one to a different part, and the parts of one selection are disjoint
// and cover it; or, for parts balanced by measured time, on its path and
// the timings report alone (Placement).
type Shard struct {
	Index, Count int
	// Timings is the hex SHA-256 of the timings report the parts were
	// balanced by (--shard-timings); empty for parts by path hash. Every
	// part of one split records the same, and merge checks that they do.
	Timings string
	// Placement is the part of each fixture the timings report names;
	// nil for parts by path hash and in a report read back (a merge
	// trusts each part's results to be its own and checks that no
	// fixture is in two).
	Placement *Placement
}

// Placement maps the corpus path of every fixture a timings report names
// to its part (1 to Count); a fixture it does not name is placed by the
// hash of its path.
type Placement struct {
	Parts map[string]int
}
