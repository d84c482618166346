package action_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// The action's expectations inputs: update-expectations writes the list a
// failing run needs, which then keeps the next run green; the outputs
// count known failures and unexpected passes; retries must be a number.
func TestActionExpectations(t *testing.T) {
	py := testkit.PythonExample(t)
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_IMPLEMENTATION"] = py
	w.Env["INPUT_CORPUS"] = "embedded"
	w.Env["INPUT_BASELINE"] = "off"
	w.Env["INPUT_UPDATE-EXPECTATIONS"] = "drp2/expectations.txt"
	r := w.Run(t, inProcess)
	if r.Code != ExitMismatch || r.Outputs["known"] != "0" || !strings.Contains(r.Summary, "```diff\n--- /dev/null\n+++ drp2/expectations.txt\n") {
		t.Fatalf("first run: exit %d, outputs %v\n%s\n%s", r.Code, r.Outputs, r.Summary, r.Log)
	}
	list, err := os.ReadFile(filepath.Join(w.Dir, "drp2", "expectations.txt"))
	if err != nil {
		t.Fatal(err)
	}
	failing := strings.Count(string(list), "python-example ")
	if failing == 0 || strings.Count(string(list), " fail # new\n") != failing {
		t.Fatalf("written list:\n%s", list)
	}
	// A fixture the example passes, listed as failing: an unexpected pass.
	var doc struct {
		Implementations []struct {
			Results []struct {
				CorpusPath string `json:"corpus_path"`
				Passed     bool   `json:"passed"`
			} `json:"results"`
		} `json:"implementations"`
	}
	data, _ := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Implementations) != 1 {
		t.Fatalf("report: %v", err)
	}
	stale := ""
	for _, res := range doc.Implementations[0].Results {
		if res.Passed {
			stale = res.CorpusPath
			break
		}
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "drp2", "expectations.txt"), append(list, []byte("python-example "+stale+" fail # fixed?\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env["INPUT_EXPECTATIONS"] = "drp2/expectations.txt"
	w.Env["INPUT_UPDATE-EXPECTATIONS"] = ""
	r = w.Run(t, inProcess)
	if r.Code != ExitOK || r.Outputs["known"] != strconv.Itoa(failing) || r.Outputs["unexpected-passes"] != "1" || r.Outputs["flaky"] != "0" {
		t.Fatalf("second run: exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	w.Env["INPUT_FAIL-ON"] = "mismatch,unexpected-pass"
	if r = w.Run(t, inProcess); r.Code != ExitMismatch {
		t.Errorf("under fail-on unexpected-pass: exit %d", r.Code)
	}
	w.Env["INPUT_FAIL-ON"] = "mismatch"
	for _, bad := range []string{"twice", "-1"} {
		w.Env["INPUT_RETRIES"] = bad
		if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, "retries") {
			t.Errorf("retries %s: exit %d", bad, r.Code)
		}
	}
}
