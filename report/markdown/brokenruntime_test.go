package markdown

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// brokenRuntime is docs/webgpu.md's two jobs after a pull request that
// breaks the runtime: the validator passes all fixtures, the merged
// runtime fails n of them by one wrong error code, each message naming its
// own command and object, and the gate compared it with the base commit.
func brokenRuntime(n int) *model.Run {
	kinds := []string{"Buffer", "Texture", "Sampler", "BindGroup", "QuerySet", "ShaderModule", "Pipeline"}
	run := &model.Run{ToolVersion: "v1.4.0"}
	im := model.Implementation{Command: "node host.js --runtime webgpu.js", Name: "webgpu.js", Version: "sha256:612b5aac828a", Protocol: 2}
	var broke []string
	for i := 0; i < n+5; i++ {
		rel := fmt.Sprintf("negative/destroy_%03d.json", i)
		ix := i % 9
		exp := model.Expected{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INVALID_STATE", CommandIndex: &ix}
		res := model.Result{Path: rel, RelPath: rel, Folder: "negative", Name: rel, Class: model.ClassNegative, Expected: exp, Passed: true,
			Actual: model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: exp.Code, CommandIndex: &ix}}
		run.Results = append(run.Results, res)
		if i < n {
			k := kinds[i%len(kinds)]
			res.Passed = false
			res.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", CommandIndex: &ix,
				Message: fmt.Sprintf("Destroy%s: [%s \"o%d\"] still used by a pending submission", k, k, i)}
			broke = append(broke, rel)
		}
		im.Results = append(im.Results, res)
	}
	run.Summary = model.Summarize(len(run.Results), run.Results, nil)
	im.Summary = model.Summarize(len(run.Results), im.Results, nil)
	run.Implementations = []model.Implementation{im}
	run.Comparison = &model.Comparison{Base: "abc1234", Commit: "abc1234" + strings.Repeat("0", 33),
		Implementations: []model.ImplementationDelta{{Label: im.Label(), Regressed: broke}}}
	run.Judgement = &model.Judgement{Failed: true, FailOn: "mismatch,empty", Reasons: []model.Reason{{Kind: model.ReasonImplementationFailed,
		Subject: im.Label(), Count: n, Of: len(run.Results)}}}
	return run
}

// TestBrokenRuntimeLeads: the comment and the check run of a pull request
// that broke the runtime lead with its new failures against the base, and
// show the one wrong code as one cause, unfolded, with its wordings as
// examples; never "no change".
func TestBrokenRuntimeLeads(t *testing.T) {
	for _, n := range []int{3, 18, 400} {
		run := brokenRuntime(n)
		c := ImplementationsComment(run, linked)
		title, summary := ImplementationsCheckOutput(run, linked)
		broke := fmt.Sprintf("implementation webgpu.js sha256:612b5aac828a: %d new failures against base abc1234", n)
		if want := "DRP2 conformance: " + broke + "; all "; !strings.HasPrefix(title, want) {
			t.Errorf("%d failures: the check run's title is %q, want it to open with %q", n, title, want)
		}
		for name, s := range map[string]string{"comment": c, "check run": summary} {
			text := plain(s)
			if !strings.HasPrefix(strings.SplitN(text, "## DRP2 implementations\n\n", 2)[1], "🔴 **"+broke+"**") {
				t.Errorf("%d failures: the %s does not lead with %q:\n%.600s", n, name, broke, text)
			}
			if strings.Contains(text, "no change") || strings.Contains(text, "<summary>1. webgpu") {
				t.Errorf("%d failures: the %s says no change, or folds the failures:\n%s", n, name, text)
			}
			cause := fmt.Sprintf("### 1. webgpu.js sha256:612b5aac828a: %d failing fixtures\n\n- **%d fixtures:** **expected DRP2_ERR_INVALID_STATE, got DRP2_ERR_USAGE", n, n)
			if !strings.Contains(text, cause) || strings.Count(text, "\n- **") != 1 {
				t.Errorf("%d failures: the %s does not show one cause, unfolded (%q):\n%s", n, name, cause, text)
			}
			if !strings.Contains(text, "; e.g. also DestroyTexture: [Texture") {
				t.Errorf("%d failures: the %s keeps no other wording as an example:\n%s", n, name, text)
			}
		}
		if dir := os.Getenv("DRP2_RENDER_DIR"); dir != "" {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("broken-runtime-%d.md", n)), []byte(c), 0o644)
		}
	}
}
