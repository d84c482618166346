package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
)

// ReadReport reads a JSON report, as read from a file, back into a run
// with Read, the one reader of the format, with the line of a syntax
// error, so that a hand-edited or truncated report says where it broke,
// and refuses a report the published schema rejects.
func ReadReport(data []byte) (*model.Run, error) {
	// A report the fast check vouches for has no key twice and meets the
	// schema: only the typed read is left. Any other goes the whole way,
	// so that its error is the one it has always been.
	if spans, decodable, ok := checkReportSpans(data); ok {
		if run, err := readDocument(data, spans, decodable); err == nil {
			return run, nil
		}
	}
	run, err := Read(bytes.NewReader(data))
	// Checked only when reading failed: a site reads a thousand reports,
	// and a pass over each that finds nothing is time lost.
	if err != nil && !json.Valid(data) {
		var v any
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: %v", describeJSONError(data, json.Unmarshal(data, &v)))
	}
	if err != nil {
		return nil, err
	}
	// After the reader, whose errors (a version of another major, a key
	// twice, a line of broken JSON) say more than the schema's would.
	if err := checkSchema(data); err != nil {
		return nil, err
	}
	return run, nil
}

// describeJSONError adds the line of a syntax error, so that a hand-edited
// or truncated report says where it broke.
func describeJSONError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	default:
		return err.Error()
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	return fmt.Sprintf("line %d: %v", line, err)
}
