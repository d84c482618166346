package runner

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// withOverlapMin sets the overlap threshold for one test.
func withOverlapMin(t *testing.T, n int) {
	old := overlapMin
	overlapMin = n
	t.Cleanup(func() { overlapMin = old })
}

// longCommands is a generated valid stream of n commands with the given
// commands replaced, as fixture text.
func longCommands(n int, replace map[int]string) []string {
	var out []string
	for i, raw := range drp2.GenerateStream(n).Commands {
		if r, ok := replace[i]; ok {
			raw = json.RawMessage(r)
		}
		out = append(out, string(raw))
	}
	return out
}

const (
	unknownBuffer = `{"cmd": "DestroyBuffer", "buffer_id": 123456789}`
	badSize       = `{"cmd": "CreateBuffer", "id": 99999999, "size": "x", "usage": ["COPY_DST"]}`
)

// runBoth runs a corpus with the checker beside the command schema and
// after it, and asserts that the two runs are the same.
func runBoth(t *testing.T, cfg Config) *model.Run {
	t.Helper()
	withOverlapMin(t, 1)
	overlapped := runCorpus(t, cfg)
	overlapMin = math.MaxInt
	serial := runCorpus(t, cfg)
	if !reflect.DeepEqual(overlapped, serial) {
		for i := range serial.Results {
			if i < len(overlapped.Results) && !reflect.DeepEqual(overlapped.Results[i], serial.Results[i]) {
				t.Errorf("%s: beside the schema %+v, after it %+v", serial.Results[i].Path, overlapped.Results[i].Actual, serial.Results[i].Actual)
			}
		}
		t.Fatalf("runs differ")
	}
	return serial
}

// TestOverlapKeepsVerdicts: long streams failing the schema, the checker,
// both (the schema's failure comes later in the stream but is the
// verdict), or neither, give the same run with the checker beside the
// command schema as after it.
func TestOverlapKeepsVerdicts(t *testing.T) {
	const n = 20000
	root := writeCorpus(t, map[string]string{
		"positive/long_ok.json":          fixtureJSON("long_ok", success, longCommands(n, nil)...),
		"positive/long_semantic.json":    fixtureJSON("long_semantic", success, longCommands(n, map[int]string{15000: unknownBuffer})...),
		"positive/long_both.json":        fixtureJSON("long_both", success, longCommands(n, map[int]string{300: unknownBuffer, 19000: badSize})...),
		"negative/long_semantic.json":    fixtureJSON("long_semantic", semanticError("DRP2_ERR_INVALID_ID", 15000), longCommands(n, map[int]string{15000: unknownBuffer})...),
		"negative/long_both.json":        fixtureJSON("long_both", semanticError("DRP2_ERR_INVALID_ID", 300), longCommands(n, map[int]string{300: unknownBuffer, 19000: badSize})...),
		"negative_schema/long_both.json": fixtureJSON("long_both", schemaError(19000), longCommands(n, map[int]string{300: unknownBuffer, 19000: badSize})...),
		"negative_schema/long_ok.json":   fixtureJSON("long_ok", schemaError(1), longCommands(n, nil)...),
	})
	run := runBoth(t, Config{Corpus: root, Checker: drp2.New()})
	r := byPath(run)["positive/long_both.json"]
	if r.Actual.Phase != model.PhaseSchema || r.Actual.CommandIndex == nil || *r.Actual.CommandIndex != 19000 {
		t.Fatalf("long_both: %+v", r.Actual)
	}
}

// TestOverlapKeepsVerdictsOnTheCorpora runs the project's corpus and the
// upstream one with every stream's checker beside its command schema.
func TestOverlapKeepsVerdictsOnTheCorpora(t *testing.T) {
	runBoth(t, Config{EmbeddedFS: BuiltinCorpus, Checker: drp2.New()})
	corpus := filepath.Join(upstreamRoot, "fixtures")
	if _, err := os.Stat(corpus); err != nil {
		missingUpstream(t, "SKIPPED: the upstream DRP2 corpus is not at %s", corpus)
	}
	runBoth(t, Config{Corpus: corpus, Checker: drp2.New()})
}

// panicChecker panics on every stream; waitChecker waits for its context.
type (
	panicChecker struct{}
	waitChecker  struct{}
)

func (panicChecker) Check(context.Context, model.Stream, func(string)) (*model.Failure, []model.Finding) {
	panic("checker panic")
}
func (panicChecker) ChecksAnyCommands() bool { return true }

func (waitChecker) Check(ctx context.Context, _ model.Stream, _ func(string)) (*model.Failure, []model.Finding) {
	<-ctx.Done()
	return &model.Failure{Phase: model.PhaseSemantic, Unjudged: true, Message: "stopped"}, nil
}
func (waitChecker) ChecksAnyCommands() bool { return true }

// TestOverlapDiscardsTheCheckerOnSchemaFailure: a checker's panic costs
// the fixture as it would after the schema, and nothing when the schema
// fails; a checker beside a failing schema is stopped, and no goroutine
// is left.
func TestOverlapDiscardsTheCheckerOnSchemaFailure(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/a.json":        fixtureJSON("a", success, hello, reply, buffer),
		"negative_schema/b.json": fixtureJSON("b", schemaError(2), hello, reply, `{"cmd": "CreateBuffer", "id": 2}`),
		"positive/c.json":        fixtureJSON("c", success, hello, reply, strings.ReplaceAll(badSize, "99999999", "3")),
	})
	run := runBoth(t, Config{Corpus: root, Checker: panicChecker{}})
	if r := byPath(run)["positive/a.json"]; r.Actual.Code != "DRP2_ERR_INTERNAL" {
		t.Fatalf("a: %+v", r.Actual)
	}
	if r := byPath(run)["positive/c.json"]; r.Actual.Phase != model.PhaseSchema {
		t.Fatalf("c: %+v", r.Actual)
	}
	withOverlapMin(t, 1)
	before := runtime.NumGoroutine()
	root = writeCorpus(t, map[string]string{"positive/c.json": fixtureJSON("c", success, hello, reply, strings.ReplaceAll(badSize, "99999999", "3"))})
	for i := 0; i < 10; i++ {
		if r := byPath(runCorpus(t, Config{Corpus: root, Checker: waitChecker{}}))["positive/c.json"]; r.Actual.Phase != model.PhaseSchema {
			t.Fatalf("c: %+v", r.Actual)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines before, %d after", before, runtime.NumGoroutine())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
