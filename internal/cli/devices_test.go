package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectAdapter: a runtime whose hello names SwiftShader under
// --expect-adapter '*NVIDIA*' is sent no fixture and fails the run, even
// under --fail-on never, naming what it runs on in the log, the JSON
// verdict and the JUnit report.
func TestExpectAdapter(t *testing.T) {
	dir, names := fakeCorpus(t, 3)
	// The fake fails every fixture it is sent: one sent would be a
	// failure, not the harness error of a fixture never sent.
	spec := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)", Fail: names}
	want := "implementation rt 1.0 runs on Google SwiftShader Device (Subzero), not *NVIDIA* (the adapter the run expects): no fixture was sent to it"
	for _, failOn := range []string{"mismatch", "never"} {
		code, _, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--expect-adapter", "*NVIDIA*", "--fail-on", failOn,
			"--json-out", "r.json", "--junit", "j.xml")
		if code != ExitMismatch || !strings.Contains(stderr, "could not be used: "+want) {
			t.Fatalf("fail-on %s: exit %d\n%s", failOn, code, stderr)
		}
		var doc struct {
			Verdict struct {
				Failed  bool     `json:"failed"`
				Reasons []string `json:"reasons"`
			} `json:"verdict"`
			Implementations []struct {
				Error   string `json:"error"`
				Results []struct {
					Outcome string `json:"actual_outcome"`
				} `json:"results"`
			} `json:"implementations"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "r.json"))
		if err != nil || json.Unmarshal(data, &doc) != nil {
			t.Fatalf("read r.json: %v", err)
		}
		if !doc.Verdict.Failed || !strings.Contains(strings.Join(doc.Verdict.Reasons, "\n"), want) || doc.Implementations[0].Error != want {
			t.Errorf("fail-on %s: verdict %+v, error %q", failOn, doc.Verdict, doc.Implementations[0].Error)
		}
		for _, r := range doc.Implementations[0].Results {
			if r.Outcome != "harness_error" {
				t.Errorf("fail-on %s: a fixture was judged %s: it was sent", failOn, r.Outcome)
			}
		}
		if junit, _ := os.ReadFile(filepath.Join(dir, "j.xml")); !strings.Contains(string(junit), "not *NVIDIA*") {
			t.Errorf("fail-on %s: the JUnit report does not name the device", failOn)
		}
	}
	spec.Device, spec.Fail = "NVIDIA GeForce RTX 4090", nil
	if code, _, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--expect-adapter", "*nvidia*"); code != ExitOK {
		t.Errorf("on the device expected: exit %d\n%s", code, stderr)
	}
}

// TestRequireDevice: merge --require NAME@GLOB fails unless a report of
// NAME ran on a device GLOB matches, naming the devices it ran on instead;
// NAME alone (and the older --require-implementation, which takes the
// name as written) accepts any device.
func TestRequireDevice(t *testing.T) {
	dir, _ := fakeCorpus(t, 2)
	spec := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)"}
	if code, _, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--json-out", "swiftshader.json"); code != ExitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	for _, ok := range [][]string{{"--require", "rt"}, {"--require", "rt@*swiftshader*"}, {"--require", "rt 1.0@google *"}, {"--require-implementation", "rt"}} {
		if code, _, stderr := run(t, dir, append([]string{"merge", "swiftshader.json"}, ok...)...); code != ExitOK {
			t.Errorf("merge %v: exit %d\n%s", ok, code, stderr)
		}
	}
	code, stdout, stderr := run(t, dir, "merge", "--require", "rt@*swiftshader*", "--require", "rt@*NVIDIA*", "--require", "other", "--fail-on", "never", "swiftshader.json")
	for _, want := range []string{
		"implementation rt has no results on a device matching *NVIDIA*: the run requires it there, and it reported from Google SwiftShader Device (Subzero) instead",
		"implementation other has no results: the run requires it",
	} {
		if code != ExitMismatch || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, want %q\n%s%s", code, want, stdout, stderr)
		}
	}
	if strings.Contains(stderr, "*swiftshader*") {
		t.Errorf("a requirement met is named:\n%s", stderr)
	}
	code, _, stderr = run(t, dir, "merge", "--require-implementation", "rt@*swiftshader*", "swiftshader.json")
	if want := "implementation rt@*swiftshader* has no results"; code != ExitMismatch || !strings.Contains(stderr, want) {
		t.Errorf("--require-implementation takes the name as written: exit %d, want %q\n%s", code, want, stderr)
	}
	code, _, stderr = run(t, dir, "merge", "--require", "@*NVIDIA*", "swiftshader.json")
	if code != ExitUsage || !strings.Contains(stderr, "no implementation named before '@'") {
		t.Errorf("--require with no name: exit %d\n%s", code, stderr)
	}
}

// TestSitePending: site --require marks a device no collected report ran
// on pending on the index and exits 1, naming it, after writing the site;
// with every requirement met it exits 0.
func TestSitePending(t *testing.T) {
	dir, _ := fakeCorpus(t, 2)
	spec := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)"}
	if code, _, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--json-out", "reports/swiftshader.json"); code != ExitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	code, _, stderr := run(t, dir, "site", "--out", "site", "--require", "rt@*swiftshader*", "--require", "rt@*NVIDIA*", "--require", "other", "reports")
	want := "drp2-fixtures site: pending: no report of rt on a device matching *NVIDIA*\ndrp2-fixtures site: pending: no report of other\n"
	if code != ExitMismatch || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d, want %q\n%s", code, want, stderr)
	}
	index, err := os.ReadFile(filepath.Join(dir, "site/index.html"))
	if err != nil || !strings.Contains(string(index), "<li>rt on a device matching *NVIDIA*: pending</li>") || strings.Contains(string(index), "swiftshader*") {
		t.Errorf("index (%v):\n%s", err, index)
	}
	if code, _, stderr := run(t, dir, "site", "--out", "site", "--require", "rt@*swiftshader*", "reports"); code != ExitOK {
		t.Errorf("every requirement met: exit %d\n%s", code, stderr)
	}
}
