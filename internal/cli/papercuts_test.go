package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// Help that is asked for goes to standard output with exit 0, for every
// command, and never runs anything (action --help used to run the action).
func TestEveryCommandHasHelp(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	for _, cmd := range [][]string{
		{"run"}, {"action"}, {"manifest"}, {"manifest", "write"}, {"manifest", "check"},
		{"coverage"}, {"merge"}, {"adapter"}, {"explore"}, {"diff"}, {"version"}, {"help"},
	} {
		for _, h := range []string{"-h", "--help"} {
			code, stdout, stderr := run(t, dir, append(cmd, h)...)
			name := strings.Join(cmd, " ")
			if code != ExitOK || stderr != "" {
				t.Errorf("%s %s: exit %d, stderr %q", name, h, code, stderr)
			}
			if !strings.Contains(stdout, "drp2-fixtures "+cmd[0]) && !strings.Contains(stdout, "Usage: drp2-fixtures COMMAND") {
				t.Errorf("%s %s: stdout is not its usage:\n%s", name, h, stdout)
			}
			if strings.Contains(stdout, "DRP2 conformance:") || strings.Contains(stdout, "::") {
				t.Errorf("%s %s ran instead of printing help:\n%s", name, h, stdout)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "drp2-fixtures.json")); err == nil {
		t.Error("action --help wrote a report")
	}
	code, _, stderr := run(t, dir, "action", "extra")
	if code != ExitUsage || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("action with an argument: exit %d, %q", code, stderr)
	}
}

// The help's two columns line up and fit an 80-column terminal.
func TestHelpFitsItsColumns(t *testing.T) {
	_, stdout, _ := run(t, t.TempDir(), "help")
	col := -1
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if len(line) > usageWidth {
			t.Errorf("%d columns: %q", len(line), line)
		}
		if !strings.HasPrefix(line, "  ") {
			continue
		}
		i := strings.Index(line[2:], "  ")
		for i >= 0 && line[2+i+2] == ' ' {
			i++
		}
		if i < 0 {
			t.Errorf("no second column: %q", line)
			continue
		}
		start := 2 + i + 2
		if col < 0 {
			col = start
		} else if start != col {
			t.Errorf("description at column %d, want %d: %q", start, col, line)
		}
	}
	if col < 0 {
		t.Fatal("no command lines in the help")
	}
}

func TestFlagErrorsAreOneLine(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--timeout", "bogus"}, `invalid value "bogus" for flag -timeout: want a positive duration such as 10s`},
		{[]string{"run", "--timeout", "0s"}, `for flag -timeout: want a positive duration`},
		{[]string{"run", "--workers", "0"}, `invalid value "0" for flag -workers: want a whole number of at least 1 (leave the flag out for one per core)`},
		{[]string{"run", "--workers", "-3"}, `for flag -workers: want a whole number of at least 1`},
		{[]string{"coverage", "--workers", "0"}, `for flag -workers: want a whole number of at least 1`},
		{[]string{"manifest", "write", "--workers", "0"}, `for flag -workers: want a whole number of at least 1`},
		{[]string{"run", "--retries", "two"}, `invalid value "two" for flag -retries: want a whole number of retries, 0 or more, such as 2`},
		{[]string{"run", "--retries", "-1"}, `invalid value "-1" for flag -retries: want a whole number of retries, 0 or more`},
		{[]string{"run", "--max-fixture-size", "1MB"}, `invalid value "1MB" for flag -max-fixture-size: want a whole number of bytes, at least 1, such as 1048576`},
		{[]string{"manifest", "write", "--max-fixture-size", "big"}, `for flag -max-fixture-size: want a whole number of bytes, at least 1`},
		{[]string{"run", "--nope"}, `flag provided but not defined: -nope`},
		{[]string{"merge", "--nope"}, `flag provided but not defined: -nope`},
		{[]string{"diff", "--nope"}, `flag provided but not defined: -nope`},
		{[]string{"adapter", "--nope"}, `flag provided but not defined: -nope`},
	} {
		code, stdout, stderr := run(t, dir, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr (want one line with %q):\n%s", c.args, code, stdout, c.want, stderr)
		}
	}
	// Without the flag, one worker per core: the run goes on.
	if code, _, stderr := run(t, dir, "run", "--workers", "2"); code != ExitOK {
		t.Errorf("--workers 2: exit %d, %s", code, stderr)
	}
}

// --summary, like --junit and --json-out, creates the folders it names.
func TestSummaryCreatesMissingFolders(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	code, _, stderr := run(t, dir, "run", "--summary", "reports/drp2/summary.md")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "reports", "drp2", "summary.md"))
	if err != nil || !strings.Contains(string(data), "DRP2 conformance") {
		t.Errorf("summary: %v\n%s", err, data)
	}
}

// A missing file is named as given, "no such file", without the system
// call that found it missing.
func TestMissingFileMessages(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	for _, c := range []struct {
		args    []string
		missing string
	}{
		{[]string{"run", "--known-failures", "known.txt"}, "known.txt"},
		{[]string{"run", "--implementation", "@impls.txt"}, "impls.txt"},
		{[]string{"diff", "base.json", "head.json"}, "base.json"},
	} {
		args, missing := c.args, c.missing
		code, _, stderr := run(t, dir, args...)
		if code != ExitUsage || !strings.Contains(stderr, missing+": no such file") || strings.Contains(stderr, "statat") || strings.Contains(stderr, "openat") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// run PATH outside any corpus says so, instead of "not in the embedded
// corpus".
func TestRunPathWithoutCorpus(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "loose"), 0o755)
	os.WriteFile(filepath.Join(dir, "loose", "x.json"), []byte("{}"), 0o644)
	code, _, stderr := run(t, dir, "run", "loose/x.json")
	if code != ExitUsage || !strings.Contains(stderr, "path loose/x.json: no corpus holds it") || !strings.Contains(stderr, "--corpus DIR") {
		t.Errorf("a file no corpus holds: exit %d, %q", code, stderr)
	}
	code, _, stderr = run(t, dir, "run", "nowhere/x.json")
	if code != ExitUsage || !strings.Contains(stderr, "path nowhere/x.json: no such file or folder, on disk or in the embedded corpus") {
		t.Errorf("a path that does not exist: exit %d, %q", code, stderr)
	}
}

func TestDiffWithOneArgument(t *testing.T) {
	code, _, stderr := run(t, t.TempDir(), "diff", "head.json")
	if code != ExitUsage || !strings.Contains(stderr, "head.json is one report; diff needs two, BASE.json HEAD.json") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// An implementation whose program is not executable is named with the fix:
// chmod +x, or its interpreter in the command (node for the WebGPU host's
// scripts, python3 for a Python adapter), not "permission denied" alone.
func TestImplementationNotExecutable(t *testing.T) {
	dir := testkit.Corpus(t, passing)
	for name, want := range map[string]string{
		"runtime":    `./runtime is not executable: chmod +x ./runtime, or start it with its interpreter`,
		"adapter.py": `./adapter.py is not executable: chmod +x ./adapter.py, or start it with its interpreter: python3 ./adapter.py`,
		"host.js":    `./host.js is not executable: chmod +x ./host.js, or start it with its interpreter: node ./host.js`,
		"adapter.sh": `./adapter.sh is not executable: chmod +x ./adapter.sh, or start it with its interpreter: sh ./adapter.sh`,
	} {
		putFile(t, filepath.Join(dir, name), "#!/bin/sh\nexit 1\n")
		if err := os.Chmod(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stdout, stderr := run(t, dir, "run", "--implementation", "./"+name+" --flag")
		if !strings.Contains(stderr, want) || !strings.Contains(stdout, want) {
			t.Errorf("%s: want %q in standard output and error:\n%s\n%s", name, want, stdout, stderr)
		}
	}
}
