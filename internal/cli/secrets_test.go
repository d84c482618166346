package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestRunOutputsAreRedacted: run and manifest write hold the process's
// secrets (main passes the variables named like secrets) out of standard
// output, standard error and every file they write, whatever the corpus
// says.
func TestRunOutputsAreRedacted(t *testing.T) {
	const leak = "sekrit_fixture_name"
	dir := testkit.Corpus(t, map[string]string{
		"fixtures/positive/" + leak + ".json": testkit.Fixture(leak, `{"outcome": "success"}`, testkit.Hello, testkit.Reply),
		"fixtures/negative/wrong.json": testkit.Fixture(leak+"_wrong", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`,
			testkit.Hello, testkit.Reply),
	})
	for _, args := range [][]string{
		{"run", "--verbose", "--json-out", "r.json", "--junit", "r.xml", "--summary", "s.md"},
		{"run", "--format", "json"},
		{"manifest", "write", "-o", "m.json"},
	} {
		var out, errb bytes.Buffer
		Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb, WorkDir: dir, Secrets: []string{leak}})
		texts := map[string]string{"stdout": out.String(), "stderr": errb.String()}
		for _, f := range []string{"r.json", "r.xml", "s.md", "m.json"} {
			if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil {
				texts[f] = string(b)
			}
		}
		for where, text := range texts {
			if strings.Contains(text, leak) {
				t.Errorf("%v: %s carries the secret:\n%s", args, where, text)
			}
		}
		if !strings.Contains(out.String()+errb.String(), secret.Mask) {
			t.Errorf("%v: the secret's place is not marked:\n%s%s", args, out.String(), errb.String())
		}
	}
}
