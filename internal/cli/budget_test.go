package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestExponentialFixtureSchema: a fixture schema beside the corpus that
// the schema library would evaluate 2^40 times is used by default, as the
// upstream layout says; each fixture is then a corpus error naming the
// schema and its budget, the run exits as for a mismatch, and every report
// is written.
func TestExponentialFixtureSchema(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	var b strings.Builder
	b.WriteString(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#/$defs/l0","$defs":{`)
	for k := 0; k < 40; k++ {
		fmt.Fprintf(&b, `"l%d":{"anyOf":[{"$ref":"#/$defs/l%d"},{"$ref":"#/$defs/l%d"}]},`, k, k+1, k+1)
	}
	b.WriteString(`"l40":false}}`)
	if err := os.MkdirAll(filepath.Join(dir, "fixtures", "schema"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixtures", "schema", "drp_fixture.schema.json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, dir, "run", "--json-out", "out/drp2.json", "--junit", "out/drp2.xml")
	if code != ExitMismatch {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitMismatch, out, errOut)
	}
	const want = "not judged: the fixture schema fixtures/schema/drp_fixture.schema.json: schema evaluation exceeded its budget of "
	if !strings.Contains(out, want) || !strings.Contains(out, "corpus errors 2") {
		t.Errorf("text report:\n%s\nwant every fixture a corpus error %q", out, want)
	}
	for _, f := range []string{"out/drp2.json", "out/drp2.xml"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("%s does not say %q:\n%s", f, want, data)
		}
	}
}
