package runner

import (
	"context"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// findingChecker is fakeChecker with one finding for every stream.
type findingChecker struct{ fakeChecker }

func (c *findingChecker) Check(ctx context.Context, s model.Stream, trace func(string)) (*model.Failure, []model.Finding) {
	f, _ := c.fakeChecker.Check(ctx, s, trace)
	return f, []model.Finding{{Kind: model.FindingReadbackData, Message: "stream finding"}}
}

// A checker's findings reach the run with the fixture's path; schema
// negatives never reach the checker, so they have none.
func TestCheckerFindingsReachTheRun(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/a.json":        fixtureJSON("a", success, hello, reply, buffer),
		"negative_schema/b.json": fixtureJSON("b", schemaError(2), hello, reply, `{"cmd": "CreateBuffer", "id": 2}`),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: &findingChecker{}})
	var got []model.Finding
	for _, f := range run.Findings {
		if f.Kind == model.FindingReadbackData {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Path != "positive/a.json" || got[0].Message != "stream finding" {
		t.Fatalf("findings: %+v", run.Findings)
	}
	if r := byPath(run)["positive/a.json"]; !r.Passed || len(r.Findings) != 1 {
		t.Fatalf("result: passed %v, findings %+v", r.Passed, r.Findings)
	}
	if run.Summary.Findings != len(run.Findings) {
		t.Fatalf("summary counts %d findings, run has %d", run.Summary.Findings, len(run.Findings))
	}
}
