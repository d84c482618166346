package markdown

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// plain is rendered Markdown's text, near enough: escapes and <wbr> gone.
func plain(s string) string {
	return strings.NewReplacer("<wbr>", "", `\`, "").Replace(s)
}

// TestRuntimeFailuresByCause: an implementation's failures are grouped by
// cause with what was expected and what it got, each group's fixtures
// linked, and the command that reproduces the first through it; one that
// could not be started reads as unusable, not as failing every fixture,
// and makes no row of the failing matrix.
func TestRuntimeFailuresByCause(t *testing.T) {
	run := sample.RuntimeFailures()
	c := ImplementationsComment(run, linked)
	golden.Check(t, "runtime-comment.md", []byte(c))
	golden.Check(t, "runtime-matrix.md", []byte(Matrix(run, linked, func(string) bool { return true })))
	text := plain(c)
	for _, want := range []string{
		"**57 fixtures:** **expected semantic_validation DRP2_ERR_USAGE, got DRP2_ERR_INTERNAL**",
		`phase not reported; validation: [Buffer …] used in submit while destroyed`,
		"/fixtures/negative/invalid_destroy_buffer_still_referenced_by_recorded_work_00.json#L72) · [",
		"Reproduce: <code>go run github.com/drp2/drp2-fixtures/cmd/drp2-fixtures@v1.4.0 run --implementation 'node adapters/webgpu/host.js --runtime webgpu.js' fixtures/negative/invalid_destroy_buffer_still_referenced_by_recorded_work_00.json</code>",
		"| 2 | ❌ | **./no-such-runtime** | could not be used |",
		"2. ./no-such-runtime: could not be used</summary>",
		"1 of 2 implementations fails fixtures; 1 could not be used",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
	if rows := strings.Count(Matrix(run, linked, func(string) bool { return true }), "\n| <code>"); rows != 57 {
		t.Errorf("the failing matrix has %d rows; the 57 fixtures the runtime fails are all that fail", rows)
	}
	if strings.Contains(text, "of 400") || strings.Contains(text, "0 of 519") {
		t.Error("the unusable implementation is counted as failing its fixtures")
	}
}

// TestNoGreenOnAFailingRun: a failing run that changed nothing against
// its base does not open with the green "no change".
func TestNoGreenOnAFailingRun(t *testing.T) {
	run := sample.SchemaEdit(400)
	var still []model.Change
	for _, ch := range run.Comparison.Changes {
		if ch.Transition == model.StillFailing {
			still = append(still, ch)
		}
	}
	run.Comparison.Changes, run.Comparison.CommandSchemaChanged = still, false
	for name, s := range map[string]string{"comment": Comment(run, linked), "summary": summary(t, run, linked)} {
		if strings.Contains(s, "🟢") || !strings.Contains(s, "### ⚪ no change against base") {
			t.Errorf("%s opens %q", name, strings.SplitN(s, "\n", 3)[:2])
		}
	}
	if s := summary(t, sample.Passing(), linked); strings.Contains(s, "⚪") {
		t.Error("a passing run is not green")
	}
}
