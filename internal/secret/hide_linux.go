package secret

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// handOverVar names the descriptor on which a re-executed process finds
// the secret variables its first image took out of its environment. Its
// name marks a secret, so no implementation is given it either.
const handOverVar = "DRP2_FIXTURES_SECRET_FD"

// maxHandOver bounds what is handed over: the pipe must hold it all before
// anyone reads, and a Linux pipe holds 64 KiB.
const maxHandOver = 60 << 10

// Hide keeps the secret variables of the process's environment from the
// processes it starts. They run as the same user, and on Linux the kernel
// shows any process's initial environment to its user in
// /proc/PID/environ; os.Unsetenv does not change that copy. So Hide, the
// first thing main does, executes the binary again with the secrets taken
// out of its environment, handed over on a pipe, and restores them in the
// new image's own (Go-side) environment, which the kernel does not show.
// It then makes the process non-dumpable, so that a process of the same
// user cannot read its memory or descriptors through /proc or ptrace
// either (root with CAP_SYS_PTRACE still can: see the trust boundary in
// the README). An error says what could not be done; the process then
// carries on as it is.
func Hide() error {
	if v, ok := os.LookupEnv(handOverVar); ok {
		os.Unsetenv(handOverVar)
		fd, name, _ := strings.Cut(v, " ")
		err := join(restore(fd), rename(name))
		return join(err, undumpable())
	}
	var keep, hidden []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); IsName(name) {
			hidden = append(hidden, kv)
		} else {
			keep = append(keep, kv)
		}
	}
	if len(hidden) == 0 {
		return undumpable()
	}
	payload := strings.Join(hidden, "\x00")
	if len(payload) > maxHandOver {
		return join(fmt.Errorf("the secret variables (%d bytes) are too large to hand over", len(payload)), undumpable())
	}
	r, w, err := os.Pipe()
	if err != nil {
		return join(err, undumpable())
	}
	_, err = io.WriteString(w, payload)
	w.Close()
	if err == nil {
		// The read end must survive the exec: clear its close-on-exec flag.
		_, _, errno := syscall.Syscall(syscall.SYS_FCNTL, r.Fd(), syscall.F_SETFD, 0)
		if errno != 0 {
			err = errno
		}
	}
	if err == nil {
		// The new image is /proc/self/exe, the same file whatever happens
		// to its path meanwhile, but the kernel would name the process
		// "exe": it takes back the name it has now (ps -C, pgrep).
		keep = append(keep, handOverVar+"="+strconv.Itoa(int(r.Fd()))+" "+processName())
		err = syscall.Exec("/proc/self/exe", os.Args, keep)
	}
	// Still here: the exec failed, and the environment is as it was.
	r.Close()
	return join(fmt.Errorf("re-executing without the secret variables: %w", err), undumpable())
}

// restore reads the secret variables handed over on descriptor fd into
// the environment.
func restore(fd string) error {
	n, err := strconv.Atoi(fd)
	if err != nil || n < 3 {
		return fmt.Errorf("%s=%q is not a descriptor", handOverVar, fd)
	}
	f := os.NewFile(uintptr(n), "secrets")
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHandOver+1))
	if err != nil {
		return fmt.Errorf("reading the secret variables: %w", err)
	}
	for _, kv := range strings.Split(string(data), "\x00") {
		if name, value, ok := strings.Cut(kv, "="); ok && IsName(name) {
			os.Setenv(name, value)
		}
	}
	return nil
}

// processName is the process's name (comm), "" when it cannot be read.
func processName() string {
	var b [16]byte // the kernel's TASK_COMM_LEN, the terminating NUL included
	if _, _, errno := syscall.Syscall(syscall.SYS_PRCTL, syscall.PR_GET_NAME, uintptr(unsafe.Pointer(&b[0])), 0); errno != 0 {
		return ""
	}
	name, _, _ := strings.Cut(string(b[:]), "\x00")
	return name
}

// rename gives the process the name (comm) its first image had. The name
// ps -C and pgrep match is the main thread's, and prctl(PR_SET_NAME)
// names only the calling thread, which the Go scheduler may have moved
// this goroutine off: /proc/self/comm names the main thread from any
// thread of the process. prctl stays the fallback where /proc is not
// mounted.
func rename(name string) error {
	if name == "" {
		return nil
	}
	if fd, err := syscall.Open("/proc/self/comm", syscall.O_WRONLY|syscall.O_CLOEXEC, 0); err == nil {
		_, werr := syscall.Write(fd, []byte(name))
		syscall.Close(fd)
		if werr == nil {
			return nil
		}
	}
	b := append([]byte(name), 0)
	if _, _, errno := syscall.Syscall(syscall.SYS_PRCTL, syscall.PR_SET_NAME, uintptr(unsafe.Pointer(&b[0])), 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_NAME): %w", errno)
	}
	return nil
}

// undumpable makes the process non-dumpable (prctl PR_SET_DUMPABLE 0).
func undumpable() error {
	if _, _, errno := syscall.Syscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_DUMPABLE): %w", errno)
	}
	return nil
}

func join(a, b error) error {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return fmt.Errorf("%v; %v", a, b)
}
