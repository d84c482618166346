package secret

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// hideTestEnv makes the test binary the process under test: it hides its
// secrets, then reports what it and a child of its can see.
const hideTestEnv = "HIDE_UNDER_TEST"

func TestMain(m *testing.M) {
	if os.Getenv(hideTestEnv) != "" {
		os.Exit(hideAndReport())
	}
	os.Exit(m.Run())
}

type hideReport struct {
	Err      string
	Getenv   string // what the process itself reads of MY_API_TOKEN
	Kernel   string // its environment as the kernel shows it
	Child    string // what a child read of its parent's environment
	HandOver bool
	Comm     string // the process's name, as ps -C and pgrep match it
	Before   string // its name before Hide
}

func hideAndReport() int {
	pid := os.Getpid()
	if v := os.Getenv("HIDE_UNDER_TEST_PID"); v != "" && v != fmt.Sprint(pid) {
		fmt.Println(`{"Err":"the pid changed"}`)
		return 1
	}
	os.Setenv("HIDE_UNDER_TEST_PID", fmt.Sprint(pid))
	var rep hideReport
	before, _ := os.ReadFile("/proc/self/comm")
	if rep.Before = os.Getenv("HIDE_UNDER_TEST_COMM"); rep.Before == "" {
		rep.Before = strings.TrimSpace(string(before))
		os.Setenv("HIDE_UNDER_TEST_COMM", rep.Before)
	}
	if err := Hide(); err != nil {
		rep.Err = err.Error()
	}
	rep.Getenv = os.Getenv("MY_API_TOKEN")
	comm, _ := os.ReadFile("/proc/self/comm")
	rep.Comm = strings.TrimSpace(string(comm))
	kernel, _ := os.ReadFile("/proc/self/environ")
	rep.Kernel = string(kernel)
	_, rep.HandOver = os.LookupEnv(handOverVar)
	// A child of the same user reads its parent's environment.
	out, err := exec.Command("sh", "-c", `cat /proc/$PPID/environ`).CombinedOutput()
	rep.Child = string(out)
	if err != nil {
		rep.Child += " (" + err.Error() + ")"
	}
	b, _ := json.Marshal(rep)
	fmt.Println(string(b))
	return 0
}

// TestHide: after Hide, the secret is in the process's own environment
// but not in the environment the kernel shows to other processes, and the
// pid is the same (the binary was executed again in place).
func TestHide(t *testing.T) {
	const value = "hunter2-very-secret-value"
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hideTestEnv+"=1", "MY_API_TOKEN="+value, "PLAIN=kept")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rep hideReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Err != "" {
		t.Fatalf("Hide: %s", rep.Err)
	}
	if rep.Getenv != value {
		t.Errorf("the process lost its secret: %q", rep.Getenv)
	}
	if strings.Contains(rep.Kernel, value) || !strings.Contains(rep.Kernel, "PLAIN=kept") {
		t.Errorf("/proc/self/environ: %q", rep.Kernel)
	}
	if strings.Contains(rep.Child, value) {
		t.Errorf("a child read the secret: %q", rep.Child)
	}
	if rep.HandOver {
		t.Errorf("%s is still set", handOverVar)
	}
	if rep.Comm != rep.Before || rep.Comm == "exe" {
		t.Errorf("the process is named %q after Hide, %q before", rep.Comm, rep.Before)
	}
}

// TestRenameNamesTheMainThread: the name ps -C and pgrep match is the main
// thread's, whichever thread renames the process.
func TestRenameNamesTheMainThread(t *testing.T) {
	before, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Skipf("SKIPPED: no /proc: %v", err)
	}
	old := strings.TrimSpace(string(before))
	// A goroutine that lands on the main thread keeps it, locked, until
	// the test ends, so that the next one runs on another thread.
	release := make(chan struct{})
	defer close(release)
	renamed := false
	for range 8 {
		done := make(chan error, 1)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if syscall.Gettid() == os.Getpid() {
				done <- errMainThread
				<-release
				return
			}
			done <- rename("renamed-test")
		}()
		if err := <-done; err == errMainThread {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		renamed = true
		break
	}
	if !renamed {
		t.Skip("SKIPPED: no goroutine ran off the main thread")
	}
	defer rename(old)
	if now, _ := os.ReadFile("/proc/self/comm"); strings.TrimSpace(string(now)) != "renamed-test" {
		t.Errorf("the process is named %q after a rename from another thread", strings.TrimSpace(string(now)))
	}
}

var errMainThread = errors.New("on the main thread")
