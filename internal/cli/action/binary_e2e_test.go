//go:build e2e

// End-to-end tests, built with -tags e2e: they build the drp2-fixtures
// binary with go build and run it as a Docker action step does. .ci/run
// runs them once.

package action_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestActionBinary runs the built binary with exactly the environment a
// Docker action step gets.
func TestActionBinary(t *testing.T) {
	bin := builtBinary(t)
	scenarios(t, inBinary(bin))
}

// TestImplementationCannotReadTheToken: the built binary, as a Docker
// action step runs it, starts an implementation that looks for the token
// where a process of the same user can: its parent's environment in /proc
// (the harness takes *TOKEN* variables out of the child's own). It finds
// nothing there, and it gets none of the runner's file commands, through
// which it could set the environment of the job's later steps.
func TestImplementationCannotReadTheToken(t *testing.T) {
	bin := builtBinary(t)
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 2)
	files := t.TempDir()
	leak, envFile := filepath.Join(files, "leak"), filepath.Join(files, "set_env")
	w.Env["GITHUB_ENV"] = envFile
	w.Env["PATH"] = os.Getenv("PATH")
	w.Env["INPUT_IMPLEMENTATION"] = leakyImplementation(t, files, `
tr '\0' '\n' < /proc/$PPID/environ > '`+leak+`' 2>&1
cat '`+leak+`' >&2
for f in "$GITHUB_ENV" "$GITHUB_OUTPUT" "$GITHUB_STEP_SUMMARY"; do
  [ -n "$f" ] && echo "BASH_ENV=/tmp/evil" >> "$f"
done`)
	r := w.Run(t, inBinary(bin))
	read, err := os.ReadFile(leak)
	if err != nil {
		t.Fatalf("the implementation did not run: %v\n%s", err, r.Log)
	}
	if strings.Contains(string(read), token) {
		t.Errorf("the implementation read the token from its parent's environment:\n%s", read)
	}
	if !strings.Contains(string(read), "GITHUB_REPOSITORY") && !strings.Contains(string(read), "ermission denied") {
		t.Errorf("the implementation read neither its parent's environment nor a refusal:\n%s", read)
	}
	if b, _ := os.ReadFile(envFile); strings.Contains(string(b), "evil") {
		t.Errorf("the implementation wrote GITHUB_ENV: %s", b)
	}
	if b, _ := os.ReadFile(w.Output); strings.Contains(string(b), "evil") || strings.Contains(r.Summary, "evil") {
		t.Errorf("the implementation wrote the outputs or the summary: %s\n%s", b, r.Summary)
	}
	for where, text := range everythingWritten(t, w, gh, r) {
		assertNoSecret(t, where, text)
	}
}

// builtBinary builds drp2-fixtures once for the tests that run it.
func builtBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "drp2-fixtures-bin")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(dir, "drp2-fixtures")
		build := exec.Command("go", "build", "-o", binary.path, "./cmd/drp2-fixtures")
		build.Dir = "../../.."
		binary.out, binary.err = build.CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("go build: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}

func inBinary(bin string) stepRunner {
	return func(t *testing.T, w *sandbox) (int, string) {
		cmd := exec.Command(bin, "action")
		cmd.Dir = w.Dir
		cmd.Env = nil
		for k, v := range w.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		sort.Strings(cmd.Env)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
}
