package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// The test binary doubles as `drp2-fixtures adapter` when this variable is
// set, so that the runtime harness can start the project's own adapter
// without building the binary.
const selfAdapterEnv = "DRP2_CLI_TEST_ADAPTER"

func TestMain(m *testing.M) {
	if os.Getenv(selfAdapterEnv) != "" {
		os.Exit(Main(context.Background(), []string{"adapter"}, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	if s := os.Getenv(fakeEnv); s != "" {
		var spec fakeSpec
		if err := json.Unmarshal([]byte(s), &spec); err != nil {
			os.Exit(2)
		}
		os.Exit(fakeImplementation(spec))
	}
	os.Exit(m.Run())
}

// selfAdapter is the command line that runs the project's adapter.
func selfAdapter(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "env " + selfAdapterEnv + "=1 '" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
}

// harnessCorpus has a positive readback stream, a duplicate id (the
// example adapter blames the wrong command) and a schema negative.
var harnessCorpus = testkit.HarnessCorpus

type implReport struct {
	Implementations []struct {
		Name    string `json:"name"`
		Summary struct {
			Run, Passed, Failed, HarnessErrors, Level2Checked, Level2Passed int
			FailingPaths                                                    []string
		} `json:"summary"`
	} `json:"implementations"`
}

func readImplReport(t *testing.T, path string) implReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r implReport
	if err := json.Unmarshal(bytes.ReplaceAll(data, []byte("_"), nil), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRunImplementations runs the project's adapter and the Python example
// side by side: the adapter agrees with the runner, the example fails the
// fixture it gets wrong on purpose and passes Level 2, and every report
// carries the implementation dimension.
func TestRunImplementations(t *testing.T) {
	py := testkit.PythonExample(t)
	dir := testkit.Corpus(t, harnessCorpus)
	code, stdout, stderr := run(t, dir, "run", "--implementation", py, "--implementation", selfAdapter(t),
		"--json-out", "out/impl.json", "--junit", "out/impl.xml", "--summary", "out/summary.md")
	if code != ExitMismatch || !strings.Contains(stderr, "implementation python-example 0.1 failed 1 of 3 fixtures") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "Implementations (best first):\nPASS drp2-fixtures") {
		t.Errorf("text report:\n%s", stdout)
	}
	rep := readImplReport(t, filepath.Join(dir, "out/impl.json"))
	if len(rep.Implementations) != 2 {
		t.Fatalf("%+v", rep)
	}
	pyRes, own := rep.Implementations[0].Summary, rep.Implementations[1].Summary
	if pyRes.Passed != 2 || pyRes.Failed != 1 || pyRes.HarnessErrors != 0 || pyRes.Level2Checked != 1 || pyRes.Level2Passed != 1 ||
		len(pyRes.FailingPaths) != 1 || !strings.HasSuffix(pyRes.FailingPaths[0], "negative/duplicate.json") {
		t.Errorf("python example: %+v", pyRes)
	}
	if own.Passed != 3 || own.Failed != 0 {
		t.Errorf("own adapter: %+v", own)
	}
	xml, _ := os.ReadFile(filepath.Join(dir, "out/impl.xml"))
	if !strings.Contains(string(xml), `<testsuite name="implementation: python-example 0.1" tests="3" failures="1"`) {
		t.Errorf("JUnit has no suite for the example:\n%s", xml)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "out/summary.md"))
	if !strings.Contains(string(summary), "## DRP2 implementations") || !strings.Contains(string(summary), "1 of 1 mirror the requests") {
		t.Errorf("summary:\n%s", summary)
	}
}

// TestMergeShards: two shards run in separate jobs merge into the report
// of one run over everything.
func TestMergeCommand(t *testing.T) {
	dir := testkit.Corpus(t, harnessCorpus)
	self := selfAdapter(t)
	if code, out, errs := run(t, dir, "run", "--implementation", self, "--json-out", "whole.json"); code != ExitOK {
		t.Fatalf("whole run: %d\n%s%s", code, out, errs)
	}
	for i, p := range []string{"fixtures/positive", "fixtures/negative", "fixtures/negative_schema"} {
		out := filepath.Join("shards", string(rune('a'+i))+".json")
		if code, o, e := run(t, dir, "run", "--implementation", self, "--json-out", out, p); code != ExitOK {
			t.Fatalf("shard %s: %d\n%s%s", p, code, o, e)
		}
	}
	code, _, stderr := run(t, dir, "merge", "--json-out", "merged.json", "--junit", "merged.xml", "shards/*.json")
	if code != ExitOK {
		t.Fatalf("merge: %d %s", code, stderr)
	}
	whole, _ := os.ReadFile(filepath.Join(dir, "whole.json"))
	merged, _ := os.ReadFile(filepath.Join(dir, "merged.json"))
	if !bytes.Equal(whole, merged) {
		t.Errorf("merged shards differ from the whole run:\n%s\n---\n%s", merged, whole)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"merge"}, "no report given"},
		{[]string{"merge", "missing/*.json"}, "no such file"},
		{[]string{"merge", "--format", "yaml", "whole.json"}, `invalid value "yaml" for flag -format: want text, json, github, markdown, junit or junit-strict`},
	} {
		if code, _, stderr := run(t, dir, c.args...); code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, stderr)
		}
	}
	// A shard that disagrees with another is refused.
	bad := strings.Replace(string(whole), `"passed": true`, `"passed": false`, 1)
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, dir, "merge", "whole.json", "bad.json"); code != ExitUsage || !strings.Contains(stderr, "disagree") {
		t.Errorf("disagreeing reports: exit %d, %q", code, stderr)
	}
}

// TestAdapterCommand drives `drp2-fixtures adapter` in-process.
func TestAdapterCommand(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"hello","protocol":1}`,
		`{"type":"fixture","seq":1,"name":"x","version":{"major":2,"minor":0},"commands":[` + testkit.Hello + `,` + testkit.Reply + `,{"cmd":"WriteBuffer","buffer_id":9,"offset":0,"size":4,"data":"AAAAAA=="}]}`,
		`{"type":"goodbye"}`,
	}, "\n") + "\n"
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"adapter", "--name", "ref"}, Env{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code != ExitOK || len(lines) != 2 {
		t.Fatalf("exit %d, %q, %q", code, out.String(), errb.String())
	}
	if !strings.Contains(lines[0], `"name":"ref"`) || !strings.Contains(lines[1], `"seq":1,"outcome":"error","phase":"semantic_validation","code":"DRP2_ERR_INVALID_ID","command_index":2`) {
		t.Errorf("%q", lines)
	}
	code = Main(context.Background(), []string{"adapter"}, Env{Stdin: strings.NewReader("garbage\n"), Stdout: &out, Stderr: &errb})
	if code != ExitUsage || !strings.Contains(errb.String(), "not a protocol message") {
		t.Errorf("garbage: exit %d, %q", code, errb.String())
	}
}
