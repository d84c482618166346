package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/runner"
)

// TestShutdownEndsTheGroup: an implementation that ends normally at
// goodbye does not leave the processes it started behind.
func TestShutdownEndsTheGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	base, read := embeddedRun(t, "session_handshake_ok")
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("spawn:" + pidFile)}, base, read)
	if im := impls[0]; im.Error != "" || im.Summary.Passed != 1 {
		t.Fatalf("%q %+v", im.Error, im.Summary)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the implementation's child %d outlived the run", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// TestSetsidChildIsEnded: a child an implementation started in a session
// of its own (setsid), outside its process group, does not outlive the
// run either: the harness adopts it as a subreaper and ends it.
func TestSetsidChildIsEnded(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	base, read := embeddedRun(t, "session_handshake_ok")
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("setsid:" + pidFile)}, base, read)
	if im := impls[0]; im.Error != "" || im.Summary.Passed != 1 {
		t.Fatalf("%q %+v", im.Error, im.Summary)
	}
	pid := readPid(t, pidFile)
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the implementation's child %d in a session of its own outlived the run", pid)
	}
}

// TestStoppedRunEndsEverything: a run stopped while an implementation
// works on a fixture returns at once with the fixtures answered before
// (the one in flight left out, neither passed nor failed), and leaves no
// process of the implementation, not even its setsid child.
func TestStoppedRunEndsEverything(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	base, read := embeddedRun(t, "session_handshake_ok", "upload_buffer_write", "render_triangle_draw")
	ctx, cancel := context.WithCancel(context.Background())
	hang := base.Results[1].Name
	progress := &runner.Progress{}
	var stopped time.Time
	go func() {
		// Stopped once the first fixture is answered and the second,
		// which hangs, was sent.
		for done, _, _ := progress.Counts(); done < 1; done, _, _ = progress.Counts() {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		stopped = time.Now()
		cancel()
	}()
	impls, err := Run(ctx, Config{Commands: []string{self(t)}, Env: env("setsid:" + pidFile + ",hang:" + hang), Timeout: time.Minute, Progress: progress}, base, read)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(stopped); d > 5*time.Second {
		t.Errorf("the stopped run took %v to return", d)
	}
	if len(impls) != 1 || len(impls[0].Results) != 1 || !impls[0].Results[0].Passed {
		t.Fatalf("%+v", impls)
	}
	if pid := readPid(t, pidFile); alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the implementation's setsid child %d outlived the stopped run", pid)
	}
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
