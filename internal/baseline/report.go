package baseline

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// maxReportSize bounds a JSON report read as a baseline: far above the
// report of a 50,000-fixture corpus, far below what would hurt a runner.
const maxReportSize = 256 << 20

// Decoder reads a JSON report into a run: the JSON report's own reader
// (report/jsonout), given by the front end, since a feature imports no
// renderer.
type Decoder func([]byte) (*model.Run, error)

// ReadReportFile reads the JSON report (of --json-out or --format json) at
// path in ws (the workspace's rules: no links below it, bounded) as a base
// run.
func ReadReportFile(ws workspace.Dir, path string, decode Decoder) (*model.Run, error) {
	data, err := ws.ReadFile(path, maxReportSize)
	if err != nil {
		return nil, fmt.Errorf("baseline report: %w", err)
	}
	if decode == nil {
		return nil, fmt.Errorf("baseline report %s: no reader of JSON reports was given", path)
	}
	run, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("baseline report %s: %w", path, err)
	}
	return run, nil
}
