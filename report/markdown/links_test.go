package markdown

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// The comment of a run with implementations names the commit and links
// the check run and the workflow run, as a single run's comment does; the
// check run's own summary leaves out the link to itself.
func TestImplementationsCommentLinksTheRuns(t *testing.T) {
	opts := Options{ServerURL: "https://github.com", Repository: "acme/runtime", SHA: "0123456789abcdef0123456789abcdef01234567",
		CheckRunURL: "https://github.com/acme/runtime/runs/42", WorkflowRunURL: "https://github.com/acme/runtime/actions/runs/7"}
	run := sample.WithImplementations()
	want := "Commit [`0123456`](https://github.com/acme/runtime/commit/0123456789abcdef0123456789abcdef01234567) · " +
		"[Check run](https://github.com/acme/runtime/runs/42) · [Workflow run](https://github.com/acme/runtime/actions/runs/7)\n"
	if c := ImplementationsComment(run, opts); !strings.Contains(c, want) {
		t.Errorf("comment has no links:\n%s", c[:min(len(c), 600)])
	}
	_, summary := ImplementationsCheckOutput(run, opts)
	if strings.Contains(summary, "[Check run]") || !strings.Contains(summary, "[Workflow run](https://github.com/acme/runtime/actions/runs/7)") {
		t.Errorf("check summary links:\n%s", summary[:min(len(summary), 600)])
	}
	// A job summary's matrix sits under the run's own provenance line.
	if m := Matrix(run, opts, func(string) bool { return true }); strings.Contains(m, "[Workflow run]") {
		t.Error("the matrix alone repeats the links")
	}
}
