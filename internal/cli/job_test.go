package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A run that runs nothing is not a pass, and says why in the words of
// the front end that was used.
func TestEmptyRunFails(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	cases := []struct {
		name string
		args []string
		want int
		says []string
	}{
		{"name filter", []string{"run", "--name", "nothing-like-it"}, ExitMismatch,
			[]string{`--name "nothing-like-it"`, "matched none of the 2 fixtures"}},
		{"tag filter", []string{"run", "--tag", "zz", "--tag", "aa"}, ExitMismatch,
			[]string{"--tag aa, zz", "matched none"}},
		{"both", []string{"run", "--name", "x", "--tag", "t"}, ExitMismatch,
			[]string{`--name "x" and --tag t`}},
		{"opted out", []string{"run", "--name", "nothing-like-it", "--fail-on", "mismatch"}, ExitOK, nil},
		{"never", []string{"run", "--name", "nothing-like-it", "--fail-on", "never"}, ExitOK, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := run(t, dir, c.args...)
			if code != c.want {
				t.Fatalf("exit %d, want %d\n%s", code, c.want, errOut)
			}
			for _, s := range c.says {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
		})
	}
	empty := t.TempDir()
	os.MkdirAll(filepath.Join(empty, "fixtures", "positive"), 0o755)
	code, _, errOut := run(t, empty, "run")
	if code != ExitMismatch || !strings.Contains(errOut, "holds no .json file") {
		t.Errorf("empty corpus: exit %d\n%s", code, errOut)
	}
}

func TestFailOnFindings(t *testing.T) {
	files := map[string]string{}
	for k, v := range passing {
		files[k] = v
	}
	// A positive fixture in negative/ is a finding, not a failure.
	files["fixtures/negative/ok2.json"] = testkit.Fixture("ok2", `{"outcome": "success"}`, testkit.Hello, testkit.Reply)
	dir := testkit.Corpus(t, files)
	if code, _, errOut := run(t, dir, "run"); code != ExitOK {
		t.Errorf("default: exit %d\n%s", code, errOut)
	}
	code, _, errOut := run(t, dir, "run", "--fail-on", "mismatch,findings")
	if code != ExitMismatch || !strings.Contains(errOut, "findings") {
		t.Errorf("fail-on findings: exit %d\n%s", code, errOut)
	}
}

// Report folders are created, as gotestsum does.
func TestReportFoldersAreCreated(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	code, _, errOut := run(t, dir, "run", "--junit", "reports/deep/junit.xml", "--json-out", "reports/r.json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, f := range []string{"reports/deep/junit.xml", "reports/r.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// An absolute path outside the working directory is the user's choice.
	out := filepath.Join(t.TempDir(), "a", "b.xml")
	if code, _, errOut := run(t, dir, "run", "--junit", out); code != ExitOK {
		t.Errorf("absolute path: exit %d\n%s", code, errOut)
	}
}

// A report path that cannot be written fails the run, after the results
// were printed and the other reports written.
func TestUnwritableReportStillPrintsResults(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	code, out, errOut := run(t, dir, "run", "--junit", "fixtures", "--json-out", "r.json")
	if code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	if !strings.Contains(out, "Summary: discovered 4") {
		t.Errorf("results were not printed:\n%s", out)
	}
	if !strings.Contains(errOut, "JUnit report") {
		t.Errorf("stderr does not name the report:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.json")); err != nil {
		t.Errorf("the JSON report was not written: %v", err)
	}
}

// A pull request can commit a link where a report goes: its target must
// never be overwritten.
func TestReportsAreNeverWrittenThroughALink(t *testing.T) {
	outside := t.TempDir()
	target := filepath.Join(outside, "precious")
	os.WriteFile(target, []byte("keep me"), 0o644)
	for _, c := range []struct{ name, flag, link, report string }{
		{"file link", "--junit", "drp2.xml", "drp2.xml"},
		{"folder link", "--junit", "reports", "reports/drp2.xml"},
		{"summary file link", "--summary", "drp2.xml", "drp2.xml"},
		{"summary folder link", "--summary", "reports", "reports/drp2.xml"},
		{"markdown folder link", "--markdown", "reports", "reports/drp2.xml"},
		{"JSON folder link", "--json-out", "reports", "reports/drp2.xml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := testkit.Corpus(t, passing)
			linkTarget := target
			if c.link == "reports" {
				linkTarget = outside
			}
			if err := os.Symlink(linkTarget, filepath.Join(dir, c.link)); err != nil {
				t.Skip("no symlinks here:", err)
			}
			code, _, errOut := run(t, dir, "run", c.flag, c.report)
			if code != ExitUsage || !strings.Contains(errOut, "symbolic link") {
				t.Errorf("exit %d\n%s", code, errOut)
			}
			if data, _ := os.ReadFile(target); string(data) != "keep me" {
				t.Errorf("the link's target was overwritten: %q", data)
			}
			if _, err := os.Stat(filepath.Join(outside, "drp2.xml")); err == nil {
				t.Error("a report was written through the folder link")
			}
		})
	}
}

// Nothing printed on standard error may act as a workflow command, even
// when it quotes a name a pull request chose.
func TestStderrCarriesNoWorkflowCommand(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	_, _, errOut := run(t, dir, "run", "--corpus", "##[stop-commands]x\n::set-output name=a::b")
	if strings.Contains(errOut, "##[") {
		t.Errorf("stderr carries ##[:\n%s", errOut)
	}
	for _, line := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("stderr line starts a workflow command: %q", line)
		}
	}
	var b bytes.Buffer
	w := logSafe(&b)
	w.Write([]byte("a #"))
	w.Write([]byte("#[x] and ##"))
	w.Write([]byte("[y]\n  ::error::z\n"))
	if got := b.String(); strings.Contains(got, "##[") || strings.Contains(got, "\n  ::") {
		t.Errorf("split writes: %q", got)
	}
}

// Every document a command prints on standard output is safe in an
// Actions log, whichever format it is in: a fixture's name and reason,
// which a pull request wrote, reach JUnit and Markdown as they are, so
// the printing breaks any command they would form.
func TestStdoutCarriesNoWorkflowCommand(t *testing.T) {
	hostile := testkit.FixtureWith("x##[stop-commands]y", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`,
		`"reason": "one\n::error title=forged::x\n\u00a0::warning::y ##[error]z"`, testkit.Hello, testkit.Reply)
	dir := testkit.Corpus(t, map[string]string{"fixtures/negative/x##[stop-commands]y.json": hostile})
	inert := func(what, out string) {
		t.Helper()
		for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if strings.Contains(line, "##[") || strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
				t.Errorf("%s: a line acts as a workflow command: %q", what, line)
			}
		}
	}
	for _, format := range []string{"text", "json", "markdown", "junit"} {
		_, out, _ := run(t, dir, "run", "--format", format, "--verbose")
		if !strings.Contains(out, "stop-commands") {
			t.Fatalf("--format %s does not name the fixture:\n%s", format, out)
		}
		inert("--format "+format, out)
	}
	// manifest write names the corpus, whose folder the pull request named.
	corpus := "c\r::error::forged ##[error]y"
	testkit.WriteFiles(t, dir, map[string]string{corpus + "/positive/ok.json": passing["fixtures/positive/ok.json"]})
	code, out, errOut := run(t, dir, "manifest", "write", "--corpus", corpus)
	if code != ExitOK || !strings.Contains(out, "Wrote ") {
		t.Fatalf("manifest write: exit %d\n%s%s", code, out, errOut)
	}
	inert("manifest write", out)
	_, out, _ = run(t, dir, "manifest", "write", "--corpus", "fixtures", "-o", "-")
	inert("manifest write -o -", out)
}

type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("boom") }

// A panic is the tool's own failure: exit 3, never 2 (unusable input).
func TestPanicExitsInternal(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	var errb bytes.Buffer
	code := Main(context.Background(), []string{"run"}, Env{Stdout: panicWriter{}, Stderr: &errb, WorkDir: dir})
	if code != ExitInternal || !strings.Contains(errb.String(), "internal error: boom") {
		t.Errorf("exit %d\n%s", code, errb.String())
	}
}

// run and action resolve a job the same way: same corpus choice, same
// clock, same exit code for the same input. A PATH filters the corpus the
// search found and never re-roots it, in both.
func TestRunAndActionAgree(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 0, "")
	writeCorpus(t, filepath.Join(w.Dir, "other"), 0, 1)
	writeCorpus(t, filepath.Join(w.Dir, "fixtures"), 0, 1)
	w.Env["INPUT_CORPUS"] = ""
	w.Env["INPUT_PATHS"] = "other"
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["SOURCE_DATE_EPOCH"] = "1767225600"
	w.Env["INPUT_JUNIT-PATH"] = "reports/junit.xml"
	r := w.Run(t, inProcess)
	code, _, errOut := run(t, w.Dir, "run", "other", "--junit", "reports/run.xml")
	const outside = "path other is outside the corpus fixtures"
	if r.Code != code || code != ExitUsage || !strings.Contains(r.Log, outside) || !strings.Contains(errOut, outside) {
		t.Fatalf("a PATH holding another corpus: action exit %d, run exit %d, want both 2 saying %q\n%s\n%s", r.Code, code, outside, r.Log, errOut)
	}
	w.Env["INPUT_PATHS"] = "fixtures/positive"
	r = w.Run(t, inProcess)
	code, _, errOut = run(t, w.Dir, "run", "fixtures/positive", "--junit", "reports/run.xml")
	if r.Code != code || code != ExitOK {
		t.Fatalf("action exit %d, run exit %d\n%s\n%s", r.Code, code, r.Log, errOut)
	}
	a, _ := os.ReadFile(filepath.Join(w.Dir, "reports", "junit.xml"))
	b, _ := os.ReadFile(filepath.Join(w.Dir, "reports", "run.xml"))
	if !bytes.Contains(a, []byte(`timestamp="2026-01-01T00:00:00Z"`)) {
		t.Errorf("the action ignored SOURCE_DATE_EPOCH:\n%s", a)
	}
	if !bytes.Contains(a, []byte(`value="fixtures"`)) || !bytes.Contains(b, []byte(`value="fixtures"`)) {
		t.Errorf("the corpus the search found was not chosen:\n%s\n%s", a, b)
	}
}

func TestTerminalOutput(t *testing.T) {
	dir := testkit.Corpus(t, withFailure())
	runWith := func(terminal bool, noColor string, args ...string) string {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, WorkDir: dir,
			Getenv:     func(k string) string { return map[string]string{"NO_COLOR": noColor}[k] },
			IsTerminal: func() bool { return terminal }}
		Main(context.Background(), append([]string{"run"}, args...), env)
		return out.String()
	}
	plain := runWith(false, "")
	if strings.Contains(plain, "\x1b[") || strings.Contains(plain, "ok.json") {
		t.Errorf("not a terminal: colour or passes shown:\n%s", plain)
	}
	if !strings.Contains(plain, "wrong.json") || !strings.Contains(plain, "2 of 4") {
		t.Errorf("failures or the final count missing:\n%s", plain)
	}
	if got := runWith(true, ""); !strings.Contains(got, "\x1b[") {
		t.Errorf("a terminal without NO_COLOR got no colour:\n%s", got)
	}
	if got := runWith(true, "1"); strings.Contains(got, "\x1b[") {
		t.Errorf("NO_COLOR was ignored:\n%s", got)
	}
	if got := runWith(false, "", "--verbose"); !strings.Contains(got, "ok.json") {
		t.Errorf("--verbose does not list passes:\n%s", got)
	}
}

// fail-on regressions also fails on a fixture the base did not have that
// fails now: a passing fixture renamed and broken in one change shows as
// removed plus added, and must not slip through.
func TestRegressionsGateCountsAddedFailures(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	if code, _, errOut := run(t, dir, "run", "--json-out", "base.json"); code != ExitOK {
		t.Fatalf("base run: exit %d\n%s", code, errOut)
	}
	os.Rename(filepath.Join(dir, "fixtures/positive/ok.json"), filepath.Join(dir, "fixtures/positive/renamed.json"))
	os.WriteFile(filepath.Join(dir, "fixtures/positive/renamed.json"),
		[]byte(testkit.Fixture("renamed", `{"outcome": "success"}`, testkit.Hello, testkit.Reply, `{"cmd": "Draw"}`)), 0o644)
	code, _, errOut := run(t, dir, "run", "--baseline", "base.json", "--fail-on", "regressions")
	if code != ExitMismatch || !strings.Contains(errOut, "1 fixture not on base") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	// Listing it in the same change does not excuse it: the base (a
	// report, whose list is not known) had no such entry.
	os.WriteFile(filepath.Join(dir, "known.txt"), []byte("positive/renamed.json being rewritten\n"), 0o644)
	if code, _, errOut := run(t, dir, "run", "--baseline", "base.json", "--fail-on", "regressions", "--known-failures", "known.txt"); code != ExitMismatch {
		t.Errorf("listed as known by the change itself: exit %d\n%s", code, errOut)
	}
}

// Re-indenting a fixture changes neither its expectation nor its stream.
func TestReformattingIsNoChange(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	if code, _, errOut := run(t, dir, "run", "--json-out", "base.json"); code != ExitOK {
		t.Fatalf("base run: exit %d\n%s", code, errOut)
	}
	p := filepath.Join(dir, "fixtures/positive/ok.json")
	data, _ := os.ReadFile(p)
	var re bytes.Buffer
	if err := json.Indent(&re, data, "", "        "); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, re.Bytes(), 0o644)
	_, out, _ := run(t, dir, "run", "--baseline", "base.json", "--format", "json")
	var doc struct {
		Comparison struct {
			Changes []json.RawMessage `json:"changes"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Comparison.Changes {
		if bytes.Contains(c, []byte("expectation_changed")) || bytes.Contains(c, []byte("stream_changed")) {
			t.Errorf("a re-indented fixture shows as changed: %s", c)
		}
	}
}
