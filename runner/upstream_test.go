package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// upstreamRoot is the DRP2 checkout beside the project, as CI lays it out.
var upstreamRoot = filepath.Join("..", "..", "shared", "drp2")

// TestUpstreamCorpusSchemaPhases runs the real corpus without the semantic
// phases, with the upstream schemas and with the embedded ones: every
// fixture passes the envelope, every schema negative matches, and no other
// fixture fails the command schema.
func TestUpstreamCorpusSchemaPhases(t *testing.T) {
	corpus := filepath.Join(upstreamRoot, "fixtures")
	if _, err := os.Stat(corpus); err != nil {
		missingUpstream(t, "SKIPPED: the upstream DRP2 corpus is not at %s", corpus)
	}
	for _, set := range []struct{ name, command, fixture string }{
		{"upstream", filepath.Join(upstreamRoot, "schema", "drp_command.json"), filepath.Join(corpus, "schema", "drp_fixture.schema.json")},
		{"embedded", Embedded, Embedded},
	} {
		t.Run(set.name, func(t *testing.T) {
			run := runCorpus(t, Config{Corpus: corpus, CommandSchema: set.command, FixtureSchema: set.fixture})
			if run.Summary.Discovered != 125 || run.Summary.Run != 125 {
				t.Errorf("discovered %d, run %d; want 125", run.Summary.Discovered, run.Summary.Run)
			}
			for _, r := range run.Results {
				switch {
				case r.IsCorpusError():
					t.Errorf("%s: corpus error: %s", r.Path, r.Actual.Message)
				case r.Class == model.ClassSchemaNegative && !r.Passed:
					t.Errorf("%s: schema negative did not match: %+v", r.Path, r.Actual)
				case r.Class != model.ClassSchemaNegative && r.Actual.Phase == model.PhaseSchema:
					t.Errorf("%s: fails the command schema: %s", r.Path, r.Actual.Message)
				}
			}
		})
	}
}

// missingUpstream skips a test that needs the DRP2 spec beside the project,
// except in CI (CI set), where its absence is a failure: a check that
// silently stopped running is worse than a red run.
func missingUpstream(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}
