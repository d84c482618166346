package markdown

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// The check run's text carries the manifest section exactly when a broken
// freeze decides the verdict.
func TestCheckTextCarriesABrokenFreeze(t *testing.T) {
	broken := &model.ManifestCheck{Path: "fixtures/manifest.json", Frozen: true, DRP2Version: "2.0",
		Headline: "1 changed since the manifest (DRP2 2.0, frozen); 1 breaks the freeze", Violations: 1,
		Changes: []model.ManifestChange{{Kind: "changed", Path: "negative/a|b.json", Description: "commands", Violation: true}}}
	for _, c := range []struct {
		name     string
		manifest *model.ManifestCheck
		failed   bool
		want     bool
	}{
		{"broken and failing", broken, true, true},
		{"broken, the run passes anyway", broken, false, false},
		{"not frozen", &model.ManifestCheck{DRP2Version: "2.0", Headline: "1 added since the manifest (DRP2 2.0, not frozen)",
			Changes: []model.ManifestChange{{Kind: "added", Path: "positive/x.json", Description: "added"}}}, true, false},
	} {
		run := sample.Run()
		run.Manifest = c.manifest
		run.Judgement = &model.Judgement{Failed: c.failed}
		_, _, text := CheckOutput(run, Options{})
		got := strings.Contains(text, "### Fixture manifest")
		if got != c.want {
			t.Errorf("%s: manifest section in the text: %v, want %v", c.name, got, c.want)
		}
		if c.want && (!strings.Contains(text, `negative\/a\|b\.json`) || !strings.Contains(text, "| commands |")) {
			t.Errorf("%s: text ends:\n%s", c.name, text[max(0, len(text)-300):])
		}
		if len(text) > 65535 {
			t.Errorf("%s: text is %d bytes", c.name, len(text))
		}
	}
	// Fixtures' details give way to the section, never the reverse.
	run := sample.Huge()
	run.Manifest = broken
	run.Judgement = &model.Judgement{Failed: true}
	if _, _, text := CheckOutput(run, Options{}); !strings.Contains(text, "### Fixture manifest") || len(text) > 65535 {
		t.Errorf("huge run: %d bytes, section present: %v", len(text), strings.Contains(text, "### Fixture manifest"))
	}
}
