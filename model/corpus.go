package model

// CorpusSearch is how the corpus of a run was chosen when none was named:
// the front ends' one discovery of the working directory. A run whose
// corpus was named has none.
type CorpusSearch struct {
	// By is the rule that chose the corpus.
	By CorpusRule
	// Truncated says the search stopped at its bound before it had seen
	// the whole working directory: the corpus it found need not be the
	// only one.
	Truncated bool
	// Base is the short hash of the pull request's base commit when the
	// search read its tree rather than the pull request's checkout, so
	// that the pull request cannot choose the corpus; "" otherwise.
	Base string
	// HeadFound is the corpus the pull request's own checkout would have
	// given, when it differs from the base's ("" when the same, or none).
	HeadFound string
}

// CorpusRule is the rule of the discovery that chose a corpus, in the
// order the rules are tried.
type CorpusRule int

const (
	// CorpusOfPath is the corpus holding the first path the filters name.
	CorpusOfPath CorpusRule = iota + 1
	// CorpusUpstream is the upstream layout, spec/drp2/fixtures.
	CorpusUpstream
	// CorpusConventional is ./fixtures.
	CorpusConventional
	// CorpusSearched is the one corpus a search of the folders found.
	CorpusSearched
	// CorpusNone: no corpus was found, and the embedded one ran.
	CorpusNone
)
