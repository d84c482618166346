package junit

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestImageSuites: a suite of image testcases per implementation that has
// any; under fail-on level3 a failing image is a <failure> naming the
// bound exceeded, otherwise it passes saying what it would fail for.
func TestImageSuites(t *testing.T) {
	run := sample.WithImages()
	run.Judgement = &model.Judgement{Failed: true, FailOn: "mismatch,level3"}
	out := string(render(t, run, Options{}))
	golden.Check(t, "images.xml", []byte(out[strings.Index(out, `<testsuite name="level3 images`):]))
	for _, want := range []string{`<failure message="max_channel_delta 1 &gt; 0" type="exceeded">`,
		`<failure message="no reference for webgpu.js-on-chromium-swiftshader/google-swiftshader or a less specific key" type="missing_reference">`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	run.Judgement.FailOn = "mismatch"
	out = string(render(t, run, Options{}))
	if strings.Contains(out, `type="exceeded"`) || !strings.Contains(out, "max_channel_delta 1 > 0 (information: the run does not fail on level3)") {
		t.Errorf("Level 3 failed a run that does not fail on it:\n%s", out[strings.Index(out, `<testsuite name="level3 images`):])
	}
}
