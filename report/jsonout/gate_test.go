package jsonout_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/corpusgen"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// realCorpus is the upstream corpus beside the repository, when it is
// there.
const realCorpus = "../../../shared/drp2/fixtures"

// jobs runs the gate as run and merge do and holds each run's streamed
// report to the report built and encoded whole, byte for byte.
type jobs struct {
	t   *testing.T
	env gate.Env
	dir string
}

func newJobs(t *testing.T) *jobs {
	dir := t.TempDir()
	env, err := gate.NewEnv(gate.Env{WorkDir: dir, ReadReport: report.ReadRun, ToolVersion: "test",
		Getenv: func(k string) string {
			if k == "SOURCE_DATE_EPOCH" {
				return "0"
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	return &jobs{t: t, env: env, dir: dir}
}

// check writes the run's report both ways, fails unless they are the
// same, and saves it as name in the working folder, for a later job.
func (j *jobs) check(name string, o *gate.Outcome, err error) *model.Run {
	j.t.Helper()
	if err != nil {
		j.t.Fatalf("%s: %v", name, err)
	}
	var whole, streamed bytes.Buffer
	if err := jsonout.WriteWhole(&whole, o.Run); err != nil {
		j.t.Fatalf("%s: %v", name, err)
	}
	if err := jsonout.Write(&streamed, o.Run); err != nil {
		j.t.Fatalf("%s: %v", name, err)
	}
	if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
		j.t.Errorf("%s: the streamed report (%d bytes) differs from the whole document (%d bytes)", name, streamed.Len(), whole.Len())
	}
	if err := os.WriteFile(filepath.Join(j.dir, name), streamed.Bytes(), 0o644); err != nil {
		j.t.Fatal(err)
	}
	return o.Run
}

func (j *jobs) run(name string, req gate.RunRequest) *model.Run {
	j.t.Helper()
	if req.FailOn == (gate.FailOn{}) {
		req.FailOn = gate.FailOn{Mismatch: true}
	}
	o, err := gate.Run(context.Background(), j.env, req)
	return j.check(name, o, err)
}

// TestStreamMatchesDocumentOfRealJobs: the embedded corpus, the upstream
// one, a generated one with mismatches and malformed fixtures, its four
// shards and their merge, a comparison with a baseline report, runs with
// implementations (one that executes and returns readbacks, for the
// Level 2 results and the Level 3 preview) and a re-run of what they
// failed.
func TestStreamMatchesDocumentOfRealJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole corpora")
	}
	j := newJobs(t)
	j.run("embedded.json", gate.RunRequest{Source: gate.Source{Corpus: "embedded"}})
	if _, err := os.Stat(realCorpus); err == nil {
		abs, _ := filepath.Abs(realCorpus)
		j.run("real.json", gate.RunRequest{Source: gate.Source{Corpus: abs}})
	} else {
		t.Logf("no upstream corpus at %s: its run is left out", realCorpus)
	}
	if err := corpusgen.Corpus(fixtures.FS, filepath.Join(j.dir, "generated"), corpusgen.Options{Count: 400, MismatchEvery: 3, BrokenEvery: 11}); err != nil {
		t.Fatal(err)
	}
	gen := gate.Source{Corpus: "generated"}
	whole := j.run("generated.json", gate.RunRequest{Source: gen})
	for k := 1; k <= 4; k++ {
		j.run(fmt.Sprintf("shard-%d.json", k), gate.RunRequest{Source: gen, Shard: &model.Shard{Index: k, Count: 4}})
	}
	o, err := gate.Merge(context.Background(), j.env, gate.MergeRequest{Results: []string{"shard-*.json"}, FailOn: gate.FailOn{Mismatch: true}})
	if merged := j.check("merged.json", o, err); len(merged.Results) != len(whole.Results) {
		t.Errorf("the merge has %d results, the whole run %d", len(merged.Results), len(whole.Results))
	}
	j.run("compared.json", gate.RunRequest{Source: gate.Source{Corpus: "embedded"}, Baseline: "generated.json"})

	py := testkit.PythonExample(t)
	run := j.run("embedded-implementation.json", gate.RunRequest{Source: gate.Source{Corpus: "embedded"}, Implementations: []string{py}})
	if len(run.Implementations) == 0 || len(run.Implementations[0].Readbacks) == 0 || len(model.Parity(run)) == 0 {
		t.Errorf("the implementation returned no readbacks to compare: the Level 3 preview is not tested")
	}
	harness := testkit.Corpus(t, testkit.HarnessCorpus)
	impl := gate.RunRequest{Source: gate.Source{Corpus: filepath.Join(harness, "fixtures")}, Implementations: []string{py}}
	j.run("implementations.json", impl)
	impl.RerunFailed = filepath.Join(j.dir, "implementations.json")
	if rerun := j.run("rerun.json", impl); rerun.Rerun == nil || rerun.Rerun.Carried == 0 {
		t.Errorf("the re-run carried nothing over: %+v", rerun.Rerun)
	}
}
