package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// maxReportSize bounds a JSON report read as a baseline: far above the
// report of a 50,000-fixture corpus, far below what would hurt a runner.
const maxReportSize = 256 << 20

// ReadReportFile reads the JSON report (of --json-out or --format json) at
// path in ws (the workspace's rules: no links below it, bounded) as a base
// run.
func ReadReportFile(ws workspace.Dir, path string) (*model.Run, error) {
	data, err := ws.ReadFile(path, maxReportSize)
	if err != nil {
		return nil, fmt.Errorf("baseline report: %w", err)
	}
	run, err := ReadReport(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("baseline report %s: %w", path, err)
	}
	return run, nil
}

// ReadReport reads a JSON report back into a run with jsonout.Read, the
// one reader of the format, bounded in size and with the line of a syntax
// error, so that a hand-edited or truncated report says where it broke.
func ReadReport(r io.Reader) (*model.Run, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxReportSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReportSize {
		return nil, fmt.Errorf("larger than %d bytes", maxReportSize)
	}
	if !json.Valid(data) {
		var v any
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: %v", describeJSONError(data, json.Unmarshal(data, &v)))
	}
	return jsonout.Read(bytes.NewReader(data))
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
