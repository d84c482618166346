//go:build unix

package harness

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the implementation in a process group of its own, so
// that killing it also kills what it started (a shell script's children).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the implementation's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// The group id is the leader's pid; a negative pid names the group.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
