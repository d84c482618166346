package harness

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestAnswerSentTwiceBlamesItsFixture: an implementation that answers a
// fixture twice fails that fixture, named with the fixture whose wait the
// extra answer came in; the next fixture is judged on its own answer and
// passes.
func TestAnswerSentTwiceBlamesItsFixture(t *testing.T) {
	base, read := embeddedRun(t, "session_handshake_ok", "upload_buffer_write", "render_triangle_draw")
	first, next := base.Results[0].Name, base.Results[1].Name
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("executes,twice:" + first)}, base, read)
	im := impls[0]
	if len(im.Results) != 3 {
		t.Fatalf("%d results", len(im.Results))
	}
	twice, after := im.Results[0], im.Results[1]
	if twice.Passed || twice.Actual.Outcome != model.HarnessError || !strings.Contains(twice.Actual.Message, "answered twice") ||
		!strings.Contains(twice.Actual.Message, "fixture "+next) || !strings.Contains(twice.Actual.Message, "implementation fake 1.0") || twice.Span == nil {
		t.Errorf("the fixture answered twice: passed %v, %+v", twice.Passed, twice.Actual)
	}
	if im.Level2[twice.RelPath] {
		t.Errorf("the fixture answered twice passes Level 2")
	}
	if !after.Passed || !im.Results[2].Passed {
		t.Errorf("the next fixtures: %+v; %+v", after.Actual, im.Results[2].Actual)
	}
	if im.Restarts != 0 || im.Summary.Failed != 1 {
		t.Errorf("restarts %d, summary %+v", im.Restarts, im.Summary)
	}
}
