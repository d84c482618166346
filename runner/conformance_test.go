package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// TestUpstreamCorpusConformance runs the real DRP2 corpus through every
// phase with the upstream and with the embedded schemas: all 125 fixtures
// must match their expectations exactly (CONFORMANCE.md, Level 1).
func TestUpstreamCorpusConformance(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "drp2")
	corpus := filepath.Join(shared, "fixtures")
	if _, err := os.Stat(corpus); err != nil {
		missingUpstream(t, "SKIPPED: the upstream DRP2 corpus is not at %s", corpus)
	}
	for _, set := range []struct{ name, command, fixture string }{
		{"upstream", filepath.Join(shared, "schema", "drp_command.json"), filepath.Join(corpus, "schema", "drp_fixture.schema.json")},
		{"embedded", runner.Embedded, runner.Embedded},
	} {
		t.Run(set.name, func(t *testing.T) {
			run, err := runner.Run(context.Background(), runner.Config{Corpus: corpus,
				CommandSchema: set.command, FixtureSchema: set.fixture, Checker: drp2.New()})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range run.Results {
				if !r.Passed {
					t.Errorf("%s: expected %+v, got %s %s %s %v: %s", r.Path, r.Expected, r.Actual.Outcome, r.Actual.Phase, r.Actual.Code, deref(r.Actual.CommandIndex), r.Actual.Message)
				}
			}
			if run.Summary.Run != 125 || run.Summary.Passed != 125 {
				t.Errorf("summary: %+v", run.Summary)
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// missingUpstream skips a test that needs the DRP2 spec beside the project,
// except in CI (CI set), where its absence is a failure.
func missingUpstream(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}
