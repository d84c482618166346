package jsonout

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

func TestGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "sample.json", b.Bytes())
	if !json.Valid(b.Bytes()) {
		t.Error("not valid JSON")
	}
}

func TestNullWhereAbsent(t *testing.T) {
	run := sample.Passing()
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		if r["actual_outcome"] != "success" {
			continue
		}
		for _, k := range []string{"actual_phase", "actual_code", "actual_command_index"} {
			if v, ok := r[k]; !ok || v != nil {
				t.Errorf("%s: %s = %v (present %v), want null", r["fixture_path"], k, v, ok)
			}
		}
	}
}
