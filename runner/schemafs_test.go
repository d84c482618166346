package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSchemaFS runs the upstream corpus from a file system with its schemas
// read from another one (as a base commit held in memory is run) and wants
// the results and schema sums of the same corpus run from disk.
func TestSchemaFS(t *testing.T) {
	corpus := filepath.Join(upstreamRoot, "fixtures")
	if _, err := os.Stat(corpus); err != nil {
		missingUpstream(t, "SKIPPED: the upstream DRP2 corpus is not at %s", corpus)
	}
	disk := runCorpus(t, Config{Corpus: corpus,
		CommandSchema: filepath.Join(upstreamRoot, "schema", "drp_command.json"),
		FixtureSchema: filepath.Join(corpus, "schema", "drp_fixture.schema.json")})
	mem := runCorpus(t, Config{EmbeddedFS: os.DirFS(corpus), SchemaFS: os.DirFS(upstreamRoot),
		CommandSchema: "schema/drp_command.json", FixtureSchema: "fixtures/schema/drp_fixture.schema.json"})
	if disk.CommandSchema.SHA256 != mem.CommandSchema.SHA256 || disk.FixtureSchema.SHA256 != mem.FixtureSchema.SHA256 {
		t.Errorf("schema sums differ: disk %v %v, memory %v %v", disk.CommandSchema, disk.FixtureSchema, mem.CommandSchema, mem.FixtureSchema)
	}
	// A base commit's schemas are read from memory: their closures must be
	// the disk's, or every comparison with a base would see a change.
	if disk.CommandSchema.Closure == "" || disk.CommandSchema.Closure != mem.CommandSchema.Closure || disk.FixtureSchema.Closure != mem.FixtureSchema.Closure {
		t.Errorf("schema closures differ: disk %s %s, memory %s %s", disk.CommandSchema.Closure, disk.FixtureSchema.Closure, mem.CommandSchema.Closure, mem.FixtureSchema.Closure)
	}
	if mem.CommandSchema.Source != "schema/drp_command.json" {
		t.Errorf("command schema source %q", mem.CommandSchema.Source)
	}
	if len(disk.Results) != len(mem.Results) || len(mem.Results) == 0 {
		t.Fatalf("disk ran %d fixtures, memory %d", len(disk.Results), len(mem.Results))
	}
	for i := range disk.Results {
		d, m := disk.Results[i], mem.Results[i]
		if d.RelPath != m.RelPath || d.Passed != m.Passed || d.Actual.Code != m.Actual.Code || d.Digest != m.Digest {
			t.Errorf("%s: disk %v %s, memory %s %v %s", d.RelPath, d.Passed, d.Actual.Code, m.RelPath, m.Passed, m.Actual.Code)
		}
	}
}

// TestSchemaFSErrors: a schema missing from the file system, or one that
// refers to a file outside it, is unusable input naming the file.
func TestSchemaFSErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"schema/cmd.json": {Data: []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","oneOf":[{"$ref":"./missing.json"}]}`)},
	}
	for _, c := range []struct{ name, command, want string }{
		{"absent", "schema/none.json", "none.json"},
		{"dangling reference", "schema/cmd.json", "missing.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(t.Context(), Config{EmbeddedFS: fstest.MapFS{}, SchemaFS: fsys, CommandSchema: c.command, FixtureSchema: Embedded, WorkDir: t.TempDir()})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %s", err, c.want)
			}
		})
	}
}
