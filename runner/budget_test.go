package runner

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
)

// budgetCorpus is a positive and a schema-negative fixture of the project's
// corpus, and a schema negative whose one command has a "boom" member.
func budgetCorpus(t *testing.T) fstest.MapFS {
	t.Helper()
	corpus := fstest.MapFS{"negative_schema/invalid_boom.json": {Data: []byte(`{"name":"invalid_boom","version":{"major":2,"minor":0},` +
		`"commands":[{"cmd":"HelloRenderer","boom":1}],"expected":{"outcome":"error","phase":"schema_validation","code":"DRP2_ERR_INVALID_ARGUMENT","command_index":0}}`)}}
	for _, p := range []string{"positive/compute_dispatch_with_pipeline.json", "negative_schema/invalid_schema_bad_buffer_usage.json"} {
		data, err := fs.ReadFile(BuiltinCorpus, p)
		if err != nil {
			t.Fatal(err)
		}
		corpus[p] = &fstest.MapFile{Data: data}
	}
	return corpus
}

// TestExponentialSchemaIsStoppedByTheBudget: a fixture or command schema
// beside the corpus that doubles its work at each of 40 levels (which
// without the budget runs for longer than anyone waits) leaves each
// fixture it reaches not judged, as a corpus error naming the schema file
// and the budget, and the other fixtures judged as before; with one worker
// or several, the results are the same.
func TestExponentialSchemaIsStoppedByTheBudget(t *testing.T) {
	schemas := fstest.MapFS{
		"schema/fixture.json": {Data: testkit.ExponentialSchema("", 40)},
		"schema/command.json": {Data: testkit.ExponentialSchema("boom", 40)},
	}
	corpus := budgetCorpus(t)
	for _, c := range []struct {
		name, command, fixture string
		want                   map[string]string // fixture: message, "" for judged
	}{
		{"fixture schema", Embedded, "schema/fixture.json", map[string]string{
			"negative_schema/invalid_boom.json":                    "fixture envelope: not judged: the fixture schema schema/fixture.json: schema evaluation exceeded its budget of",
			"negative_schema/invalid_schema_bad_buffer_usage.json": "fixture envelope: not judged: the fixture schema schema/fixture.json: schema evaluation exceeded its budget of",
			"positive/compute_dispatch_with_pipeline.json":         "fixture envelope: not judged: the fixture schema schema/fixture.json: schema evaluation exceeded its budget of",
		}},
		{"command schema", "schema/command.json", Embedded, map[string]string{
			"negative_schema/invalid_boom.json":                    "command 0: not judged: the command schema schema/command.json: schema evaluation exceeded its budget of",
			"negative_schema/invalid_schema_bad_buffer_usage.json": "",
			"positive/compute_dispatch_with_pipeline.json":         "",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var runs []*model.Run
			for _, workers := range []int{1, 4} {
				cfg := Config{EmbeddedFS: corpus, SchemaFS: schemas, CommandSchema: c.command, FixtureSchema: c.fixture,
					WorkDir: t.TempDir(), Workers: workers, Now: fixedNow}
				runs = append(runs, runWithin(t, cfg, time.Minute))
			}
			for _, r := range runs[0].Results {
				want, ok := c.want[r.RelPath]
				switch {
				case !ok:
					t.Errorf("%s: not expected", r.RelPath)
				case want == "" && r.IsCorpusError():
					t.Errorf("%s: %s, want it judged", r.RelPath, r.Actual.Message)
				case want != "" && (!r.IsCorpusError() || !strings.HasPrefix(r.Actual.Message, want)):
					t.Errorf("%s: %s %q, want a corpus error %q", r.RelPath, r.Actual.Outcome, r.Actual.Message, want)
				}
			}
			if len(runs[0].Results) != len(c.want) {
				t.Errorf("%d results, want %d", len(runs[0].Results), len(c.want))
			}
			for i := range runs[0].Results {
				runs[0].Results[i].Duration, runs[1].Results[i].Duration = 0, 0
			}
			if !reflect.DeepEqual(runs[0].Results, runs[1].Results) {
				t.Errorf("one worker and four disagree:\n%+v\n%+v", runs[0].Results, runs[1].Results)
			}
		})
	}
}

// runWithin runs cfg and fails t when the run takes longer than limit: a
// run the budget does not stop would otherwise hold the test binary until
// its own timeout.
func runWithin(t *testing.T, cfg Config, limit time.Duration) *model.Run {
	t.Helper()
	type outcome struct {
		run *model.Run
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		run, err := Run(t.Context(), cfg)
		done <- outcome{run, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatalf("Run: %v", o.err)
		}
		return o.run
	case <-time.After(limit):
		t.Fatalf("the run did not end within %s", limit)
		return nil
	}
}
