package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// explore from the command line: candidates written below --out, never
// over another file, and reproducing their disagreement under run.
func TestExploreCommand(t *testing.T) {
	py := testkit.PythonExample(t)
	dir := t.TempDir()
	args := []string{"explore", "--count", "40", "--seed", "4", "--implementation", py, "--out", "found", "--format", "json"}
	code, out, errs := run(t, dir, append(args, "--summary", "summary.md")...)
	if code != ExitOK || !strings.Contains(out, `"signature"`) {
		t.Fatalf("explore: exit %d\n%s\n%s", code, out, errs)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "summary.md")); !strings.Contains(string(md), "### DRP2 explore") {
		t.Fatalf("--summary wrote %q", md)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "found", "*", "explore_*.json"))
	if len(files) == 0 {
		t.Fatalf("no candidate written:\n%s", out)
	}
	// A file already at a candidate's path stays as it is.
	if err := os.WriteFile(files[0], []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, dir, append(args[:len(args)-2], "--format", "text")...)
	if code != ExitOK || !strings.Contains(out, "already written") || !strings.Contains(out, "not written: another file is at found/") {
		t.Fatalf("second explore: exit %d\n%s\n%s", code, out, errs)
	}
	if data, _ := os.ReadFile(files[0]); string(data) != "{}\n" {
		t.Fatalf("an existing file was replaced: %s", data)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	// The built-in validator passes every candidate; the Python example
	// fails each one.
	code, out, _ = run(t, dir, "run", "--corpus", "found", "--implementation", py, "--format", "text")
	if code != ExitMismatch || !strings.Contains(out, "all "+strconv.Itoa(len(files)-1)+" fixtures passed") ||
		!strings.Contains(out, "passed 0 of "+strconv.Itoa(len(files)-1)+" fixtures, failed") {
		t.Fatalf("run over the candidates: exit %d\n%s", code, out)
	}

	for _, bad := range [][]string{{"--count", "0"}, {"--format", "xml"}, {"--time", "-1s"}, {"extra"}} {
		if code, _, _ := run(t, dir, append([]string{"explore"}, bad...)...); code != ExitUsage {
			t.Errorf("explore %v: exit %d, want %d", bad, code, ExitUsage)
		}
	}
}

// On a terminal a progress line is rewritten in place and cleared before
// the report; elsewhere there is none.
func TestExploreProgressLine(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, WorkDir: t.TempDir(), IsTerminal: func() bool { return terminal }}
		if code := Main(context.Background(), []string{"explore", "--count", "20"}, env); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		progress := strings.Contains(out.String(), "\rexplore: 20/20 streams, 0 disagreed, 0 signatures")
		if progress != terminal || !strings.Contains(out.String(), "explore: seed 1, 20 of 20 streams") {
			t.Errorf("terminal %v: %q", terminal, out.String())
		}
	}
}
