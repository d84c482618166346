package markdown

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestExpectationsGolden: the matrix counts and folds an implementation's
// known failures, flaky fixtures, unexpected passes and skipped fixtures,
// and the job summary shows the validator's stale entry and the diff of
// the written expectations; hostile entries and reasons stay text.
func TestExpectationsGolden(t *testing.T) {
	run := bound.Run(sample.WithExpectations())
	matrix := ImplementationsComment(run, matrixOpts)
	golden.Check(t, "matrix-expectations.md", []byte(matrix))
	summary := Summary(run, Options{})
	golden.Check(t, "summary-expectations.md", []byte(summary))
	for name, s := range map[string]string{"matrix": matrix, "summary": outsideCode(summary)} {
		if strings.Contains(s, "<script>") || strings.Contains(s, "</details><script") {
			t.Errorf("%s carries raw hostile markup outside code", name)
		}
	}
	for _, want := range []string{"1 known failure, 2 flaky, 1 unexpected pass, 1 skipped", "🟡", "🔁", "❗", "⏭️"} {
		if !strings.Contains(matrix, want) {
			t.Errorf("matrix without %q", want)
		}
	}
	if !strings.Contains(summary, "```diff\n") || !strings.Contains(summary, "### Expectations") {
		t.Errorf("summary without the expectations section")
	}
}

// outsideCode is s without its fenced code blocks and double-backtick code
// spans, where Markdown shows markup as text.
func outsideCode(s string) string {
	var out []string
	fence := ""
	for _, line := range strings.Split(s, "\n") {
		switch {
		case fence != "":
			if strings.TrimSpace(line) == fence {
				fence = ""
			}
			continue
		case strings.HasPrefix(line, "```"):
			fence = strings.TrimRight(line, "abcdefghijklmnopqrstuvwxyz")
			continue
		}
		for {
			a := strings.Index(line, "``")
			if a < 0 {
				break
			}
			b := strings.Index(line[a+2:], "``")
			if b < 0 {
				break
			}
			line = line[:a] + line[a+2+b+2:]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
