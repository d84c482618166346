package cli

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestEveryModeWritesOnlyDescribedMembers drives each mode of the command
// line that writes a JSON document: a plain run, known failures, shards
// and their merge, a baseline, a manifest, coverage, diff, and
// implementations with expectations (fail, flaky, skip, a device), retries,
// shards, their merge and a baseline report. run validates each document
// against the schema closed to members it does not describe; this test
// makes sure the modes were reached, by the members their documents hold.
func TestEveryModeWritesOnlyDescribedMembers(t *testing.T) {
	seen := map[string]bool{}
	collect := func(dir, name string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s was not written: %v", name, err)
		}
		if err := testkit.MemberPaths(data, "", seen); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	builtInModes(t, collect, seen)
	implementationModes(t, collect)
	var missing []string
	for _, m := range []string{
		"/summary/shard/index", "/summary/known_failures", "/results/*/known_failure", "/results/*/reason", "/results/*/fix",
		"/results/*/digest/commands", "/results/*/location/line", "/results/*/rule", "/verdict/reasons",
		"/comparison/changes/*/content", "/comparison/changes/*/base/expected_outcome", "/comparison/counts/regressed",
		"/manifest/changes/*/kind", "/manifest/check_clean", "diff/changes", "coverage/rules/*/negative_fixtures", "manifest/changes/*/aspects",
		"/implementations/*/adapter/vendor", "/implementations/*/protocol", "/implementations/*/summary/unexpected_failures",
		"/implementations/*/summary/flaky", "/implementations/*/summary/flaky_failed", "/implementations/*/summary/skipped",
		"/implementations/*/summary/unexpected_passes", "/implementations/*/summary/known_failures",
		"/implementations/*/results/*/expectation/reason", "/implementations/*/results/*/attempts/*/outcome",
		"/comparison/implementations/*/regressed_paths",
	} {
		if !seen[m] {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no document held %s: a mode was not reached", strings.Join(missing, ", "))
	}
	if t.Failed() {
		var all []string
		for m := range seen {
			all = append(all, m)
		}
		sort.Strings(all)
		t.Logf("members seen:\n%s", strings.Join(all, "\n"))
	}
}

// builtInModes runs the built-in validator's modes on a corpus with a
// regression, an explained failure and an unreadable file.
func builtInModes(t *testing.T, collect func(dir, name string), seen map[string]bool) {
	base := testkit.Corpus(t, testkit.Merge(passing, testkit.ManifestCorpus()))
	head := testkit.Corpus(t, testkit.Merge(testkit.ManifestCorpus(), passing, map[string]string{
		"fixtures/negative/explained.json": testkit.FixtureWith("explained", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`,
			`"reason": "the reply names no renderer", "fix": "name one"`, testkit.Hello, testkit.Reply),
	}))
	if code, _, errs := run(t, head, "manifest", "write"); code != ExitOK {
		t.Fatalf("manifest write: %s", errs)
	}
	// After the manifest: a changed stream, an added fixture, a broken one.
	testkit.WriteFiles(t, head, map[string]string{"fixtures/positive/ok.json": regressing()["fixtures/positive/ok.json"],
		"fixtures/positive/more.json":   testkit.Fixture("more", testkit.Success, testkit.Hello, testkit.Reply),
		"fixtures/positive/broken.json": `{"name": `,
		"known.txt":                     "fixtures/negative/explained.json the reply is right, the fixture is not\n"})
	for _, c := range [][]string{
		{"run", "--json-out", "plain.json"},
		{"run", "--known-failures", "known.txt", "--json-out", "known.json"},
		{"run", "--shard", "1/2", "--json-out", "s1.json"},
		{"run", "--shard", "2/2", "--json-out", "s2.json"},
		{"merge", "s1.json", "s2.json", "--json-out", "merged.json"},
		{"run", "--baseline", base, "--json-out", "baseline.json"},
		{"run", "--check-clean", "--json-out", "clean.json"},
	} {
		if code, _, errs := run(t, head, c...); code == ExitUsage {
			t.Fatalf("%v: %s", c, errs)
		}
		collect(head, c[len(c)-1])
	}
	if code, _, errs := run(t, base, "run", "--json-out", "base.json"); code != ExitOK {
		t.Fatalf("base: %s", errs)
	}
	// The members written alone, each as the report's member of its name.
	for _, c := range []struct {
		name string
		args []string
	}{
		{"diff", []string{"diff", "--format", "json", filepath.Join(base, "base.json"), "baseline.json"}},
		{"coverage", []string{"coverage", "--format", "json"}},
		{"manifest", []string{"manifest", "check", "--format", "json"}},
	} {
		code, out, errs := run(t, head, c.args...)
		if code == ExitUsage || !strings.HasPrefix(out, "{") {
			t.Fatalf("%v: exit %d %s", c.args, code, errs)
		}
		if err := testkit.MemberPaths([]byte(out), c.name, seen); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
	}
}

// implementationModes runs a stand-in implementation on a device, with
// expectations of every kind, retries, shards and a baseline report.
func implementationModes(t *testing.T, collect func(dir, name string)) {
	dir, names := fakeCorpus(t, 8)
	writeFile(t, filepath.Join(dir, "rt.txt"), "rt@*swiftshader* "+rel(names[0])+" fail # bug 1\n"+
		"rt "+rel(names[1])+" flaky # races on a software rasterizer\n"+
		"* "+rel(names[2])+" skip # too slow\n"+
		"rt "+rel(names[3])+" fail # fixed upstream\n")
	spec := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)",
		Fail: []string{names[0], names[1], names[2]}, First: []string{names[4]}}
	impl := func(more ...string) []string {
		spec.Marks = t.TempDir()
		return append([]string{"run", "--implementation", fake(t, spec), "--expectations", "rt.txt", "--retries", "1"}, more...)
	}
	for _, c := range [][]string{
		impl("--json-out", "impl.json"),
		impl("--shard", "1/2", "--json-out", "impl-s1.json"),
		impl("--shard", "2/2", "--json-out", "impl-s2.json"),
		{"merge", "impl-s1.json", "impl-s2.json", "--json-out", "impl-merged.json"},
	} {
		if code, _, errs := run(t, dir, c...); code == ExitUsage {
			t.Fatalf("%v: %s", c, errs)
		}
		collect(dir, c[len(c)-1])
	}
	// Against the first report, with a fixture that regressed.
	spec.Fail = append(slices.Clone(spec.Fail), names[5])
	if code, _, errs := run(t, dir, impl("--baseline", "impl.json", "--json-out", "impl-baseline.json")...); code == ExitUsage {
		t.Fatalf("baseline report: %s", errs)
	}
	collect(dir, "impl-baseline.json")
}
