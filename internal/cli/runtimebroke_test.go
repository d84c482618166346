package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/webgpu.md's two jobs: the runtime's job runs the pull request's
// runtime under --fail-on never and uploads its report; the gate merges it
// (results) against the base commit. A pull request that breaks the
// runtime is told so first, as new failures against the base: the base's
// lists (here none) say what the runtime fails there.
func TestMergedRuntimeBrokenAgainstBase(t *testing.T) {
	w, short := runtimePR(t, "", "", fakeSpec{Name: "rt", Fail: []string{"render_case_000", "render_case_002"}})
	impl := w.Env["INPUT_IMPLEMENTATION"]
	if code, out, errs := run(t, w.Dir, "run", "corpus", "--fail-on", "never", "--implementation", impl, "--json-out", "../rt.json"); code != ExitOK {
		t.Fatalf("the runtime's job: exit %d\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir, "..", "rt.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.Dir, "rt.json"), string(data))
	w.Env["INPUT_IMPLEMENTATION"], w.Env["INPUT_EXPECTATIONS"], w.Env["INPUT_RESULTS"] = "", "", "rt.json"
	for _, failOn := range []string{"mismatch,empty", "regressions"} {
		w.Env["INPUT_FAIL-ON"] = failOn
		r := w.Run(t, inProcess)
		if dir := os.Getenv("DRP2_RENDER_DIR"); dir != "" {
			os.WriteFile(filepath.Join(dir, "merged-runtime-summary-"+failOn+".md"), []byte(r.Summary), 0o644)
		}
		if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" {
			t.Fatalf("fail-on %s: exit %d, outputs %v\n%s", failOn, r.Code, r.Outputs, r.Log)
		}
		broke := "implementation rt 1.0: 2 new failures against base "
		if !strings.HasPrefix(r.Summary, "### 🔴 "+broke) || strings.Contains(r.Summary, "no change against base") {
			t.Errorf("fail-on %s: the summary does not open with %q:\n%.2500s", failOn, broke, r.Summary)
		}
		// The verdict's line, the check run's title, the log's last word.
		verdict := "DRP2 conformance: " + broke + short + "; all 3 fixtures passed"
		if !strings.Contains(r.Summary, "### ❌ "+verdict) || !strings.Contains(r.Log, strings.TrimPrefix(verdict, "DRP2 conformance: ")) {
			t.Errorf("fail-on %s: the verdict does not lead with %q:\n%.2500s\n%s", failOn, verdict, r.Summary, r.Log)
		}
	}
}
