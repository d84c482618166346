package jsonout

import (
	"io"

	"github.com/drp2/drp2-fixtures/model"
)

// WriteManifest writes a manifest comparison alone as indented JSON, in
// the shape of the report's "manifest" member (manifest check --format
// json). Like the report, it is safe to print to an Actions log: fixture
// paths and expected values are the pull request's.
func WriteManifest(w io.Writer, m *model.ManifestCheck) error { return encode(w, m) }

// WriteCoverage writes a rule coverage alone as indented JSON, in the
// shape of the report's "coverage" member (coverage --format json), safe
// to print to an Actions log.
func WriteCoverage(w io.Writer, c *model.Coverage) error { return encode(w, c) }

// Encode writes any other document (the explorer's report) as the report
// is written: indented JSON in which no "##[" appears, so that it is safe
// to print to an Actions log.
func Encode(w io.Writer, v any) error { return encode(w, v) }
