package jsonout

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestHugeValuesAreCapped (issue 12 item 6): the JSON report caps each
// oversized value and says how much it left out.
func TestHugeValuesAreCapped(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, bound.Run(sample.Huge())); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 64<<10 {
		t.Errorf("report is %d bytes", b.Len())
	}
	if !strings.Contains(b.String(), "more bytes)") {
		t.Error("no visible cap note")
	}
}

// TestNoLegacyWorkflowCommands (issue 12 item 2): a fixture named
// "##[stop-commands]x" printed by "run --format json" must not switch off
// the step's workflow commands; the JSON still decodes to the name.
func TestNoLegacyWorkflowCommands(t *testing.T) {
	run := sample.Run()
	names := []string{"##[stop-commands]x", "##[set-output name=conclusion;]success", "###[x]", "#[##[y]"}
	for i, n := range names {
		run.Results[i].Name = n
	}
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "##[") {
		t.Fatalf("output carries ##[:\n%s", b.String())
	}
	var doc Document
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		if doc.Results[i].FixtureName != n {
			t.Errorf("name %d decodes to %q, want %q", i, doc.Results[i].FixtureName, n)
		}
	}
}
