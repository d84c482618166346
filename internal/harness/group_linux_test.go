package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
