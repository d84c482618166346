package jsoncompact

// go test ./... -update passes -update to every package; the golden
// package defines it.
import _ "github.com/drp2/drp2-fixtures/internal/golden"
