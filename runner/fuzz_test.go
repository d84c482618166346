package runner_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// seeds adds every fixture of the project's corpus to a fuzz target.
func seeds(f *testing.F) {
	for _, folder := range fixtures.Folders {
		entries, err := fixtures.FS.ReadDir(folder)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			data, err := fixtures.FS.ReadFile(folder + "/" + e.Name())
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{"", "{", `{"name": 1}`, "\xef\xbb\xbf{}", `{"a":1,"a":2}`, "[[[[", `{"commands": [{"cmd": "Draw"}]}`} {
		f.Add([]byte(s))
	}
}

// FuzzPipeline runs any bytes as a fixture through every phase: the run
// never fails as a whole, gives exactly one result, and no phase panics.
func FuzzPipeline(f *testing.F) {
	seeds(f)
	checker := drp2.New()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, folder := range []string{"positive", "negative_schema"} {
			fsys := fstest.MapFS{folder + "/x.json": {Data: data}}
			run, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: "/", Checker: checker, Workers: 1})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if len(run.Results) != 1 {
				t.Fatalf("%d results", len(run.Results))
			}
			r := run.Results[0]
			if strings.HasPrefix(r.Actual.Message, "internal error") {
				t.Fatalf("a phase panicked: %s", r.Actual.Message)
			}
			if !r.Passed && r.Span == nil && len(data) > 0 && !r.IsCorpusError() {
				t.Fatalf("a mismatch without a location: %+v", r.Actual)
			}
		}
	})
}
