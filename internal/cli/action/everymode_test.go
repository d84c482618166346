package action_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestActionReportsWriteOnlyDescribedMembers drives the action's modes that
// add to its JSON report: an implementation with retries and expectations,
// coverage, the manifest, a baseline report, a shard, a merge of another
// job's report. runVersion validates each report against the schema
// closed to members it does not describe (an interrupted step's report is
// validated so in TestInterruptedStepWritesWhatRan); this test makes sure
// the modes were reached, by the members their reports hold.
func TestActionReportsWriteOnlyDescribedMembers(t *testing.T) {
	py := testkit.PythonExample(t)
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	for rel, body := range testkit.Merge(testkit.ManifestCorpus(), testkit.HarnessCorpus) {
		putFile(t, filepath.Join(w.Dir, "corpus", strings.TrimPrefix(rel, "fixtures/")), body)
	}
	if code, _, errs := run(t, w.Dir, "manifest", "write", "--corpus", "corpus"); code != ExitOK {
		t.Fatalf("manifest write: %s", errs)
	}
	if code, _, errs := run(t, w.Dir, "run", "--corpus", "corpus", "--implementation", py, "--json-out", "artifacts/other/drp2-fixtures.json"); code == ExitUsage {
		t.Fatalf("the other job: %s", errs)
	}
	putFile(t, filepath.Join(w.Dir, "corpus", "positive", "more.json"), testkit.Fixture("more", testkit.Success, testkit.Hello, testkit.Reply))
	putFile(t, filepath.Join(w.Dir, "drp2", "expectations.txt"), "python-example negative/unknown.json flaky # a fixture it may fail\n")
	seen := map[string]bool{}
	for _, step := range []map[string]string{
		{"INPUT_IMPLEMENTATION": py, "INPUT_RETRIES": "1", "INPUT_EXPECTATIONS": "drp2/expectations.txt", "INPUT_COVERAGE": "true",
			"INPUT_MANIFEST": "corpus/manifest.json", "INPUT_BASELINE": "artifacts/other/drp2-fixtures.json"},
		{"INPUT_SHARD": "1/2"},
		{"INPUT_IMPLEMENTATION": py, "INPUT_RESULTS": "artifacts/*/drp2-fixtures.json"},
	} {
		for k, v := range step {
			w.Env[k] = v
		}
		r := w.Run(t, inProcess)
		if r.Code == ExitUsage {
			t.Fatalf("%v: exit %d\n%s", step, r.Code, r.Log)
		}
		data, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures.json"))
		if err != nil {
			t.Fatalf("%v: no report: %v", step, err)
		}
		if err := testkit.MemberPaths(data, "", seen); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(w.Dir, "drp2-fixtures.json"))
		for k := range step {
			w.Env[k] = ""
		}
	}
	var missing []string
	for _, m := range []string{
		"/summary/repository", "/summary/shard/count", "/verdict/headline",
		"/coverage/rules/*/negative_fixtures", "/manifest/changes/*/kind", "/comparison/implementations/*/implementation",
		"/implementations/*/protocol", "/implementations/*/level2", "/implementations/*/readbacks",
		"/implementations/*/results/*/expectation/expect",
	} {
		if !seen[m] {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		var all []string
		for m := range seen {
			all = append(all, m)
		}
		sort.Strings(all)
		t.Errorf("no report held %s: a mode was not reached; members seen:\n%s", strings.Join(missing, ", "), strings.Join(all, "\n"))
	}
}
