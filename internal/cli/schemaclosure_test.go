package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// createBuffer is the command schema's CreateBuffer branch: its id is a
// $ref into common/, as the upstream schemas' are.
const createBuffer = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "cmd": {"const": "CreateBuffer"},
    "id": {"$ref": "../common/Id.json"},
    "size": {"type": "integer", "minimum": 0},
    "usage": {"type": "array", "minItems": 1}
  },
  "required": ["cmd", "id", "size", "usage"]
}
`

// closureCorpus is a workspace in datoviz's layout: the corpus at
// spec/drp2/fixtures and a command schema made of $refs into
// spec/drp2/schema/commands/*.json, which refer on into common/.
func closureCorpus() map[string]string {
	branch := func(cmd string) string {
		return `{"type": "object", "properties": {"cmd": {"const": "` + cmd + `"}}, "required": ["cmd"]}`
	}
	create := func(id string) string {
		return `{"cmd": "CreateBuffer", "id": ` + id + `, "size": 16, "usage": ["COPY_DST"]}`
	}
	return map[string]string{
		"spec/drp2/schema/drp_command.json": `{"oneOf": [
  {"$ref": "./commands/HelloRenderer.json"},
  {"$ref": "./commands/RendererHelloReply.json"},
  {"$ref": "./commands/CreateBuffer.json"}
]}`,
		"spec/drp2/schema/commands/HelloRenderer.json":      branch("HelloRenderer"),
		"spec/drp2/schema/commands/RendererHelloReply.json": branch("RendererHelloReply"),
		"spec/drp2/schema/commands/CreateBuffer.json":       createBuffer,
		"spec/drp2/schema/common/Id.json":                   `{"type": "integer", "minimum": 1}`,
		"spec/drp2/fixtures/positive/handshake.json":        testkit.Fixture("handshake", testkit.Success, testkit.Hello, testkit.Reply),
		"spec/drp2/fixtures/positive/one_buffer.json":       testkit.Fixture("one_buffer", testkit.Success, testkit.Hello, testkit.Reply, create("1")),
		"spec/drp2/fixtures/positive/two_buffers.json":      testkit.Fixture("two_buffers", testkit.Success, testkit.Hello, testkit.Reply, create("1"), create("2")),
	}
}

// corpus is where datoviz keeps its corpus.
const corpus = "spec/drp2/fixtures"

// renameUsage is the schema change of the test: CreateBuffer's "usage"
// renamed "usages", in commands/CreateBuffer.json alone; the root schema's
// bytes stay the same.
func renameUsage(t *testing.T, ws string) {
	t.Helper()
	putFile(t, filepath.Join(ws, "spec/drp2/schema/commands/CreateBuffer.json"), strings.ReplaceAll(createBuffer, `"usage"`, `"usages"`))
}

// TestManifestSeesSchemaClosure: a frozen manifest records every file of
// the command schema, so that an edit to a file its $refs reach breaks the
// freeze, and the check names that file.
func TestManifestSeesSchemaClosure(t *testing.T) {
	ws := t.TempDir()
	testkit.WriteFiles(t, ws, closureCorpus())
	if code, out, errs := run(t, ws, "manifest", "write", "--frozen", "--corpus", corpus); code != ExitOK {
		t.Fatalf("write: exit %d\n%s%s", code, out, errs)
	}
	manifest, err := os.ReadFile(filepath.Join(ws, "spec/drp2/fixtures/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The schemas as recorded: the closure's digest and its five files.
	at := strings.Index(string(manifest), `"schemas"`)
	golden.Check(t, "schema-closure/manifest-schemas.golden", manifest[at:])
	if code, out, errs := run(t, ws, "manifest", "check", "--corpus", corpus); code != ExitOK || !strings.Contains(out, "the corpus matches its manifest") {
		t.Fatalf("check before the edit: exit %d\n%s%s", code, out, errs)
	}

	renameUsage(t, ws)
	code, out, errs := run(t, ws, "manifest", "check", "--corpus", corpus)
	if code != ExitMismatch {
		t.Errorf("check after the edit: exit %d, want %d\n%s", code, ExitMismatch, errs)
	}
	golden.Check(t, "schema-closure/manifest-check.txt", []byte(out))
}

// TestBaselineSeesSchemaClosure: compared with a base checkout, a run
// whose command schema changed in a file its $refs reach says so in the
// headline, names the file, and gives the error the change now causes,
// in the text report, the comment's Markdown and the JSON report.
func TestBaselineSeesSchemaClosure(t *testing.T) {
	root := t.TempDir()
	base, head := filepath.Join(root, "base"), filepath.Join(root, "head")
	testkit.WriteFiles(t, base, closureCorpus())
	testkit.WriteFiles(t, head, closureCorpus())
	renameUsage(t, head)

	code, out, errs := run(t, head, "run", "--corpus", corpus, "--baseline", "../base")
	if code != ExitMismatch {
		t.Errorf("exit %d, want %d\n%s", code, ExitMismatch, errs)
	}
	golden.Check(t, "schema-closure/run.txt", []byte(section(out, "Comparison with the base:", "\n\n")))

	_, md, _ := run(t, head, "run", "--corpus", corpus, "--baseline", "../base", "--format", "markdown")
	golden.Check(t, "schema-closure/run.md", []byte(section(md, "### ", "\n### ")))

	_, js, _ := run(t, head, "run", "--corpus", corpus, "--baseline", "../base", "--format", "json")
	golden.Check(t, "schema-closure/comparison.json", []byte(section(js, `"comparison": {`, `"counts"`)))
}

// section is the part of s from the first start up to the first end
// after it: the part of a report a test is about.
func section(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return s
}
