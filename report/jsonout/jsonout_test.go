package jsonout

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
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

// TestComparisonGolden: the comparison member, and a known failure's reason.
func TestComparisonGolden(t *testing.T) {
	for name, run := range map[string]*model.Run{"compared.json": sample.Compared(), "unavailable.json": sample.Unavailable()} {
		var b bytes.Buffer
		if err := Write(&b, run); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name, b.Bytes())
	}
}

// TestNoComparison: without a baseline the document has no comparison
// member, so earlier readers of the report see no change.
func TestNoComparison(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.Run()); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte(`"comparison"`)) || bytes.Contains(b.Bytes(), []byte(`"known_failure`)) {
		t.Error("a run without a baseline or known failures has comparison or known-failure members")
	}
}

// The comparison written alone (drp2-fixtures diff --format json) is as
// safe for a log as the whole report: no "##[", values capped.
func TestWriteComparisonIsLogSafeAndCapped(t *testing.T) {
	long := "##[stop-commands]" + strings.Repeat("n", 100000)
	c := &model.Comparison{Base: "base.json", Changes: []model.Change{{RelPath: "positive/x.json", Path: long, Name: long, Transition: model.Regressed}}}
	var b bytes.Buffer
	// As diff gives it, bounded with the run it came with.
	if err := WriteComparison(&b, bound.Run(&model.Run{Comparison: c}).Comparison); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("##[")) || b.Len() > 10000 {
		t.Errorf("%d bytes, ##[ present: %v", b.Len(), bytes.Contains(b.Bytes(), []byte("##[")))
	}
}
