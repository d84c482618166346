package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// maxReportSize bounds a JSON report read as a baseline: far above the
// report of a 50,000-fixture corpus, far below what would hurt a runner.
const maxReportSize = 256 << 20

// ReadReportFile reads the JSON report (of --json-out or --format json) at
// path as a base run.
func ReadReportFile(path string) (*model.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("baseline report: %w", err)
	}
	defer f.Close()
	run, err := ReadReport(f)
	if err != nil {
		return nil, fmt.Errorf("baseline report %s: %w", path, err)
	}
	return run, nil
}

// ReadReport reads a JSON report back into a run: enough of each result to
// compare (path, name, class, expected, actual, verdict, digest) and the
// schema sources. A report without corpus_path on a result is refused: the
// comparison is keyed by it.
func ReadReport(r io.Reader) (*model.Run, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxReportSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReportSize {
		return nil, fmt.Errorf("larger than %d bytes", maxReportSize)
	}
	var doc jsonout.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: %v", describeJSONError(data, err))
	}
	if doc.Results == nil {
		return nil, errors.New(`not a drp2-fixtures JSON report: no "results" array`)
	}
	run := &model.Run{
		CorpusRoot:    doc.Summary.Corpus,
		ToolVersion:   doc.Summary.ToolVersion,
		CommandSchema: doc.Summary.CommandSchema,
		FixtureSchema: doc.Summary.FixtureSchema,
		Findings:      doc.Findings,
		Results:       make([]model.Result, 0, len(doc.Results)),
	}
	for i, jr := range doc.Results {
		if jr.CorpusPath == "" {
			return nil, fmt.Errorf("results[%d] (%q) has no corpus_path", i, jr.FixturePath)
		}
		res := model.Result{
			Path:    jr.FixturePath,
			RelPath: jr.CorpusPath,
			Name:    jr.FixtureName,
			Class:   parseClass(jr.Class),
			Passed:  jr.Passed,
			Expected: model.Expected{
				Outcome: deref(jr.ExpectedOutcome), Phase: deref(jr.ExpectedPhase),
				Code: deref(jr.ExpectedCode), CommandIndex: jr.ExpectedCommandIndex,
			},
			Actual: model.Actual{
				Outcome: model.Outcome(jr.ActualOutcome), Phase: model.Phase(deref(jr.ActualPhase)),
				Code: deref(jr.ActualCode), CommandIndex: jr.ActualCommandIndex,
				Message: deref(jr.Message), Rule: deref(jr.Rule),
			},
			Span: jr.Location,
		}
		if jr.CorpusError {
			res.Actual.Outcome = model.CorpusError
		}
		if jr.Digest != nil {
			res.Digest = *jr.Digest
		}
		run.Results = append(run.Results, res)
	}
	run.Summary = model.Summarize(doc.Summary.Discovered, run.Results, run.Findings)
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

func parseClass(s string) model.Class {
	for _, c := range model.Classes {
		if c.String() == s {
			return c
		}
	}
	return model.ClassUnknown
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
