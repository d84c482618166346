// Package docs holds the one document of this folder the tool reads
// itself: the JSON report's schema, published for collectors, which every
// report read back (merge, site, diff, a baseline) must satisfy.
package docs

import _ "embed"

// ReportSchema is report.schema.json.
//
//go:embed report.schema.json
var ReportSchema []byte
