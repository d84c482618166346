//go:build e2e

package action_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// toyImplementation is a Level 2 implementation (it claims to execute)
// that answers two fixtures and then works on the third for five minutes.
// As "spawner" it first starts a child in a session of its own (setsid),
// outside the process group the harness ends. It writes its pid, its
// child's, and "busy" once it works on the third fixture, to record.
const toyImplementation = `import json, os, subprocess, sys, time
mode, record = sys.argv[1], sys.argv[2]
def note(word, pid):
    with open(record, "a") as f:
        f.write("%s %d\n" % (word, pid))
note("process", os.getpid())
answered = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        out = {"type": "hello", "protocol": 1, "name": "toy-" + mode, "version": "1.0", "executes": True}
    elif msg["type"] == "fixture":
        if mode == "spawner" and answered == 0:
            note("process", subprocess.Popen(["setsid", "sleep", "300"]).pid)
        if answered == 2:
            note("busy", os.getpid())
            time.sleep(300)
        answered += 1
        out = {"type": "verdict", "seq": msg["seq"], "outcome": "success", "replies": []}
    else:
        break
    print(json.dumps(out), flush=True)
`

// signalBound is how long the gate may take from SIGTERM to its exit,
// reports written and implementations ended.
const signalBound = 10 * time.Second

// interruptedStep starts cmd, waits until both toy implementations work
// on their third fixture, sends SIGTERM, and returns the exit code and
// how long the process took to end after it. Every process the toys
// recorded must be gone by then.
func interruptedStep(t *testing.T, cmd *exec.Cmd, record string) (int, time.Duration) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for busy(t, record) < 2 {
		select {
		case err := <-exited:
			t.Fatalf("the step ended before both implementations were busy: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the implementations never got to their third fixture")
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var took time.Duration
	select {
	case <-exited:
		took = time.Since(sent)
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the step did not end within a minute of SIGTERM")
	}
	for _, pid := range recorded(t, record) {
		if alive(pid) {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
			t.Errorf("process %d of an implementation outlived the step", pid)
		}
	}
	return cmd.ProcessState.ExitCode(), took
}

// busy counts the implementations working on their third fixture.
func busy(t *testing.T, record string) int {
	data, _ := os.ReadFile(record)
	return strings.Count(string(data), "busy ")
}

// recorded are the pids the toys wrote: their own and their children's.
func recorded(t *testing.T, record string) []int {
	t.Helper()
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		word, n, _ := strings.Cut(line, " ")
		if pid, err := strconv.Atoi(n); err == nil && word == "process" {
			pids = append(pids, pid)
		}
	}
	if len(pids) != 3 {
		t.Fatalf("recorded %q: want two implementations and a child", data)
	}
	return pids
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// toys writes the toy implementation and returns the command lines of a
// sleeper and a spawner, and the file they record to.
func toys(t *testing.T) (commands []string, record string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 runs the toy implementation: ", err)
	}
	dir := t.TempDir()
	script, record := filepath.Join(dir, "toy.py"), filepath.Join(dir, "record")
	if err := os.WriteFile(script, []byte(toyImplementation), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"sleeper", "spawner"} {
		commands = append(commands, fmt.Sprintf("python3 '%s' %s '%s'", script, mode, record))
	}
	return commands, record
}

// interruptedReport checks the JSON report of the interrupted run: 2 of
// 5 fixtures, by SIGTERM, failing, valid against its schema (read back).
func interruptedReport(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no JSON report: %v", err)
	}
	var doc struct {
		Summary struct {
			Interrupted *struct {
				Signal   string
				Done, Of int
			}
		}
		Implementations []struct{ Results []json.RawMessage }
		Verdict         struct {
			Failed   bool
			Headline string
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	in := doc.Summary.Interrupted
	if in == nil || in.Signal != "SIGTERM" || in.Done != 2 || in.Of != 5 {
		t.Errorf("summary.interrupted %+v, want SIGTERM after 2 of 5", in)
	}
	if !doc.Verdict.Failed || !strings.HasPrefix(doc.Verdict.Headline, "interrupted by SIGTERM after 2 of 5 fixtures") {
		t.Errorf("verdict %+v", doc.Verdict)
	}
	if len(doc.Implementations) != 2 || len(doc.Implementations[0].Results) != 2 || len(doc.Implementations[1].Results) != 2 {
		t.Errorf("the implementations' results are not the 2 fixtures that ran: %s", data)
	}
	// Read back, as the gate's results input reads it: still interrupted,
	// and failing.
	check := exec.Command(builtBinary(t), "merge", "--format", "json", path)
	if out, err := check.CombinedOutput(); !strings.Contains(string(out), `"interrupted"`) || check.ProcessState.ExitCode() != 1 {
		t.Errorf("the report read back by merge: %v\n%s", err, out)
	}
}

// TestSIGTERMDuringLevel2Run: SIGTERM while two implementations each work
// on a fixture, one of them with a child in a session of its own, ends
// the command line's run within signalBound with exit code 143, no
// process of either implementation left, and the reports of the two
// fixtures each answered: JSON, JUnit, the job summary and the text
// report, interrupted after 2 of 5 and failing.
func TestSIGTERMDuringLevel2Run(t *testing.T) {
	bin := builtBinary(t)
	commands, record := toys(t)
	dir := t.TempDir()
	testkit.WriteRenderCorpus(t, filepath.Join(dir, "corpus"), 0, 5)
	args := []string{"run", "--corpus", "corpus", "--timeout", "5m", "--json-out", "out/report.json", "--junit", "out/junit.xml", "--summary", "out/summary.md"}
	for _, c := range commands {
		args = append(args, "--implementation", c)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code, took := interruptedStep(t, cmd, record)
	t.Logf("ended %v after SIGTERM, exit code %d", took, code)
	if code != 143 || took > signalBound {
		t.Errorf("exit code %d after %v, want 143 within %v\n%s", code, took, signalBound, stderr.String())
	}
	if !strings.Contains(stdout.String(), "interrupted by SIGTERM after 2 of 5 fixtures") {
		t.Errorf("the text report:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "interrupted by SIGTERM") || strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	interruptedReport(t, filepath.Join(dir, "out", "report.json"))
	for _, f := range []string{"junit.xml", "summary.md"} {
		if b, err := os.ReadFile(filepath.Join(dir, "out", f)); err != nil || !strings.Contains(string(b), "interrupted by SIGTERM after 2 of 5 fixtures") {
			t.Errorf("%s: %v\n%s", f, err, b)
		}
	}
}

// TestSIGTERMDuringLevel2Action: the same in the action's step, as a
// Docker action runs the binary: the job summary, the step outputs and
// the JSON report say what ran, interrupted, and the step exits 143 within
// signalBound with no process of the implementations left.
func TestSIGTERMDuringLevel2Action(t *testing.T) {
	bin := builtBinary(t)
	commands, record := toys(t)
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 5)
	w.Env["PATH"] = os.Getenv("PATH")
	w.Env["INPUT_IMPLEMENTATION"] = strings.Join(commands, "\n")
	cmd := exec.Command(bin, "action")
	cmd.Dir = w.Dir
	for k, v := range w.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	code, took := interruptedStep(t, cmd, record)
	t.Logf("ended %v after SIGTERM, exit code %d", took, code)
	if code != 143 || took > signalBound {
		t.Errorf("exit code %d after %v, want 143 within %v\n%s", code, took, signalBound, log.String())
	}
	summary, _ := os.ReadFile(w.Summary)
	if !strings.Contains(string(summary), "interrupted by SIGTERM after 2 of 5 fixtures") || strings.Contains(string(summary), "tool's own failure") {
		t.Errorf("the job summary:\n%s", summary)
	}
	if out := testkit.ReadOutputs(t, w.Output); out["conclusion"] != "failure" {
		t.Errorf("outputs %v", out)
	}
	if !strings.Contains(log.String(), "::warning title=drp2-fixtures::interrupted by SIGTERM: nothing was published") {
		t.Errorf("the log:\n%s", log.String())
	}
	interruptedReport(t, filepath.Join(w.Dir, "drp2-fixtures.json"))
}
