package model

// Rerun says that a run sent its implementations only the fixtures an
// earlier report of the same selection did not pass (run --rerun-failed,
// the action's rerun-from), and took the other results from that report,
// each marked Result.Carried. The built-in validator checks every fixture
// again: it is local and deterministic, and its run is what tells which
// fixtures changed since.
type Rerun struct {
	// From is the earlier report, as it was named.
	From string
	// Ran counts the fixtures sent to the implementations again; Carried
	// those whose implementations' results were taken from From.
	Ran, Carried int
}
