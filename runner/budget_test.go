package runner

import (
	"errors"
	"fmt"
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

// TestSchemaWorkBeyondStepsIsBudgeted: the work of a keyword that grows
// with the schema's values (an enum of 20,000 numbers that each member of
// each command is compared with) leaves a fixture whose commands have
// more members than its budget pays for not judged, naming the fixture
// schema and the budget, as the exponential schema does; a schema too large to compile in bounded time (a chain of
// 32,000 references, a megabyte) ends the run as unusable input naming
// the file and the budget of a compilation, before the library compiles it.
func TestSchemaWorkBeyondStepsIsBudgeted(t *testing.T) {
	var enum, chain strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&enum, ",%d", i)
	}
	chain.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	for i := range 32000 {
		fmt.Fprintf(&chain, `"d%d":{"$ref":"#/$defs/d%d"},`, i, i+1)
	}
	chain.WriteString(`"d32000":true}}`)
	schemas := fstest.MapFS{
		"schema/enum.json": {Data: []byte(`{"properties":{"commands":{"items":{"additionalProperties":` +
			`{"anyOf":[{"enum":[` + enum.String()[1:] + `]},true]}}}}}`)},
		"schema/chain.json": {Data: []byte(chain.String())},
	}
	corpus := budgetCorpus(t)
	cfg := Config{EmbeddedFS: corpus, SchemaFS: schemas, CommandSchema: Embedded, FixtureSchema: "schema/enum.json",
		WorkDir: t.TempDir(), Workers: 2, Now: fixedNow}
	start := time.Now()
	run := runWithin(t, cfg, time.Minute)
	// The two small fixtures cost a few comparisons of a budget, and are
	// judged as with the embedded schema.
	for _, r := range run.Results {
		want := "fixture envelope: not judged: the fixture schema schema/enum.json: schema evaluation exceeded its budget of"
		exhausted := r.IsCorpusError() && strings.HasPrefix(r.Actual.Message, want)
		if exhausted != (r.RelPath == "positive/compute_dispatch_with_pipeline.json") {
			t.Errorf("%s: %s %q", r.RelPath, r.Actual.Outcome, r.Actual.Message)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the enum's run took %v", d)
	}

	cfg.CommandSchema, cfg.FixtureSchema = "schema/chain.json", Embedded
	start = time.Now()
	_, err := Run(t.Context(), cfg)
	want := "unusable input: command schema schema/chain.json: cannot compile file:///schema/chain.json: " +
		"the schemas and the files they refer to hold more than 4000 schema objects, the budget of a compilation"
	if !errors.Is(err, ErrInput) || err.Error() != want {
		t.Errorf("the chain: %v, want %q", err, want)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("refusing the chain took %v", d)
	}
}
