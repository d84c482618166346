package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// closureLayout is the upstream layout with a command schema of $refs
// into commands/, one of which refers on into common/, and a file of the
// schema folder that nothing refers to.
var closureLayout = map[string]string{
	"fixtures/positive/hello.json":            fixtureJSON("hello", success, hello, reply),
	"schema/drp_command.json":                 `{"oneOf": [{"$ref": "./commands/HelloRenderer.json"}, {"$ref": "./commands/RendererHelloReply.json#"}]}`,
	"schema/commands/HelloRenderer.json":      `{"type": "object", "properties": {"cmd": {"const": "HelloRenderer"}, "version": {"$ref": "../common/Version.json"}}}`,
	"schema/commands/RendererHelloReply.json": `{"type": "object", "properties": {"cmd": {"const": "RendererHelloReply"}, "version": {"$ref": "../common/Version.json"}}}`,
	"schema/common/Version.json":              `{"type": "object"}`,
	"schema/commands/Unused.json":             `{"type": "object", "properties": {"cmd": {"const": "Unused"}}}`,
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestSchemaClosure: a run describes its command schema by every file its
// compilation read, each once, by its path relative to the schema's
// folder, in path order, and by the digest of those files as sha256sum
// lists them. A file nothing refers to is not part of it; a change to a
// file a $ref reaches changes the closure and not the schema's own sum.
func TestSchemaClosure(t *testing.T) {
	ws := writeCorpus(t, closureLayout)
	cfg := Config{Corpus: filepath.Join(ws, "fixtures")}
	run, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := run.CommandSchema
	var want []model.SchemaFile
	lines := ""
	for _, p := range []string{"commands/HelloRenderer.json", "commands/RendererHelloReply.json", "common/Version.json", "drp_command.json"} {
		want = append(want, model.SchemaFile{Path: p, SHA256: sha(closureLayout["schema/"+p])})
		lines += sha(closureLayout["schema/"+p]) + "  " + p + "\n"
	}
	if !reflect.DeepEqual(got.Files, want) {
		t.Errorf("closure files\n%v\nwant\n%v", got.Files, want)
	}
	if got.Closure != sha(lines) || got.SHA256 != sha(closureLayout["schema/drp_command.json"]) {
		t.Errorf("closure %s sha256 %s, want %s %s", got.Closure, got.SHA256, sha(lines), sha(closureLayout["schema/drp_command.json"]))
	}

	if err := os.WriteFile(filepath.Join(ws, "schema/commands/Unused.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := Run(context.Background(), cfg); err != nil || again.CommandSchema.Closure != got.Closure {
		t.Errorf("a file nothing refers to changed the closure: %v", err)
	}
	if err := os.WriteFile(filepath.Join(ws, "schema/common/Version.json"), []byte(`{"type": "object", "required": ["major"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	edited, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if edited.CommandSchema.SHA256 != got.SHA256 || edited.CommandSchema.Closure == got.Closure {
		t.Errorf("an edit two $refs deep: sha256 %s → %s, closure %s → %s", got.SHA256, edited.CommandSchema.SHA256, got.Closure, edited.CommandSchema.Closure)
	}
	if changed := model.SchemaFilesChanged(got.Files, edited.CommandSchema.Files); !reflect.DeepEqual(changed, []string{"common/Version.json"}) {
		t.Errorf("changed files %v", changed)
	}
}

// TestEmbeddedSchemaClosure: the embedded schemas, which refer to no
// file, have a closure of one file each, named as the file is.
func TestEmbeddedSchemaClosure(t *testing.T) {
	ws := writeCorpus(t, closureLayout)
	run, err := Run(context.Background(), Config{Corpus: filepath.Join(ws, "fixtures"), CommandSchema: Embedded, FixtureSchema: Embedded})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got  model.SchemaSource
		name string
		data []byte
	}{{run.CommandSchema, "command.schema.json", schema.Command}, {run.FixtureSchema, "fixture.schema.json", schema.Fixture}} {
		sum := sha(string(c.data))
		if !reflect.DeepEqual(c.got.Files, []model.SchemaFile{{Path: c.name, SHA256: sum}}) || c.got.Closure != sha(sum+"  "+c.name+"\n") {
			t.Errorf("%s: closure %s files %v", c.name, c.got.Closure, c.got.Files)
		}
	}
}
