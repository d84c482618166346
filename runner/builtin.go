package runner

import "github.com/drp2/drp2-fixtures/fixtures"

// BuiltinCorpus is the corpus built into the binary (the project's own,
// package fixtures): the corpus a run takes when none is given.
var BuiltinCorpus = fixtures.FS
