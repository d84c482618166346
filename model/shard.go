package model

// Shard is one part of a run split across jobs: the Index-th (from 1) of
// Count parts. A fixture's part depends on its corpus path alone
// (runner.ShardOf), so adding or removing a fixture never moves another
// one to a different part, and the parts of one selection are disjoint
// and cover it.
type Shard struct {
	Index, Count int
}
