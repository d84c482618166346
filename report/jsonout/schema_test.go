package jsonout

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestGoldensValidate: the golden reports of this package (a plain run,
// implementations with the Level 3 preview, a comparison, an unavailable
// baseline) validate against docs/report.schema.json, the schema
// published for collectors. internal/cli holds every report its tests
// write to it too.
func TestGoldensValidate(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	s, err := c.Compile(filepath.Join("..", "..", "docs", "report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(goldens) < 4 {
		t.Fatalf("only %d goldens", len(goldens))
	}
	for _, p := range goldens {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: %#v", p, err)
		}
	}
}
