package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// fakeEnv makes the test binary a fake implementation (fakeImplementation)
// that passes every fixture of a positive corpus but the ones it is told
// to fail: always, or on its first attempt only.
const fakeEnv = "DRP2_CLI_TEST_FAKE"

// fakeSpec is what the fake is told: its name and adapter, the fixtures
// it fails always and on its first attempt, and the folder where it marks
// the first attempts, which outlives each of its processes.
type fakeSpec struct {
	Name   string   `json:"name"`
	Vendor string   `json:"vendor,omitempty"`
	Device string   `json:"device,omitempty"`
	Fail   []string `json:"fail,omitempty"`
	First  []string `json:"first,omitempty"`
	Marks  string   `json:"marks,omitempty"`
	// Log, when set, is a file the fake appends the name of every
	// fixture it is sent to, a line each: what the harness sent.
	Log string `json:"log,omitempty"`
}

// fakeImplementation speaks the adapter protocol (docs/harness.md) on
// standard input and output: every fixture succeeds, which is right for a
// corpus of positive fixtures, but those of spec.Fail fail always and
// those of spec.First on the first attempt of the run only.
func fakeImplementation(spec fakeSpec) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var msg struct {
			Type string `json:"type"`
			Seq  int    `json:"seq"`
			Name string `json:"name"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			return 2
		}
		switch msg.Type {
		case "hello":
			hello := map[string]any{"type": "hello", "protocol": 2, "name": spec.Name, "version": "1.0"}
			if spec.Vendor != "" || spec.Device != "" {
				hello["adapter"] = map[string]string{"vendor": spec.Vendor, "device": spec.Device}
			}
			_ = out.Encode(hello)
		case "fixture":
			logSent(spec.Log, msg.Name)
			v := map[string]any{"type": "verdict", "seq": msg.Seq, "outcome": "success"}
			if fakeFails(spec, msg.Name) {
				v = map[string]any{"type": "verdict", "seq": msg.Seq, "outcome": "error", "phase": "semantic_validation",
					"code": "DRP2_ERR_FAKE", "command_index": 0, "message": "the fake fails " + msg.Name}
			}
			_ = out.Encode(v)
		case "goodbye":
			return 0
		}
	}
	return 0
}

// logSent appends name to the fake's log, when it keeps one.
func logSent(log, name string) {
	if log == "" {
		return
	}
	f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(name + "\n")
	_ = f.Close()
}

// fakeFails says whether the fake fails the fixture name now: always, or
// when no earlier process of the run marked its first attempt.
func fakeFails(spec fakeSpec, name string) bool {
	if slices.Contains(spec.Fail, name) {
		return true
	}
	if !slices.Contains(spec.First, name) {
		return false
	}
	mark := filepath.Join(spec.Marks, name)
	if _, err := os.Stat(mark); err == nil {
		return false
	}
	_ = os.WriteFile(mark, nil, 0o644)
	return true
}

// fake is the command line that runs the test binary as the fake.
func fake(t *testing.T, spec fakeSpec) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(spec)
	return "env " + fakeEnv + "=" + shellQuote(string(data)) + " " + shellQuote(exe)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fakeCorpus lays out n passing positive fixtures, render_case_000 on,
// and returns the working directory and the fixtures' names.
func fakeCorpus(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteRenderCorpus(t, filepath.Join(dir, "fixtures"), 0, n)
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("render_case_%03d", i)
	}
	return dir, names
}

// chosen picks k of names with a seeded shuffle: the same seed, the same
// fixtures.
func chosen(names []string, seed int64, k int) []string {
	r := rand.New(rand.NewSource(seed))
	p := slices.Clone(names)
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	out := slices.Clone(p[:k])
	slices.Sort(out)
	return out
}

func rel(name string) string { return "positive/" + name + ".json" }

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// expectReport is the part of the JSON report these tests read.
type expectReport struct {
	Summary struct {
		KnownFailures    int `json:"known_failures"`
		UnexpectedPasses int `json:"unexpected_passes"`
	} `json:"summary"`
	Findings []struct {
		Kind, Path, Message string
	} `json:"findings"`
	Implementations []struct {
		Name     string `json:"name"`
		Restarts int    `json:"restarts"`
		Summary  struct {
			Passed             int      `json:"passed"`
			Failed             int      `json:"failed"`
			UnexpectedFailures int      `json:"unexpected_failures"`
			KnownFailures      int      `json:"known_failures"`
			Flaky              int      `json:"flaky"`
			UnexpectedPasses   int      `json:"unexpected_passes"`
			Skipped            int      `json:"skipped"`
			FailingPaths       []string `json:"failing_paths"`
		} `json:"summary"`
		Results []struct {
			CorpusPath  string `json:"corpus_path"`
			Outcome     string `json:"actual_outcome"`
			Passed      bool   `json:"passed"`
			Expectation *struct {
				Expect, Entry string
			} `json:"expectation"`
			Attempts []struct{ Outcome string } `json:"attempts"`
		} `json:"results"`
	} `json:"implementations"`
}

func readExpectReport(t *testing.T, path string) expectReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r expectReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Implementations) != 1 {
		t.Fatalf("%d implementations", len(r.Implementations))
	}
	return r
}

// expectationsFile lists fails as expected failures of rt and flaky as
// flaky, with a comment line and reasons.
func expectationsFile(fails, flaky []string) string {
	var b strings.Builder
	b.WriteString("# rt's expectations\n\n")
	for i, n := range fails {
		fmt.Fprintf(&b, "rt  %s  fail  # bug %d\n", rel(n), i+1)
	}
	for _, n := range flaky {
		fmt.Fprintf(&b, "rt  %s  flaky  # races on a software rasterizer\n", rel(n))
	}
	return b.String()
}

// TestExpectations is the implementer's gate: 20 expected failures and 2
// flaky fixtures give a green run that names them; one further failure
// turns it red and names that fixture alone.
func TestExpectations(t *testing.T) {
	dir, names := fakeCorpus(t, 30)
	picked := chosen(names, 1, 23)
	fails, flaky, further := picked[:20], picked[20:22], picked[22]
	writeFile(t, filepath.Join(dir, "rt.txt"), expectationsFile(fails, flaky))
	spec := fakeSpec{Name: "rt", Fail: fails, First: flaky, Marks: t.TempDir()}
	code, stdout, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt",
		"--json-out", "out.json", "--junit", "out.xml")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rep := readExpectReport(t, filepath.Join(dir, "out.json"))
	s := rep.Implementations[0].Summary
	// A listed flaky fixture is not retried: both fail their first and only
	// attempt here, excused.
	if s.Failed != 22 || s.KnownFailures != 20 || s.Flaky != 2 || s.UnexpectedFailures != 0 || s.Passed != 8 {
		t.Errorf("summary %+v", s)
	}
	// Expected failures are counted, not listed: the entries name them.
	for _, n := range picked[:22] {
		if strings.Contains(stdout, rel(n)) {
			t.Errorf("the text report lists the expected failure %s:\n%s", n, stdout)
		}
	}
	if !strings.Contains(stdout, "(20 known failures, 2 flaky)") {
		t.Errorf("text report:\n%s", stdout)
	}
	junit, _ := os.ReadFile(filepath.Join(dir, "out.xml"))
	if n := strings.Count(string(junit), "<failure"); n != 0 {
		t.Errorf("%d JUnit failures in a green run", n)
	}

	// One further failure: red, and that fixture alone fails it.
	spec.Fail = append(slices.Clone(fails), further)
	spec.Marks = t.TempDir()
	code, stdout, stderr = run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt",
		"--json-out", "out.json", "--junit", "out.xml")
	if code != ExitMismatch || !strings.Contains(stderr, "implementation rt 1.0 failed 1 of 30 fixtures") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rep = readExpectReport(t, filepath.Join(dir, "out.json"))
	if s := rep.Implementations[0].Summary; s.UnexpectedFailures != 1 || s.KnownFailures != 20 {
		t.Errorf("summary %+v", s)
	}
	junit, _ = os.ReadFile(filepath.Join(dir, "out.xml"))
	if n := strings.Count(string(junit), "<failure"); n != 1 || !strings.Contains(string(junit), `name="`+further+`"`) {
		t.Errorf("%d JUnit failures, want 1 for %s", n, further)
	}
	var listed []string
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, "positive/render_case_") {
			listed = append(listed, line)
		}
	}
	if len(listed) != 1 || !strings.Contains(listed[0], rel(further)) {
		t.Errorf("fixtures listed in the text report: %q, want the unexpected failure alone", listed)
	}
}

// TestUpdateExpectations: an expectation that now passes is reported,
// and --update-expectations removes it, adds the new failure with the
// reason "new" and keeps everything else; the summary shows the diff.
func TestUpdateExpectations(t *testing.T) {
	dir, names := fakeCorpus(t, 6)
	list := "# rt's expectations\n" +
		"rt " + rel(names[0]) + " fail # bug 1\n" +
		"\n# fixed upstream, it seems\n" +
		"rt " + rel(names[1]) + " fail # bug 2\n" +
		"rt " + rel(names[2]) + " flaky\n"
	writeFile(t, filepath.Join(dir, "rt.txt"), list)
	spec := fakeSpec{Name: "rt", Fail: []string{names[0], names[3]}}
	args := []string{"run", "--implementation", fake(t, spec), "--expectations", "rt.txt", "--update-expectations", "rt.txt",
		"--summary", "summary.md", "--json-out", "out.json"}
	code, stdout, stderr := run(t, dir, args...)
	if code != ExitMismatch || !strings.Contains(stdout, "1 unexpected pass: expected to fail, it passed; remove its entry (--update-expectations does): ") ||
		!strings.Contains(stdout, rel(names[1])+" (rt.txt:5)") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rep := readExpectReport(t, filepath.Join(dir, "out.json"))
	if s := rep.Implementations[0].Summary; s.UnexpectedPasses != 1 || s.UnexpectedFailures != 1 || s.KnownFailures != 1 {
		t.Errorf("summary %+v", s)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "rt.txt"))
	want := "# rt's expectations\n" +
		"rt " + rel(names[0]) + " fail # bug 1\n" +
		"\n# fixed upstream, it seems\n" +
		"rt " + rel(names[2]) + " flaky\n" +
		"rt " + rel(names[3]) + " fail # new\n"
	if string(got) != want {
		t.Errorf("updated expectations:\n%s\nwant:\n%s", got, want)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	diff := "```diff\n--- rt.txt\n+++ rt.txt\n@@ -2,5 +2,5 @@\n rt " + rel(names[0]) + " fail # bug 1\n \n # fixed upstream, it seems\n" +
		"-rt " + rel(names[1]) + " fail # bug 2\n rt " + rel(names[2]) + " flaky\n+rt " + rel(names[3]) + " fail # new\n```\n"
	if !strings.Contains(string(summary), diff) {
		t.Errorf("summary without the diff %q:\n%s", diff, summary)
	}

	// The list kept true: the same run is green, and changes nothing.
	code, stdout, stderr = run(t, dir, args...)
	if code != ExitOK || !strings.Contains(stdout, "Expectations written to rt.txt: unchanged") {
		t.Fatalf("second run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "rt.txt"))
	if string(again) != want {
		t.Errorf("second update changed the list:\n%s", again)
	}
}

// TestRetries: with --retries 2, 100 runs against a fixture that fails
// only a first attempt give no red run; without retries, every run is red.
func TestRetries(t *testing.T) {
	dir, names := fakeCorpus(t, 3)
	red := 0
	for i := 0; i < 100; i++ {
		spec := fakeSpec{Name: "rt", First: []string{names[1]}, Marks: t.TempDir()}
		code, stdout, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--retries", "2", "--json-out", "out.json")
		if code != ExitOK {
			red++
			t.Errorf("run %d: exit %d\n%s\n%s", i, code, stdout, stderr)
			continue
		}
		if i > 0 {
			continue
		}
		// The first run's record: flaky, with both attempts, the second
		// to a fresh process.
		rep := readExpectReport(t, filepath.Join(dir, "out.json"))
		if rep.Implementations[0].Restarts != 1 {
			t.Errorf("%d processes started after the first, want 1", rep.Implementations[0].Restarts)
		}
		r := rep.Implementations[0].Results[1]
		if s := rep.Implementations[0].Summary; s.Flaky != 1 || s.Passed != 3 || !r.Passed || len(r.Attempts) != 2 ||
			r.Attempts[0].Outcome != "error" || r.Attempts[1].Outcome != "success" {
			t.Errorf("summary %+v, result %+v", s, r)
		}
		if !strings.Contains(stdout, rel(names[1])+" (passed on attempt 2)") {
			t.Errorf("text report:\n%s", stdout)
		}
	}
	if red != 0 {
		t.Errorf("%d of 100 runs red", red)
	}
	spec := fakeSpec{Name: "rt", First: []string{names[1]}, Marks: t.TempDir()}
	if code, _, _ := run(t, dir, "run", "--implementation", fake(t, spec)); code != ExitMismatch {
		t.Errorf("without retries: exit %d, want red", code)
	}
	spec.Marks = t.TempDir()
	if code, _, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--retries", "1", "--fail-on", "mismatch,flaky"); code != ExitMismatch ||
		!strings.Contains(stderr, "implementation rt 1.0 has 1 flaky fixture (fail-on flaky)") {
		t.Errorf("under fail-on flaky: exit %d\n%s", code, stderr)
	}
}

// TestExpectationsDeviceAndSkip: NAME@GLOB narrows an entry to the
// devices whose description it matches, case-insensitively; a skipped
// fixture is not sent (the fake would fail it) and counts as skipped; a
// malformed line and an entry naming no fixture are findings, and the run
// goes on.
func TestExpectationsDeviceAndSkip(t *testing.T) {
	dir, names := fakeCorpus(t, 4)
	writeFile(t, filepath.Join(dir, "rt.txt"), "rt@*swiftshader* "+rel(names[0])+" fail # lavapipe only\n"+
		"* "+rel(names[1])+" skip # too slow\n"+
		"rt positive/ fail fail\n"+
		"rt positive/gone.json fail\n"+
		"rt "+rel(names[2])+" sometimes\n")
	spec := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)", Fail: []string{names[0], names[1]}}
	code, stdout, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt", "--json-out", "out.json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rep := readExpectReport(t, filepath.Join(dir, "out.json"))
	s := rep.Implementations[0].Summary
	if s.KnownFailures != 1 || s.Skipped != 1 || s.Passed != 2 {
		t.Errorf("summary %+v", s)
	}
	if r := rep.Implementations[0].Results[1]; r.Outcome != "skipped" || r.Expectation == nil || r.Expectation.Entry != "rt.txt:2" {
		t.Errorf("skipped result %+v", r)
	}
	var findings []string
	for _, f := range rep.Findings {
		findings = append(findings, f.Message)
	}
	want := []string{
		"expectation fail (rt.txt:4) names no fixture of the corpus; remove it from the list",
		"rt.txt:3: \"fail\" after the expectation: want KEY=VALUE, KEY one of platform, version, owner, expires; the line is left out",
		"rt.txt:5: expectation \"sometimes\" is not fail, flaky or skip; the line is left out",
	}
	if strings.Join(findings, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(findings, "\n"), strings.Join(want, "\n"))
	}

	// On another device the entry does not apply: a new failure.
	spec.Device = "NVIDIA GeForce RTX 4090"
	code, _, stderr = run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt")
	if code != ExitMismatch || !strings.Contains(stderr, "implementation rt 1.0 failed 1 of 3 fixtures") {
		t.Errorf("another device: exit %d\n%s", code, stderr)
	}
}

// TestMergeExpectations: a report keeps the expectations its run applied
// when merged, and merge --expectations judges it by another list.
func TestMergeExpectations(t *testing.T) {
	dir, names := fakeCorpus(t, 3)
	writeFile(t, filepath.Join(dir, "rt.txt"), "rt "+rel(names[0])+" fail\n")
	spec := fakeSpec{Name: "rt", Fail: []string{names[0]}}
	if code, _, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt", "--json-out", "r.json"); code != ExitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, dir, "merge", "r.json"); code != ExitOK {
		t.Errorf("merge: exit %d\n%s", code, stderr)
	}
	writeFile(t, filepath.Join(dir, "none.txt"), "# nothing expected\n")
	if code, _, stderr := run(t, dir, "merge", "--expectations", "none.txt", "r.json"); code != ExitMismatch ||
		!strings.Contains(stderr, "implementation rt 1.0 failed 1 of 3 fixtures") {
		t.Errorf("merge with an empty list: exit %d\n%s", code, stderr)
	}
}

// TestUpdateExpectationsQuotesNames: an implementation's name with
// spaces, '#', '@' and quotes, as a host may give in its hello, is
// written quoted, read back, and keeps the next run green.
func TestUpdateExpectationsQuotesNames(t *testing.T) {
	dir, names := fakeCorpus(t, 3)
	name := `webgpu.js on node/swiftshader #2 @"lab"\x`
	spec := fakeSpec{Name: name, Fail: []string{names[1]}}
	args := []string{"run", "--implementation", fake(t, spec), "--update-expectations", "rt.txt"}
	code, stdout, stderr := run(t, dir, args...)
	if code != ExitMismatch {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "rt.txt"))
	want := `"webgpu.js on node/swiftshader #2 @\"lab\"\\x" ` + rel(names[1]) + " fail # new\n"
	if string(got) != want {
		t.Fatalf("written:\n%s\nwant:\n%s\nstdout:\n%s", got, want, stdout)
	}
	code, stdout, stderr = run(t, dir, append(args, "--expectations", "rt.txt", "--json-out", "out.json")...)
	if code != ExitOK || !strings.Contains(stdout, "Expectations written to rt.txt: unchanged") {
		t.Fatalf("second run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if s := readExpectReport(t, filepath.Join(dir, "out.json")).Implementations[0].Summary; s.KnownFailures != 1 {
		t.Errorf("summary %+v", s)
	}
}

// TestUpdateExpectationsWritesFlaky: with retries, a fixture that failed
// and then passed is written flaky and one that failed every attempt
// fail; the next run, whichever way the flaky one goes, is green and
// changes nothing.
func TestUpdateExpectationsWritesFlaky(t *testing.T) {
	dir, names := fakeCorpus(t, 4)
	for i := 0; i < 3; i++ {
		spec := fakeSpec{Name: "rt", First: []string{names[1]}, Fail: []string{names[2]}, Marks: t.TempDir()}
		if i == 2 {
			// This time the flaky fixture fails every attempt.
			spec.Fail = append(spec.Fail, names[1])
		}
		args := []string{"run", "--implementation", fake(t, spec), "--retries", "1", "--update-expectations", "rt.txt"}
		if i > 0 {
			args = append(args, "--expectations", "rt.txt")
		}
		code, stdout, stderr := run(t, dir, args...)
		if i > 0 && (code != ExitOK || !strings.Contains(stdout, "Expectations written to rt.txt: unchanged")) {
			t.Errorf("run %d: exit %d\n%s\n%s", i, code, stdout, stderr)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "rt.txt"))
		want := "rt " + rel(names[1]) + " flaky # new\nrt " + rel(names[2]) + " fail # new\n"
		if string(got) != want {
			t.Fatalf("run %d wrote:\n%s\nwant:\n%s\nstdout:\n%s", i, got, want, stdout)
		}
	}
}

// TestExpectationsTakeReportPaths: a fixture's path as the reports print
// it (under the corpus's folder) is taken relative to the corpus, and an
// entry naming a fixture under another folder is told how to write it.
func TestExpectationsTakeReportPaths(t *testing.T) {
	dir, names := fakeCorpus(t, 3)
	writeFile(t, filepath.Join(dir, "rt.txt"), "rt fixtures/"+rel(names[0])+" fail\n"+
		"rt elsewhere/fixtures/"+rel(names[1])+" fail\n")
	spec := fakeSpec{Name: "rt", Fail: []string{names[0]}}
	code, stdout, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt", "--json-out", "out.json")
	if code != ExitOK || !strings.Contains(stdout, "(1 known failure)") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rep := readExpectReport(t, filepath.Join(dir, "out.json"))
	if s := rep.Implementations[0].Summary; s.KnownFailures != 1 {
		t.Errorf("summary %+v", s)
	}
	var findings []string
	for _, f := range rep.Findings {
		findings = append(findings, f.Message)
	}
	want := "expectation fail (rt.txt:2) names no fixture of the corpus; paths are written relative to the corpus: write " + rel(names[1])
	if strings.Join(findings, "\n") != want {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(findings, "\n"), want)
	}
}

// TestUpdateExpectationsNamesTheDevice: an entry written for a failure
// names the device the implementation described in its hello, quoted as
// the list needs it, so that the list written on SwiftShader keeps the
// same failure on another GPU unexcused.
func TestUpdateExpectationsNamesTheDevice(t *testing.T) {
	dir, names := fakeCorpus(t, 3)
	spec := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)", Fail: []string{names[1]}}
	code, stdout, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--update-expectations", "rt.txt")
	if code != ExitMismatch {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "rt.txt"))
	want := `rt@"*Google*SwiftShader Device (Subzero)*" ` + rel(names[1]) + " fail # new\n"
	if string(got) != want {
		t.Fatalf("wrote:\n%s\nwant:\n%s", got, want)
	}
	if code, stdout, stderr = run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt"); code != ExitOK {
		t.Errorf("same device: exit %d\n%s\n%s", code, stdout, stderr)
	}
	spec.Vendor, spec.Device = "NVIDIA", "GeForce RTX 4090"
	if code, stdout, stderr = run(t, dir, "run", "--implementation", fake(t, spec), "--expectations", "rt.txt"); code != ExitMismatch {
		t.Errorf("another device: exit %d, want its failure unexcused\n%s\n%s", code, stdout, stderr)
	}
}
